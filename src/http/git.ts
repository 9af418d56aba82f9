import type { Env } from "../services/env.ts";
import type { FailureLimiter } from "../auth/ratelimit.ts";
import { authenticate } from "../auth/authenticate.ts";
import { levelForMethod } from "../services/access/scopes.ts";
import { decideGitAccess } from "../services/repo/git-access.ts";
import { advertiseRefs, isGitService, serviceRpc, type GitService } from "../git/transport.ts";
import { HearthError, TooManyRequests } from "../lib/errors.ts";
import type { Principal } from "../auth/principal.ts";

const NO_CACHE = {
  Expires: "Fri, 01 Jan 1980 00:00:00 GMT",
  Pragma: "no-cache",
  "Cache-Control": "no-cache, max-age=0, must-revalidate",
};

function text(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...headers } });
}

function challenge(env: Env, message = "Unauthorized\n"): Response {
  return text(401, message, { "WWW-Authenticate": `Basic realm="${env.settings.appName === "hearth" ? "Gitea" : env.settings.appName}"` });
}

export interface GitRequest {
  owner: string;
  /** The repository segment as sent: `name` or `name.git`. */
  repo: string;
  /** `info/refs`, `git-upload-pack` or `git-receive-pack`. */
  action: "info/refs" | GitService;
}

/**
 * Smart HTTP for git: authenticates the way the API does (basic with password or token, token
 * headers), decides access with the same permission function, and streams git both ways.
 */
export async function handleGit(
  env: Env,
  limiter: FailureLimiter,
  request: Request,
  ip: string,
  target: GitRequest,
): Promise<Response> {
  const url = new URL(request.url);
  if (env.settings.repository.disableHttpGit) {
    return text(403, "Interacting with repositories by HTTP protocol is not allowed\n");
  }
  let service: GitService;
  if (target.action === "info/refs") {
    const s = url.searchParams.get("service");
    if (!isGitService(s)) return text(400, "Bad Request\n");
    service = s;
  } else {
    service = target.action;
    const expected = `application/x-${service}-request`;
    if ((request.headers.get("content-type") ?? "").split(";")[0]!.trim() !== expected) {
      return text(400, "Bad Request\n");
    }
  }
  const write = service === "git-receive-pack";
  const repoName = target.repo.replace(/\.git$/i, "");

  let principal: Principal | undefined;
  try {
    principal = (await authenticate(env, { headers: request.headers, query: url.searchParams, ip, gitTransport: true }, limiter))
      .principal;
  } catch (err) {
    if (err instanceof TooManyRequests) {
      return text(429, `${err.message}\n`, { "Retry-After": String(err.retryAfterSeconds) });
    }
    if (err instanceof HearthError && err.status === 401) return challenge(env, `${err.message}\n`);
    throw err;
  }
  if (!principal && env.settings.service.requireSigninView) return challenge(env);
  if (principal && (!principal.user.isActive || principal.user.prohibitLogin)) {
    return text(403, "Your account is disabled.\n");
  }

  const decision = decideGitAccess(env, principal?.user, target.owner, repoName, write);
  if (decision.kind === "redirect") {
    const suffix = target.repo.toLowerCase().endsWith(".git") ? ".git" : "";
    const location = `/${encodeURIComponent(decision.owner)}/${encodeURIComponent(decision.name)}${suffix}/${target.action}${url.search}`;
    // Gitea: RedirectToRepo answers 301 (git follows only a permanent redirect by default), while a
    // renamed owner goes through RedirectToUser's 307 as on every other page.
    return new Response(null, { status: decision.permanent ? 301 : 307, headers: { Location: location } });
  }
  if (decision.kind === "challenge") return challenge(env);
  if (decision.kind === "denied") return text(decision.status, `${decision.message}\n`);

  if (principal?.scope) {
    const level = write ? "write" : levelForMethod("GET");
    if (!principal.scope.has("repository", level)) {
      return text(403, `token does not have at least one of required scope(s), required=[${level}:repository], token scope=${principal.rawScope}\n`);
    }
  }

  // decideGitAccess grants a push only to a doer; the hooks must know who it is, never run without.
  if (write && !principal) return challenge(env);
  const env_ = write && principal
    ? {
        HEARTH_REPO_ID: String(decision.rc.repo.id),
        HEARTH_PUSHER_ID: String(principal.user.id),
        HEARTH_INTERNAL_URL: env.settings.server.localRootUrl,
        HEARTH_INTERNAL_TOKEN: env.settings.security.internalToken,
        ...(env.settings.server.protocol === "http+unix" ? { HEARTH_INTERNAL_SOCKET: env.settings.server.httpAddr } : {}),
      }
    : {};
  const opts = { repoPath: decision.gitDir, service, gitProtocol: request.headers.get("git-protocol"), env: env_ };

  if (target.action === "info/refs") {
    return new Response(advertiseRefs(opts), {
      headers: { "Content-Type": `application/x-${service}-advertisement`, ...NO_CACHE },
    });
  }
  return new Response(serviceRpc(opts, request.body, request.headers.get("content-encoding")), {
    headers: { "Content-Type": `application/x-${service}-result`, ...NO_CACHE },
  });
}
