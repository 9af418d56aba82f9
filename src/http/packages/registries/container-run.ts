import type { FailureLimiter } from "../../../auth/ratelimit.ts";
import type { Env } from "../../../services/env.ts";
import { newCall, runDeclared } from "../../door.ts";
import { containerDoor, containerErrorResponse, DISTRIBUTION_API_VERSION } from "../../doors/container.ts";
import type { RouteParams } from "../../router.ts";
import type { AnyRegistryEndpoint } from "../registry.ts";
import type { RegistryRoute } from "../routes.ts";

/**
 * Runs one container registry endpoint: the container door's credentials and challenge, the
 * declared access, the handler; every answer, errors included, says `registry/2.0`.
 */
export async function runContainer(
  deps: { env: Env; limiter: FailureLimiter },
  route: RegistryRoute,
  request: Request,
  params: RouteParams,
  ip: string,
): Promise<Response> {
  const { env } = deps;
  const spec = (await route.load())[route.name] as AnyRegistryEndpoint | undefined;
  if (!spec || spec.kind !== "registry") throw new Error(`container endpoint ${route.name} is not in its module`);
  if (!env.settings.packages.enabled) return containerErrorResponse(404, "UNSUPPORTED", "packages are disabled");
  const door = containerDoor(env, deps.limiter, { open: route.name === "token" });
  const call = newCall(request, ip, spec.access);
  const level = spec.access.package === "write" ? "write" : "read";
  const res = await runDeclared(door, call, { access: spec.access, level, decode: () => ({ params }) }, async (granted) =>
    spec.handler({ env, request, url: call.url, params, principal: call.principal, ...granted } as never),
  );
  for (const [k, v] of Object.entries(DISTRIBUTION_API_VERSION)) res.headers.set(k, v);
  return res;
}
