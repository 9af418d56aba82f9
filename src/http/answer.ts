import type { Env } from "../services/env.ts";
import { writesCommitted } from "../services/commits.ts";
import { errorResponse } from "./respond.ts";
import type { App } from "./app.ts";

/**
 * Answers one request, but not before the writes it made or may show are committed: the server
 * group-commits the writes of an event-loop turn (db/group-commit.ts). If that commit fails, the
 * answer becomes a 500, so no client is told of a write that was not stored.
 */
export async function answer(app: App, env: Env, request: Request): Promise<Response> {
  const response = await app.handle(request);
  try {
    await writesCommitted(env);
  } catch (err) {
    await response.body?.cancel().catch(() => {});
    return errorResponse(env, err);
  }
  return response;
}
