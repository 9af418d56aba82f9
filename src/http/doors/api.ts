import type { Env } from "../../services/env.ts";
import type { FailureLimiter } from "../../auth/ratelimit.ts";
import { applySudo, authenticate, checkAccountState, QUERY_TOKEN_WARNING } from "../../auth/authenticate.ts";
import { PublicOnlyRefused, Redirect } from "../../lib/errors.ts";
import { errorResponse } from "../respond.ts";
import { scopeCategories } from "../route.ts";
import type { Door, Moved } from "../door.ts";

/**
 * The /api/v1 door. Credentials: tokens (query, `Authorization: token|Bearer`), basic with password
 * or token, the reverse-proxy header, then the account state and sudo (Gitea's API auth group).
 * Errors: Gitea's `{message, url}` JSON. Redirects: the same API URL under the current names.
 * Bodies: the operation runner reads and validates JSON/multipart; downloads stream a Response.
 */
export function apiDoor(deps: { env: Env; limiter: FailureLimiter }): Door {
  const { env, limiter } = deps;
  return {
    env,
    async authenticate(call) {
      const authReq = { headers: call.request.headers, query: call.url.searchParams, ip: call.ip };
      if (call.url.searchParams.has("token") || call.url.searchParams.has("access_token")) {
        call.headers.Warning = QUERY_TOKEN_WARNING;
        call.headers["X-Gitea-Warning"] = QUERY_TOKEN_WARNING;
      }
      call.principal = (await authenticate(env, authReq, limiter)).principal;
      checkAccountState(env, call.principal);
      return applySudo(env, call.principal, authReq);
    },
    redirect: (moved, call) => apiRedirect(moved, call.url),
    errorResponse(err, call) {
      // Gitea words a public-only refusal by the operation's scope categories ("... public issues").
      const worded = err instanceof PublicOnlyRefused ? err.worded(scopeCategories(call.access)) : err;
      return errorResponse(env, worded, call.headers, call.principal);
    },
  };
}

/**
 * The API's redirect for a renamed resource: a repository's `/api/v1/repos/{owner}/{repo}/...`
 * under its current names (301, 307 when its owner was renamed, as Gitea's RedirectToRepo and
 * RedirectToUser), an account's former name replaced by its current one in the request's own URL.
 */
export function apiRedirect(moved: Moved, url: URL): Redirect {
  if (moved.kind === "repo") {
    const at = (o: string, r: string) => `/api/v1/repos/${encodeURIComponent(o)}/${encodeURIComponent(r)}`;
    const prefix = at(moved.from.owner, moved.from.repo);
    const rest = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : "";
    return new Redirect(`${at(moved.to.owner, moved.to.repo)}${rest}${url.search}`, moved.permanent ? 301 : 307);
  }
  const parts = url.pathname.split("/");
  const decoded = (p: string) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  };
  const at = parts.findIndex((p) => decoded(p).toLowerCase() === moved.oldName.toLowerCase());
  if (at >= 0) parts[at] = encodeURIComponent(moved.newName);
  return new Redirect(`${parts.join("/")}${url.search}`);
}
