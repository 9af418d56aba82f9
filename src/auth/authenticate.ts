import type { Env } from "../services/env.ts";
import type { UserRow } from "../db/schema/index.ts";
import { findToken, findUserByName, signInWithPassword, touchToken } from "../services/user/signin.ts";
import { hasTotp, verifyTotp } from "../services/user/twofactor.ts";
import { storedScope } from "../services/user/tokens.ts";
import { Forbidden, NotFound, TooManyRequests, Unauthorized } from "../lib/errors.ts";
import { ScopeSet } from "../services/access/scopes.ts";
import type { Principal } from "./principal.ts";
import { doerFor } from "../services/access/permission.ts";
import type { FailureLimiter } from "./ratelimit.ts";
import { botForTask, taskOfToken } from "../services/actions/bot.ts";

export const QUERY_TOKEN_WARNING =
  "token and access_token API authentication is deprecated and will be removed in gitea 1.23. Please use AuthorizationHeaderToken instead. Existing queries will continue to work but without authorization.";

/** Gitea's message for every credential failure: it never says whether the user exists. */
export const BAD_CREDENTIALS = "invalid username, password or token";

export interface AuthRequest {
  headers: Headers;
  query: URLSearchParams;
  /** Client address, for failure rate limiting. */
  ip: string;
  /**
   * Git over HTTP cannot send a one-time code: an account with two-factor authentication must use
   * a token there, and a password login is refused with Gitea's explanation.
   */
  gitTransport?: boolean;
}

export const GIT_2FA_MESSAGE =
  "Users with two-factor authentication enabled cannot perform HTTP/HTTPS operations via plain username and password. Please create and use a personal access token on the user settings page";

export interface AuthOutcome {
  principal: Principal | undefined;
  /** A query-string token was present: the response must carry the deprecation warning. */
  usedQueryToken: boolean;
}

/**
 * Resolves the doer the way Gitea's API auth group does: token (query, then `Authorization:
 * token|Bearer`), then Basic (token as username or password, then password + TOTP), then the
 * reverse-proxy header when enabled. The first method that yields a user wins; when none does
 * and one failed, the request is refused with 401. Session cookies are never looked at.
 */
export async function authenticate(env: Env, req: AuthRequest, limiter: FailureLimiter): Promise<AuthOutcome> {
  const { settings } = env;
  const usedQueryToken = req.query.has("token") || req.query.has("access_token");
  let failed = false;

  const tokenCandidate = (() => {
    if (!settings.security.disableQueryAuthToken) {
      const q = req.query.get("token") || req.query.get("access_token");
      if (q) return q;
    }
    const parts = (req.headers.get("authorization") ?? "").trim().split(/\s+/);
    if (parts.length === 2 && (parts[0] === "token" || parts[0]!.toLowerCase() === "bearer")) return parts[1]!;
    return undefined;
  })();

  if (tokenCandidate !== undefined) {
    const found = findToken(env, tokenCandidate);
    if (found) return { principal: tokenPrincipal(env, found, "token"), usedQueryToken };
    const task = taskPrincipal(env, tokenCandidate, "token");
    if (task) return { principal: task, usedQueryToken };
    failed = true;
  }

  const basic = parseBasic(req.headers.get("authorization"));
  if (basic) {
    const principal = await basicAuth(env, basic, req, limiter);
    if (principal) return { principal, usedQueryToken };
    failed = true;
  }

  if (settings.service.enableReverseProxyAuthenticationApi) {
    const name = req.headers.get(settings.security.reverseProxyAuthenticationUser)?.trim();
    if (name) {
      const user = findUserByName(env, name);
      if (user) return { principal: { user, method: "reverse_proxy", scope: undefined, rawScope: "all" }, usedQueryToken };
      failed = true;
    }
  }

  if (failed) throw new Unauthorized(BAD_CREDENTIALS);
  return { principal: undefined, usedQueryToken };
}

