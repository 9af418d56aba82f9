import { Memoirist } from "memoirist";

export type RouteParams = Record<string, string>;
export type RouteHandler = (request: Request, params: RouteParams) => Response | Promise<Response>;

export interface RouteMatch {
  handler: RouteHandler;
  params: RouteParams;
}

/**
 * Method and path to handler, over memoirist's radix tree (the router Elysia itself uses). Paths take
 * `:name` parameters and a trailing `*`. As Gitea's router does: a trailing slash matches the same
 * route, HEAD is answered by the GET route (the body is dropped by `answerHead`), and each named
 * parameter is percent-decoded once (a parameter that does not decode matches nothing). The `*` rest
 * stays escaped: its reader decodes it (`wildcard()` in api/v1/repos/context.ts), so an escaped `/`
 * inside a branch name is told from a path separator where that matters.
 */
export class Router {
  private readonly tree = new Memoirist<RouteHandler>();
  /** Every route added, as declared (for the architecture test's look at what the server answers). */
  readonly routes: { method: string; path: string }[] = [];

  add(method: string, path: string, handler: RouteHandler): void {
    this.routes.push({ method, path });
    this.tree.add(method, path, handler);
    if (path.length > 1 && !path.endsWith("/") && !path.endsWith("*")) this.tree.add(method, `${path}/`, handler);
  }

  find(method: string, path: string): RouteMatch | undefined {
    const found = this.tree.find(method, path) ?? (method === "HEAD" ? this.tree.find("GET", path) : null);
    if (!found) return undefined;
    const params: RouteParams = {};
    for (const [name, raw] of Object.entries(found.params as Record<string, string>)) {
      const value = name === "*" ? raw : decodeParam(raw);
      if (value === undefined) return undefined;
      params[name] = value;
    }
    return { handler: found.store, params };
  }
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
