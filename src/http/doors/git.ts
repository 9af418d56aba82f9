import type { Env } from "../../services/env.ts";
import type { FailureLimiter } from "../../auth/ratelimit.ts";
import { authenticate } from "../../auth/authenticate.ts";
import { gitRepoRules, ARCHIVED_PUSH } from "../../services/access/git-rules.ts";
import { ReadRefused, RepoArchived, WriteRefused } from "../../services/access/refusals.ts";
import { Forbidden, HearthError, NotFound, Redirect, TooManyRequests, Unauthorized } from "../../lib/errors.ts";
import { errorResponse } from "../respond.ts";
import type { Resources } from "../access.ts";
import type { Call, Door } from "../door.ts";

/** What git asked for: `/{owner}/{repo}[.git]/{action}`. */
export interface GitTarget {
  owner: string;
  /** The repository segment as sent: `name` or `name.git`. */
  repo: string;
  /** The path after the repository: `info/refs`, `git-upload-pack` or `git-receive-pack`. */
  action: string;
  /** A push (receive-pack, or its refs advertisement). */
  write: boolean;
}

export function gitText(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...headers } });
}

/** Bad credentials: git shows the reason with the challenge. */
class CredentialsRefused extends Unauthorized {}

/**
 * The git smart-HTTP door. Credentials: basic (password or token), token headers, with Gitea's rule
 * that a password cannot stand in for two-factor there; an anonymous caller gets a Basic challenge
 * wherever credentials could help. Errors: plain text, a refused read is "Repository not found"
 * (private names never leak). Redirects: the same git URL under the current names. Bodies: the
 * handler streams the pack both ways.
 */
export function gitDoor(deps: { env: Env; limiter: FailureLimiter }, target: GitTarget): Door {
  const { env, limiter } = deps;
  const challenge = (message = "Unauthorized\n") =>
    gitText(401, message, { "WWW-Authenticate": `Basic realm="${env.settings.appName === "hearth" ? "Gitea" : env.settings.appName}"` });
  const repoName = target.repo.replace(/\.git$/i, "");

  const door: Door = {
    env,
    async authenticate(call) {
      const req = { headers: call.request.headers, query: call.url.searchParams, ip: call.ip, gitTransport: true };
      let principal;
      try {
        principal = (await authenticate(env, req, limiter)).principal;
      } catch (err) {
        if (err instanceof Unauthorized) throw new CredentialsRefused(err.message);
        throw err;
      }
      if (!principal && env.settings.service.requireSigninView) throw new Unauthorized();
      // The Actions bot cannot sign in, but a running task's token pushes as it.
      if (principal && !principal.user.actionsTask && (!principal.user.isActive || principal.user.prohibitLogin)) {
        call.principal = principal;
        throw new Forbidden("Your account is disabled.");
      }
      return principal;
    },

    redirect(moved, call) {
      const search = call.url.search;
      if (moved.kind === "account") return new Redirect(`/${encodeURIComponent(moved.newName)}/${target.repo}/${target.action}${search}`);
      const suffix = target.repo.toLowerCase().endsWith(".git") ? ".git" : "";
      const location = `/${encodeURIComponent(moved.to.owner)}/${encodeURIComponent(moved.to.repo)}${suffix}/${target.action}${search}`;
      // Gitea: RedirectToRepo answers 301 (git follows only a permanent redirect by default), while a
      // renamed owner goes through RedirectToUser's 307 as on every other page.
      return new Redirect(location, moved.permanent ? 301 : 307);
    },

    // Gitea's httpBase order: renames, a disabled owner and an archived push first, then the
    // declared permission, then the token scope.
    resolve(call, checks) {
      const moved = gitRepoRules(env, target.owner, repoName, target.write);
      if (moved) {
        const to = { owner: moved.owner, repo: moved.name };
        throw door.redirect({ kind: "repo", from: { owner: target.owner, repo: repoName }, to, permanent: moved.permanent }, call);
      }
      let granted: Resources;
      try {
        granted = checks.resolve();
      } catch (err) {
        granted = anonymousPull(call, () => checks.resolve(undefined), err);
      }
      checks.enforce();
      return granted;
    },

    errorResponse(err, call) {
      const signedIn = call.principal !== undefined;
      if (err instanceof Redirect) return new Response(null, { status: err.status, headers: { Location: err.location } });
      if (err instanceof CredentialsRefused) return challenge(`${err.message}\n`);
      if (err instanceof TooManyRequests) return gitText(429, `${err.message}\n`, { "Retry-After": String(err.retryAfterSeconds) });
      if (err instanceof Unauthorized) return challenge();
      if (err instanceof NotFound || err instanceof ReadRefused) return signedIn ? gitText(404, "Repository not found\n") : challenge();
      if (err instanceof WriteRefused) return gitText(403, "User permission denied for writing.\n");
      if (err instanceof RepoArchived) return gitText(403, `${ARCHIVED_PUSH}\n`);
      if (err instanceof HearthError) return gitText(err.status, `${err.message}\n`);
      return errorResponse(env, err);
    },
  };

  /**
   * Gitea's httpBase asks nothing of a pull anonymous callers may make (a public repository of a
   * public owner): whoever could clone it signed out clones it signed in too, a restricted account
   * or a doer refused by the declaration included. The one git rule about whose permission counts.
   */
  function anonymousPull(call: Call, asAnonymous: () => Resources, refusal: unknown): Resources {
    if (target.write || !call.principal || env.settings.service.requireSigninView) throw refusal;
    try {
      return asAnonymous();
    } catch {
      throw refusal;
    }
  }

  return door;
}