function tokenPrincipal(
  env: Env,
  found: NonNullable<ReturnType<typeof findToken>>,
  method: Principal["method"],
): Principal {
  touchToken(env, found.token.id);
  const rawScope = storedScope(found.token);
  const scope = ScopeSet.parse(rawScope);
  return { user: doerFor(found.user, scope), method, scope, rawScope, tokenId: found.token.id };
}

/**
 * A running task's token (its job's GITEA_TOKEN): the Actions bot, acting for that task alone
 * (services/access/permission.ts ActionsTaskGrant), with every scope, as Gitea's task tokens.
 */
function taskPrincipal(env: Env, token: string, method: Principal["method"]): Principal | undefined {
  const task = taskOfToken(env, token);
  if (!task) return undefined;
  return { user: botForTask(env, task), method, scope: undefined, rawScope: "all" };
}

function parseBasic(header: string | null): { user: string; password: string } | undefined {
  if (!header) return undefined;
  const m = /^basic\s+(\S+)\s*$/i.exec(header.trim());
  if (!m) return undefined;
  let decoded: string;
  try {
    decoded = Buffer.from(m[1]!, "base64").toString("utf8");
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

async function basicAuth(
  env: Env,
  creds: { user: string; password: string },
  req: AuthRequest,
  limiter: FailureLimiter,
): Promise<Principal | undefined> {
  const { ip, headers } = req;
  // A token may stand in for either half (git credential helpers put it in the password);
  // Gitea counts such a login as basic auth, and tokens skip the two-factor check.
  const asToken = creds.password === "" || creds.password === "x-oauth-basic" ? creds.user : creds.password;
  const found = findToken(env, asToken);
  if (found) return tokenPrincipal(env, found, "basic");
  const task = taskPrincipal(env, asToken, "basic");
  if (task) return task;

  const wait = limiter.retryAfter(ip);
  if (wait > 0) throw new TooManyRequests(wait, "too many failed sign-in attempts, try again later");
  const user = await signInWithPassword(env, creds.user, creds.password);
  if (!user) {
    limiter.recordFailure(ip);
    return undefined;
  }
  if (req.gitTransport && hasTotp(env, user)) throw new Unauthorized(GIT_2FA_MESSAGE);
  if (hasTotp(env, user) && !(await verifyTotp(env, user, headers.get("x-gitea-otp")?.trim() ?? ""))) {
    limiter.recordFailure(ip);
    throw new Unauthorized("invalid provided OTP");
  }
  return { user, method: "basic", scope: undefined, rawScope: "all" };
}

/**
 * Gitea's verifyAuthWithOptions: account state checks that apply to every API call, whatever
 * the credentials.
 */
export function checkAccountState(env: Env, principal: Principal | undefined): void {
  if (!principal) {
    if (env.settings.service.requireSigninView) throw new Forbidden("Only signed in user is allowed to call APIs.");
    return;
  }
  const u = principal.user;
  // The Actions bot cannot sign in, but a running task's token speaks for it.
  if (u.actionsTask) return;
  if (!u.isActive || u.prohibitLogin) {
    throw new Forbidden("This account is prohibited from signing in, please contact your site administrator.");
  }
  if (u.mustChangePassword) {
    throw new Forbidden(`You must change your password. Change it at: ${env.settings.server.rootUrl}/user/change_password`);
  }
}

/** Gitea's sudo: an admin acts as another user named by `?sudo=` or the `Sudo` header. */
export function applySudo(env: Env, principal: Principal | undefined, req: AuthRequest): Principal | undefined {
  const target = req.query.get("sudo") || req.headers.get("sudo");
  if (!target) return principal;
  if (!principal?.user.isAdmin) throw new Forbidden("Only administrators allowed to sudo.");
  const user: UserRow | undefined = findUserByName(env, target);
  if (!user) throw new NotFound(`user redirect does not exist [name: ${target}]`);
  // The token still speaks for the switched-to account: a public-only one stays public-only.
  return { ...principal, user: doerFor(user, principal.scope), sudoBy: principal.user };
}
