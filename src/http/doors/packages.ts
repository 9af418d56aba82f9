import type { Env } from "../../services/env.ts";
import type { FailureLimiter } from "../../auth/ratelimit.ts";
import { authenticate, checkAccountState } from "../../auth/authenticate.ts";
import { HearthError, Redirect, Unauthorized } from "../../lib/errors.ts";
import { redactServerPaths } from "../respond.ts";
import type { Door } from "../door.ts";
import type { Principal } from "../../auth/principal.ts";

/** How a registry words an error (status and message) in its protocol's own body. */
export type RegistryErrorFormat = (status: number, message: string) => Response;

/**
 * A registry's own credentials (Chef's signed headers), tried before the door's: a principal, or
 * undefined when the request does not carry them.
 */
export type RegistryAuthenticator = (env: Env, request: Request) => Principal | undefined | Promise<Principal | undefined>;

/** Gitea's default for package registries: the message as plain text. */
export const plainTextError: RegistryErrorFormat = (status, message) =>
  new Response(`${message}\n`, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/**
 * The package registries' door (`/api/packages/{owner}/{type}/...`). Credentials: Gitea's for
 * packages — Basic with a password or a token, `Authorization: token|Bearer` — with the API's
 * account checks; a 401 carries `WWW-Authenticate: Basic realm="Gitea Package API"` so clients
 * retry with credentials. Errors: the registry's own body (`format`), plain text by default.
 * Redirects: the same path under an owner's new name. `own`: a registry's own credentials, tried
 * first (see RegistrySpec.authenticate).
 */
export function packagesDoor(env: Env, limiter: FailureLimiter, format: RegistryErrorFormat = plainTextError, own?: RegistryAuthenticator): Door {
  return {
    env,
    async authenticate(call) {
      const req = { headers: call.request.headers, query: call.url.searchParams, ip: call.ip };
      call.principal = (own && (await own(env, call.request))) || (await authenticate(env, req, limiter)).principal;
      checkAccountState(env, call.principal);
      return call.principal;
    },

    redirect(moved, call) {
      if (moved.kind === "repo") return new Redirect(call.url.pathname + call.url.search);
      const parts = call.url.pathname.split("/");
      // /api/packages/{owner}/...
      if (parts[3]?.toLowerCase() === moved.oldName.toLowerCase()) parts[3] = encodeURIComponent(moved.newName);
      return new Redirect(`${parts.join("/")}${call.url.search}`);
    },

    errorResponse(err, call) {
      if (err instanceof Redirect) return new Response(null, { status: err.status, headers: { Location: err.location } });
      if (err instanceof HearthError) {
        const res = format(err.status, err.message);
        if (err instanceof Unauthorized) res.headers.set("WWW-Authenticate", 'Basic realm="Gitea Package API"');
        return res;
      }
      env.log.error("internal error", { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      const show = env.settings.runMode === "dev" || call.principal?.user.isAdmin;
      return format(500, show && err instanceof Error ? redactServerPaths(env, err.message) : "internal server error");
    },
  };
}
