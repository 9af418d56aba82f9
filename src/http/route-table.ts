import type { AnyOperation } from "./route.ts";

/** What the router needs of an operation (api/v1/manifest.gen.ts holds these for all of them). */
export interface ApiRoute {
  method: string;
  path: string;
  operationId: string;
  /** Index of the module that declares it, in api/v1/manifest.gen.ts's `apiGroups`. */
  group: number;
  suffix?: AnyOperation["suffix"];
}

export interface RouteEntry<R> {
  method: string;
  path: string;
  /** The operation a request on this route is for, with its parameters; undefined when none is. */
  pick(params: Record<string, string>): { op: R; params: Record<string, string> } | undefined;
}

/**
 * The router's view of the operations: one route per method and path. Operations declared with a
 * `suffix` (Gitea's `{index}.{diffType}`) share the route of their plain sibling and are picked by
 * the ending of the last path parameter; a suffix-only route answers only suffixed segments.
 */
export function routeTable<R extends Pick<ApiRoute, "method" | "path" | "suffix">>(ops: readonly R[]): RouteEntry<R>[] {
  const groups = new Map<string, { plain?: R; suffixed: R[] }>();
  for (const op of ops) {
    const key = `${op.method} ${op.path}`;
    const group = groups.get(key) ?? { suffixed: [] };
    if (op.suffix) group.suffixed.push(op);
    else if (group.plain) throw new Error(`two operations on ${key}`);
    else group.plain = op;
    groups.set(key, group);
  }
  return [...groups.entries()].map(([key, { plain, suffixed }]) => {
    const [method, path] = key.split(" ") as [string, string];
    const last = /:([A-Za-z_][A-Za-z0-9_]*)$/.exec(path)?.[1];
    if (suffixed.length && !last) throw new Error(`a suffixed operation needs a path ending in a parameter: ${key}`);
    const matchers = suffixed.map((op) => ({ op, re: new RegExp(`^(.+)\\.(${op.suffix!.values.map((v) => v.replace(/\W/g, "\\$&")).join("|")})$`) }));
    return {
      method,
      path,
      pick(params) {
        for (const { op, re } of matchers) {
          const m = re.exec(params[last!] ?? "");
          if (m) return { op, params: { ...params, [last!]: m[1]!, [op.suffix!.name]: m[2]! } };
        }
        return plain && { op: plain, params };
      },
    };
  });
}
