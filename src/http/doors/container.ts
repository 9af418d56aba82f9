import type { Env } from "../../services/env.ts";
import type { FailureLimiter } from "../../auth/ratelimit.ts";
import type { Principal } from "../../auth/principal.ts";
import { authenticate, checkAccountState } from "../../auth/authenticate.ts";
import { Forbidden, HearthError, NotFound, Redirect, Unauthorized } from "../../lib/errors.ts";
import { doerFor } from "../../services/access/permission.ts";
import { ScopeSet } from "../../services/access/scopes.ts";
import { getUserById } from "../../services/user/lookup.ts";
import { ContainerError } from "../../services/packages/container/errors.ts";
import { GHOST_USER_ID, verifyRegistryToken } from "../../services/packages/container/token.ts";
import { redactServerPaths } from "../respond.ts";
import type { Call, Door } from "../door.ts";

/** Every answer of the container registry carries it (Gitea's setResponseHeaders). */
export const DISTRIBUTION_API_VERSION = { "Docker-Distribution-Api-Version": "registry/2.0" } as const;

/** The distribution spec's error body, as Gitea's apiErrorDefined writes it. */
export function containerErrorResponse(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  const body = `${JSON.stringify({ errors: [{ code, message }] })}\n`;
  return new Response(body, { status, headers: { "Content-Type": "application/json", ...DISTRIBUTION_API_VERSION, ...headers } });
}

/** What the container door learned of the caller beyond the principal. */
export interface ContainerCall extends Call {
  /** An anonymous registry token (Gitea's ghost user) was presented. */
  anonymousToken?: boolean;
}

/**
 * The container registry's door (`/v2/...` at the site root). Credentials: the registry's bearer
 * tokens from `/v2/token` (the ghost user's for an anonymous caller), and Gitea's package
 * credentials (Basic, an access token as `Bearer` or `token`). Unless `open` (the token endpoint),
 * a caller with neither gets Gitea's 401 challenge naming the token endpoint (ReqContainerAccess),
 * as does an anonymous token when REQUIRE_SIGNIN_VIEW is set. Errors are the spec's JSON.
 */
export function containerDoor(env: Env, limiter: FailureLimiter, opts: { open: boolean }): Door {
  const challenge = { "WWW-Authenticate": `Bearer realm="${env.settings.server.rootUrl}v2/token",service="container_registry",scope="*"` };
  return {
    env,
    async authenticate(call: ContainerCall) {
      const bearer = /^bearer\s+(\S+)\s*$/i.exec(call.request.headers.get("authorization")?.trim() ?? "")?.[1];
      const claims = bearer ? verifyRegistryToken(env, bearer) : undefined;
      let principal: Principal | undefined;
      if (claims) {
        if (claims.userId === GHOST_USER_ID) call.anonymousToken = true;
        else {
          const user = getUserById(env, claims.userId);
          if (!user) throw new Unauthorized("authentication required");
          const scope = claims.scope ? ScopeSet.parse(claims.scope) : undefined;
          principal = { user: doerFor(user, scope), method: "token", scope, rawScope: claims.scope || "all" };
        }
      } else {
        const req = { headers: call.request.headers, query: new URLSearchParams(), ip: call.ip };
        principal = (await authenticate(env, req, limiter)).principal;
      }
      call.principal = principal;
      if (principal) checkAccountState(env, principal);
      if (!opts.open && !principal && (!call.anonymousToken || env.settings.service.requireSigninView)) throw new Unauthorized("authentication required");
      return principal;
    },

    redirect(moved, call) {
      if (moved.kind === "repo") return new Redirect(call.url.pathname + call.url.search);
      const parts = call.url.pathname.split("/");
      // /v2/{owner}/...
      if (parts[2]?.toLowerCase() === moved.oldName.toLowerCase()) parts[2] = encodeURIComponent(moved.newName.toLowerCase());
      return new Redirect(`${parts.join("/")}${call.url.search}`);
    },

    errorResponse(err, call) {
      if (err instanceof Redirect) return new Response(null, { status: err.status, headers: { Location: err.location, ...DISTRIBUTION_API_VERSION } });
      if (err instanceof ContainerError) return containerErrorResponse(err.status, err.code, err.message);
      if (err instanceof Unauthorized) return containerErrorResponse(401, "UNAUTHORIZED", "authentication required", challenge);
      if (err instanceof Forbidden) return containerErrorResponse(403, "DENIED", err.message === "reqPackageAccess" ? "requested access to the resource is denied" : err.message);
      // An owner that does not exist: the repository name is unknown.
      if (err instanceof NotFound) return containerErrorResponse(404, "NAME_UNKNOWN", "repository name not known to registry");
      if (err instanceof HearthError) return containerErrorResponse(err.status, err.status === 413 ? "SIZE_INVALID" : "UNSUPPORTED", err.message);
      env.log.error("internal error", { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      const show = env.settings.runMode === "dev" || call.principal?.user.isAdmin;
      return containerErrorResponse(500, "UNKNOWN", show && err instanceof Error ? redactServerPaths(env, err.message) : "internal server error");
    },
  };
}
