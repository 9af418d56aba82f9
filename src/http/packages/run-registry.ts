import type { FailureLimiter } from "../../auth/ratelimit.ts";
import type { Env } from "../../services/env.ts";
import { NotFound } from "../../lib/errors.ts";
import { newCall, runDeclared, type Door } from "../door.ts";
import { packagesDoor } from "../doors/packages.ts";
import type { RouteParams } from "../router.ts";
import type { AnyRegistryEndpoint } from "./registry.ts";
import type { RegistryRoute } from "./routes.ts";

/**
 * Runs one registry endpoint through `doorFor(spec)`: the door's credentials, the declared access
 * (the package access of the path's owner, the package token scope), then the handler. Every
 * registry, the container one at /v2/ included, goes through here.
 */
export async function runEndpoint(
  deps: { env: Env; limiter: FailureLimiter },
  route: RegistryRoute,
  request: Request,
  params: RouteParams,
  ip: string,
  doorFor: (spec: AnyRegistryEndpoint) => Door,
): Promise<Response> {
  const { env } = deps;
  const spec = (await route.load())[route.name] as AnyRegistryEndpoint | undefined;
  if (!spec || spec.kind !== "registry") throw new Error(`registry endpoint ${route.name} is not in its module`);
  const door = doorFor(spec);
  const call = newCall(request, ip, spec.access);
  if (!env.settings.packages.enabled) return door.errorResponse(new NotFound("packages are disabled"), call);
  const level = spec.access.package === "write" ? "write" : "read";
  return runDeclared(door, call, { access: spec.access, level, decode: () => ({ params }) }, async (granted) =>
    spec.handler({ env, request, url: call.url, params, principal: call.principal, ...granted } as never),
  );
}

/** A registry under /api/packages/{owner}/: the registry's own credentials if it has any, else the packages door's. */
export function runRegistry(deps: { env: Env; limiter: FailureLimiter }, route: RegistryRoute, request: Request, params: RouteParams, ip: string): Promise<Response> {
  return runEndpoint(deps, route, request, params, ip, (spec) => packagesDoor(deps.env, deps.limiter, spec.errors, spec.authenticate));
}
