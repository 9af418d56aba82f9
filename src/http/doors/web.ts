import type { Env } from "../../services/env.ts";
import type { Principal } from "../../auth/principal.ts";
import type { FailureLimiter } from "../../auth/ratelimit.ts";
import { authenticate, checkAccountState } from "../../auth/authenticate.ts";
import { getUserById } from "../../services/user/lookup.ts";
import { doerFor } from "../../services/access/permission.ts";
import { redeemRememberToken } from "../../services/user/sessions.ts";
import { PublicOnlyRefused } from "../../lib/errors.ts";
import { ReadRefused } from "../../services/access/refusals.ts";
import { Forbidden, HearthError, NotFound, Redirect, TooManyRequests, Unauthorized } from "../../lib/errors.ts";
import { html } from "../../lib/html.ts";
import { redactServerPaths } from "../respond.ts";
import { renderPage } from "../web/layout.ts";
import { subUrl, type WebState } from "../web/state.ts";
import type { Call, Door, Moved } from "../door.ts";

/** Gitea's titles for the error pages a person may meet. */
const TITLES: Record<number, string> = {
  400: "Bad request",
  403: "Access denied",
  404: "Page not found",
  409: "Conflict",
  413: "Too large",
  422: "Invalid request",
  429: "Too many requests",
  500: "Internal server error",
};

/**
 * The web pages' door. Credentials: the session cookie, else a remember-me cookie (which starts a
 * new session); never tokens or basic auth, and the session cookie is never honoured by /api/v1.
 * Errors: an HTML page, a sign-in redirect for a page that needs one, 404 for anything the
 * visitor may not read (private names never leak). Redirects: the same page under the current
 * names.
 */
export function webDoor(env: Env, state: WebState, opts: { signInExempt: boolean; tokens?: FailureLimiter }): Door {
  const base = subUrl(env);
  return {
    env,
    async authenticate(call) {
      let principal: Principal | undefined;
      if (opts.tokens && (call.request.headers.has("authorization") || call.url.searchParams.has("token") || call.url.searchParams.has("access_token"))) {
        // A download fetched by a script: the API's credentials, with the API's account checks.
        const req = { headers: call.request.headers, query: call.url.searchParams, ip: call.ip };
        call.principal = (await authenticate(env, req, opts.tokens)).principal;
        checkAccountState(env, call.principal);
        principal = call.principal;
      }
      principal ??= webPrincipal(env, state);
      if (!principal && env.settings.service.requireSigninView && !opts.signInExempt) throw new Unauthorized();
      return principal;
    },

    redirect: (moved, call) => webRedirect(base, moved, call.url),

    errorResponse(err, call) {
      if (err instanceof Unauthorized && opts.tokens && call.request.headers.has("authorization")) {
        // Bad credentials from a script get a challenge, not the sign-in form.
        return new Response(`${err.message}\n`, { status: 401, headers: { "Content-Type": "text/plain; charset=utf-8", "WWW-Authenticate": 'Basic realm="Gitea"' } });
      }
      if (err instanceof Redirect) return new Response(null, { status: err.status, headers: { Location: err.location } });
      if (err instanceof Unauthorized) {
        const back = `${base}${call.url.pathname}${call.url.search}`;
        return new Response(null, { status: 303, headers: { Location: `${base}/user/login?redirect_to=${encodeURIComponent(back)}` } });
      }
      // A repository the visitor may not read is one that does not exist, as Gitea's web answers.
      const status =
        err instanceof ReadRefused || err instanceof NotFound
          ? 404
          : err instanceof PublicOnlyRefused || err instanceof Forbidden
            ? 403
            : err instanceof HearthError
              ? err.status
              : 500;
      if (status === 500) env.log.error("internal error", { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      return errorPage(env, state, call, status, err);
    },
  };
}

/**
 * Who the session (or, failing that, the remember-me cookie) says is calling. An account that was
 * disabled or barred from signing in since is signed out, not let through.
 */
function webPrincipal(env: Env, state: WebState): Principal | undefined {
  let uid = state.session?.uid ?? undefined;
  if (uid === undefined || uid === null) {
    const remember = state.cookies.get(env.settings.security.cookieRememberName);
    const remembered = remember ? redeemRememberToken(env, remember) : undefined;
    if (remembered === undefined) return undefined;
    uid = remembered;
    // Redeemed, so used up: a new session and a new remember-me token.
    state.signIn(uid, true);
  }
  const user = getUserById(env, uid);
  if (!user || !user.isActive || user.prohibitLogin) {
    state.signOut();
    return undefined;
  }
  return { user: doerFor(user, undefined), method: "session", scope: undefined, rawScope: "all" };
}

export function errorPage(env: Env, state: WebState, call: Pick<Call, "request" | "principal">, status: number, err?: unknown): Response {
  const principal: Principal | undefined = call.principal;
  const title = TITLES[status] ?? "Error";
  let detail = "";
  if (status === 404) detail = "The page you are looking for does not exist or you are not allowed to see it.";
  else if (status === 500) detail = env.settings.runMode === "dev" || principal?.user.isAdmin ? redactServerPaths(env, String((err as Error)?.message ?? "")) : "";
  else if (err instanceof HearthError) detail = err.message;
  const headers: Record<string, string> = err instanceof TooManyRequests ? { "Retry-After": String(err.retryAfterSeconds) } : {};
  return renderPage({ env, state, doer: principal?.user }, call.request, {
    title,
    status,
    headers,
    body: html`<section class="landing" aria-labelledby="error-title"><h1 id="error-title">${status} · ${title}</h1>${
      detail ? html`<p>${detail}</p>` : ""
    }<p><a href="${subUrl(env)}/">Go to the home page</a></p></section>`,
  });
}

/** A renamed repository's or account's page under its current name (Gitea: 307 for accounts, 301 for a repository). */
export function webRedirect(base: string, moved: Moved, url: URL): Redirect {
  const parts = url.pathname.split("/");
  const replace = (at: number, name: string) => (parts[at] = encodeURIComponent(name));
  if (moved.kind === "repo") {
    replace(1, moved.to.owner);
    replace(2, moved.to.repo);
    return new Redirect(`${base}${parts.join("/")}${url.search}`, moved.permanent ? 301 : 307);
  }
  const at = parts.findIndex((p) => {
    try {
      return decodeURIComponent(p).toLowerCase() === moved.oldName.toLowerCase();
    } catch {
      return false;
    }
  });
  if (at >= 0) replace(at, moved.newName);
  return new Redirect(`${base}${parts.join("/")}${url.search}`);
}
