export type RouteParams = Record<string, string>;
export type RouteHandler = (request: Request, params: RouteParams) => Response | Promise<Response>;

export interface RouteMatch {
  handler: RouteHandler;
  params: RouteParams;
}

/**
 * One node of the route tree, a path segment deep: routes are whole segments (`name`, `:param`,
 * a trailing `*`), so a node holds its static children by name, at most one parameter child,
 * and the handlers that end here or take the rest of the path, by method. (memoirist's character
 * radix tree, used before, cost ~1.5 KiB a route: its children were objects keyed by char code.)
 */
interface RouteNode {
  statics?: Map<string, RouteNode>;
  param?: { name: string; node: RouteNode };
  handlers?: Map<string, RouteHandler>;
  rest?: Map<string, RouteHandler>;
}

/**
 * Method and path to handler. Paths take `:name` parameters and a trailing `*`; a static segment
 * wins over a parameter, a parameter over `*`, trying the next when the first leads nowhere. As
 * Gitea's router does: a trailing slash matches the same route, HEAD is answered by the GET route
 * (the body is dropped by `answerHead`), and each named parameter is percent-decoded once (a
 * parameter that does not decode matches nothing). The `*` rest stays escaped: its reader decodes
 * it (`wildcard()` in api/v1/repos/context.ts), so an escaped `/` inside a branch name is told
 * from a path separator where that matters.
 */
export class Router {
  private readonly root: RouteNode = {};
  /** Every route added, as declared (for the architecture test's look at what the server answers). */
  readonly routes: { method: string; path: string }[] = [];

  add(method: string, path: string, handler: RouteHandler): void {
    this.routes.push({ method, path });
    const segments = path.slice(1).split("/");
    const rest = segments[segments.length - 1] === "*";
    if (rest) segments.pop();
    let node = this.root;
    for (const seg of segments) {
      if (seg.startsWith(":")) {
        const name = seg.slice(1);
        node.param ??= { name, node: {} };
        if (node.param.name !== name) throw new Error(`route ${path}: parameter :${name} where another route has :${node.param.name}`);
        node = node.param.node;
      } else {
        node.statics ??= new Map();
        let next = node.statics.get(seg);
        if (!next) node.statics.set(seg, (next = {}));
        node = next;
      }
    }
    const table = rest ? (node.rest ??= new Map()) : (node.handlers ??= new Map());
    if (!table.has(method)) table.set(method, handler);
  }

  find(method: string, path: string): RouteMatch | undefined {
    let found = this.lookup(method, path);
    // A trailing slash reaches the route declared without it, before any `*` route that would take
    // the path as it is.
    if (path.length > 1 && path.endsWith("/") && (!found || "*" in found.params)) {
      const bare = this.lookup(method, path.slice(0, -1));
      if (bare && !("*" in bare.params)) found = bare;
    }
    if (!found) return undefined;
    // Named parameters are decoded once; one that does not decode matches nothing.
    for (const name in found.params) {
      if (name === "*") continue;
      const value = decodeParam(found.params[name]!);
      if (value === undefined) return undefined;
      found.params[name] = value;
    }
    return found;
  }

  private lookup(method: string, path: string): Found | undefined {
    if (path.charCodeAt(0) !== 47) return undefined;
    const segments = path.slice(1).split("/");
    return match(this.root, segments, 0, method, [], []) ?? (method === "HEAD" ? match(this.root, segments, 0, "GET", [], []) : undefined);
  }
}

/** A route found: its handler and its parameters, raw. */
type Found = RouteMatch;

/**
 * The first route, in precedence order, that takes `segments` from `at` on. The parameters met on
 * the way are kept on `values` (pushed and popped as the walk backtracks) and made into an object
 * only for the route that matches.
 */
function match(node: RouteNode, segments: string[], at: number, method: string, names: string[], values: string[]): Found | undefined {
  if (at === segments.length) {
    const handler = node.handlers?.get(method);
    return handler ? { handler, params: paramsOf(names, values) } : undefined;
  }
  const seg = segments[at]!;
  const child = node.statics?.get(seg);
  if (child) {
    const found = match(child, segments, at + 1, method, names, values);
    if (found) return found;
  }
  if (node.param && seg !== "") {
    names.push(node.param.name);
    values.push(seg);
    const found = match(node.param.node, segments, at + 1, method, names, values);
    if (found) return found;
    names.pop();
    values.pop();
  }
  const rest = node.rest?.get(method);
  if (!rest) return undefined;
  const params = paramsOf(names, values);
  params["*"] = at === segments.length - 1 ? seg : segments.slice(at).join("/");
  return { handler: rest, params };
}

function paramsOf(names: string[], values: string[]): RouteParams {
  const params: RouteParams = {};
  for (let i = 0; i < names.length; i++) params[names[i]!] = values[i]!;
  return params;
}

function decodeParam(raw: string): string | undefined {
  if (!raw.includes("%")) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** The path of a request URL, without query: what the router matches, left encoded. */
export function requestPath(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const query = url.indexOf("?", start);
  return query < 0 ? url.slice(start) : url.slice(start, query);
}

/** A HEAD request's answer: the GET answer's status and headers, no body. */
export async function answerHead(response: Response): Promise<Response> {
  await response.body?.cancel().catch(() => {});
  return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
}
