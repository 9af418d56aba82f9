import * as v from "valibot";
import type { Env } from "../../services/env.ts";
import { constantTimeEqual } from "../../crypto/token.ts";
import { checkPush, processPush } from "../../services/repo/push.ts";
import { applyPushOptions } from "../../services/repo/push-options.ts";
import { jsonResponse } from "../respond.ts";
import { validate } from "../validate.ts";
import { HearthError } from "../../lib/errors.ts";

/** A directory git names for its quarantine: one absolute path (or a `:`-list of them), no control characters. */
// eslint-disable-next-line no-control-regex
const GitPath = v.optional(v.pipe(v.string(), v.maxLength(16384), v.regex(/^(?:\/[^\x00-\x1f]*)?$/)));

const HookBody = v.object({
  repo_id: v.pipe(v.number(), v.integer()),
  pusher_id: v.pipe(v.number(), v.integer()),
  /** Set by hearth's own merge pushes (Gitea's HookOptions.PullRequestID). */
  pull_request_id: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  /** Set when the Actions bot pushes with a task's token: the task it pushes for. */
  actions_task_id: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  git_object_directory: GitPath,
  git_alternate_object_directories: GitPath,
  git_quarantine_path: GitPath,
  /** The push's `git push -o` options (GIT_PUSH_OPTION_n), for post-receive. */
  push_options: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(4096))), v.maxLength(1000))),
  updates: v.pipe(
    v.array(
      v.object({
        old: v.pipe(v.string(), v.regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/)),
        new: v.pipe(v.string(), v.regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/)),
        ref: v.pipe(v.string(), v.minLength(1), v.maxLength(4096)),
      }),
    ),
    v.maxLength(100_000),
  ),
});

/**
 * The routes `hearth hook pre-receive|post-receive` call during a push. They are not part of the
 * API: only a caller holding `[security] INTERNAL_TOKEN` (the hooks, given it by the server that
 * spawned git) gets in.
 */
export async function handleHook(env: Env, request: Request, name: "pre-receive" | "post-receive"): Promise<Response> {
  const auth = request.headers.get("authorization") ?? "";
  const token = auth.startsWith("Bearer ") ? auth.slice(7) : "";
  if (!token || !constantTimeEqual(token, env.settings.security.internalToken)) {
    return jsonResponse(403, { err: "invalid internal token" });
  }
  try {
    const body = validate(HookBody, await request.json().catch(() => undefined));
    if (name === "pre-receive") {
      const quarantine = {
        GIT_OBJECT_DIRECTORY: body.git_object_directory,
        GIT_ALTERNATE_OBJECT_DIRECTORIES: body.git_alternate_object_directories,
        GIT_QUARANTINE_PATH: body.git_quarantine_path,
      };
      const refusal = await checkPush(env, body.repo_id, body.pusher_id, body.updates, quarantine, body.pull_request_id || undefined, body.actions_task_id);
      return refusal ? jsonResponse(403, { err: refusal }) : jsonResponse(200, { ok: true });
    }
    const messages = await processPush(env, body.repo_id, body.pusher_id, body.updates);
    // After the refs are recorded, as Gitea orders it: a refused option leaves the push in place.
    await applyPushOptions(env, body.repo_id, body.pusher_id, body.push_options ?? [], body.actions_task_id);
    return jsonResponse(200, { ok: true, messages });
  } catch (err) {
    if (err instanceof HearthError) return jsonResponse(err.status, { err: err.message });
    env.log.error("hook failed", { hook: name, error: (err as Error).stack ?? String(err) });
    return jsonResponse(500, { err: "internal error" });
  }
}
