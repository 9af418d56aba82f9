import type { Env } from "../services/env.ts";
import type { Principal } from "../auth/principal.ts";
import { applySudo, authenticate, checkAccountState, QUERY_TOKEN_WARNING } from "../auth/authenticate.ts";
import { levelForMethod } from "../services/access/scopes.ts";
import type { FailureLimiter } from "../auth/ratelimit.ts";
import { AccountMoved, Forbidden, PublicOnlyRefused, Redirect, Unauthorized } from "../lib/errors.ts";
import { readApiBody } from "./body.ts";
import { paginationHeaders, readPage } from "./pagination.ts";
import { errorResponse, jsonResponse } from "./respond.ts";
import { Reply, scopeCategories, type AnyOperation, type OpContext } from "./route.ts";
import { validate } from "./validate.ts";
import { resolveResources, type Resources } from "./access.ts";

export interface RunnerDeps {
  env: Env;
  limiter: FailureLimiter;
}

/** Token scope and sign-in checks declared on the operation, in Gitea's order: scope, then sign-in. */
export function enforceAccess(op: AnyOperation, principal: Principal | undefined): void {
  const { signIn } = op.access;
  const categories = scopeCategories(op.access);
  if (categories.length && principal?.scope) {
    const level = levelForMethod(op.method);
    const tokenScope = principal.scope;
    if (!categories.every((c) => tokenScope.has(c, level))) {
      const required = categories.map((c) => `${level}:${c}`).join(" ");
      throw new Forbidden(
        `token does not have at least one of required scope(s), required=[${required}], token scope=${principal.rawScope}`,
      );
    }
  }
  if (!signIn) return;
  if (!principal) throw new Unauthorized("token is required");
  if (signIn === "admin" && !principal.user.isAdmin) throw new Forbidden("user should be the site admin");
}

/** Runs one API operation: authenticate, check access, validate input, call the handler, shape the reply. */
export async function runOperation(
  deps: RunnerDeps,
  op: AnyOperation,
  request: Request,
  rawParams: Record<string, string>,
  ip: string,
): Promise<Response> {
  const { env } = deps;
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  let principal: Principal | undefined;
  try {
    const authReq = { headers: request.headers, query: url.searchParams, ip };
    if (url.searchParams.has("token") || url.searchParams.has("access_token")) {
      headers.Warning = QUERY_TOKEN_WARNING;
      headers["X-Gitea-Warning"] = QUERY_TOKEN_WARNING;
    }
    const outcome = await authenticate(env, authReq, deps.limiter);
    principal = outcome.principal;
    checkAccountState(env, principal);
    principal = applySudo(env, principal, authReq);
    enforceAccess(op, principal);

    const params = op.params ? validate(op.params, decodeParams(rawParams)) : undefined;
    const query = op.query ? validate(op.query, Object.fromEntries(url.searchParams)) : undefined;

    let body: unknown;
    let bodyDone = false;

    const granted = resolveResources(env, op.access, principal, url, params as Record<string, unknown> | undefined);
    // The body is read once access is settled (Gitea binds it after its access middlewares) and
    // validated on first use, so a handler's own checks (not found, forbidden) answer before a 422.
    const rawBody = op.body ? await readApiBody(request) : undefined;

    const ctx: OpContext<unknown, unknown, unknown> & Resources = {
      ...granted,
      params,
      query,
      get body() {
        if (!bodyDone && op.body) {
          body = validate(op.body, rawBody);
          bodyDone = true;
        }
        return body;
      },
      principal,
      env,
      request,
      url,
      page: () => readPage(Object.fromEntries(url.searchParams), env.settings),
      list: (items, total, page) =>
        new Reply(200, items, paginationHeaders(url, env.settings.server.rootUrl, total, page)),
    };
    const result = await op.handler(ctx as never);
    // Downloads (raw files, archives) answer with a streamed Response of their own.
    if (result instanceof Response) {
      for (const [k, val] of Object.entries(headers)) result.headers.set(k, val);
      return result;
    }
    if (result instanceof Reply) {
      if (result.status === 204 || result.body === undefined) {
        return new Response(null, { status: result.status, headers: { ...headers, ...result.headers } });
      }
      return jsonResponse(result.status, result.body, { ...headers, ...result.headers });
    }
    return jsonResponse(200, result, headers);
  } catch (err) {
    if (err instanceof AccountMoved) return errorResponse(env, accountRedirect(request, err), headers, principal);
    // Gitea words a public-only refusal by the operation's scope categories ("... public issues").
    if (err instanceof PublicOnlyRefused) return errorResponse(env, err.worded(scopeCategories(op.access)), headers, principal);
    return errorResponse(env, err, headers, principal);
  }
}

/** The request's own URL with the former account name replaced by the current one. */
function accountRedirect(request: Request, moved: AccountMoved): Redirect {
  const url = new URL(request.url);
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

/** Elysia has already percent-decoded path parameters; a malformed escape comes through as null. */
function decodeParams(raw: Record<string, string | null>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(raw)) out[k] = typeof val === "string" ? val : "";
  return out;
}
