import type { FailureLimiter } from "../../auth/ratelimit.ts";
import type { Env } from "../../services/env.ts";
import { NotFound } from "../../lib/errors.ts";
import { newCall, runDeclared } from "../door.ts";
import { packagesDoor } from "../doors/packages.ts";
import type { RouteParams } from "../router.ts";
import type { AnyRegistryEndpoint } from "./registry.ts";
import type { RegistryRoute } from "./routes.ts";

/** Runs one registry endpoint: the registry's own credentials if it has any, else the packages door's, the declared access, the handler. */
export async function runRegistry(
  deps: { env: Env; limiter: FailureLimiter },
  route: RegistryRoute,
  request: Request,
  params: RouteParams,
  ip: string,
): Promise<Response> {
  const { env } = deps;
  const spec = (await route.load())[route.name] as AnyRegistryEndpoint | undefined;
  if (!spec || spec.kind !== "registry") throw new Error(`registry endpoint ${route.name} is not in its module`);
  const door = packagesDoor(env, deps.limiter, spec.errors, spec.authenticate);
  const call = newCall(request, ip, spec.access);
  if (!env.settings.packages.enabled) return door.errorResponse(new NotFound("packages are disabled"), call);
  const level = spec.access.package === "write" ? "write" : "read";
  return runDeclared(door, call, { access: spec.access, level, decode: () => ({ params }) }, async (granted) =>
    spec.handler({ env, request, url: call.url, params, principal: call.principal, ...granted } as never),
  );
}
