import type { Env } from "../services/env.ts";
import { levelForMethod } from "../services/access/scopes.ts";
import type { FailureLimiter } from "../auth/ratelimit.ts";
import { readApiBody, readTextBody } from "./body.ts";
import { paginationHeaders, readPage } from "./pagination.ts";
import { jsonResponse } from "./respond.ts";
import { Reply, type AnyOperation, type OpContext } from "./route.ts";
import { validate } from "./validate.ts";
import type { Resources } from "./access.ts";
import { newCall, runDeclared } from "./door.ts";
import { apiDoor } from "./doors/api.ts";

export interface RunnerDeps {
  env: Env;
  limiter: FailureLimiter;
}

/**
 * Runs one API operation through the API door (credentials, declared access, Gitea's JSON errors
 * and redirects): validate the input, read the body, call the handler, shape the reply.
 */
export async function runOperation(
  deps: RunnerDeps,
  op: AnyOperation,
  request: Request,
  /** The path's parameters, the named ones percent-decoded by the router. */
  rawParams: Record<string, string>,
  ip: string,
): Promise<Response> {
  const { env } = deps;
  const call = newCall(request, ip, op.access);
  const { url, headers } = call;
  const declared = {
    access: op.access,
    level: levelForMethod(op.method),
    decode: () => ({
      params: op.params ? validate(op.params, rawParams) : undefined,
      query: op.query ? validate(op.query, Object.fromEntries(url.searchParams)) : undefined,
    }),
  };
  return runDeclared(apiDoor(deps), call, declared, async (granted, { params, query }) => {
    // The body is read once access is settled (Gitea binds it after its access middlewares) and
    // validated on first use, so a handler's own checks (not found, forbidden) answer before a 422.
    const rawBody = op.body ? await (op.bodyText ? readTextBody(request) : readApiBody(request)) : undefined;
    let body: unknown;
    let bodyDone = false;
    const ctx: OpContext<unknown, unknown, unknown> & Resources = {
      ...(granted as Resources),
      params,
      query,
      get body() {
        if (!bodyDone && op.body) {
          body = validate(op.body, rawBody);
          bodyDone = true;
        }
        return body;
      },
      principal: call.principal,
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
    if (op.produces && typeof result === "string") {
      return new Response(result, { status: 200, headers: { ...headers, "Content-Type": `${op.produces}; charset=utf-8` } });
    }
    return jsonResponse(200, result, headers);
  });
}
