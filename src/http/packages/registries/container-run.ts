import type { FailureLimiter } from "../../../auth/ratelimit.ts";
import type { Env } from "../../../services/env.ts";
import { containerDoor, DISTRIBUTION_API_VERSION } from "../../doors/container.ts";
import { runEndpoint } from "../run-registry.ts";
import type { RouteParams } from "../../router.ts";
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
  const res = await runEndpoint(deps, route, request, params, ip, () => containerDoor(deps.env, deps.limiter, { open: route.name === "token" }));
  for (const [k, v] of Object.entries(DISTRIBUTION_API_VERSION)) res.headers.set(k, v);
  return res;
}
