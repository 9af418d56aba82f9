import { resolve } from "node:path";
import type { Command } from "./command.ts";

type HookName = "pre-receive" | "post-receive";

export const isHookName = (s: string | undefined): s is HookName => s === "pre-receive" || s === "post-receive";

/**
 * git's quarantine variables, made absolute: git may give them relative to the repository (the
 * hook's working directory), while the server runs git from elsewhere.
 */
function quarantineOf(env: NodeJS.ProcessEnv) {
  const abs = (list: string) =>
    list
      .split(":")
      .filter(Boolean)
      .map((p) => resolve(p))
      .join(":");
  const out: Record<string, string> = {};
  if (env.GIT_OBJECT_DIRECTORY) out.git_object_directory = abs(env.GIT_OBJECT_DIRECTORY);
  if (env.GIT_ALTERNATE_OBJECT_DIRECTORIES) out.git_alternate_object_directories = abs(env.GIT_ALTERNATE_OBJECT_DIRECTORIES);
  if (env.GIT_QUARANTINE_PATH) out.git_quarantine_path = abs(env.GIT_QUARANTINE_PATH);
  return out;
}

/**
 * The push's `git push -o` options, which git hands the hooks as GIT_PUSH_OPTION_COUNT and
 * GIT_PUSH_OPTION_0.. when the repository advertises them (receive.advertisePushOptions).
 */
function pushOptionsOf(env: NodeJS.ProcessEnv): string[] {
  const count = Number(env.GIT_PUSH_OPTION_COUNT ?? 0);
  if (!Number.isInteger(count) || count <= 0) return [];
  return Array.from({ length: count }, (_, i) => env[`GIT_PUSH_OPTION_${i}`] ?? "");
}

/**
 * `hearth hook pre-receive|post-receive`: run by git inside a hosted repository during a push.
 * It forwards the ref updates (read from stdin) to the server that spawned git, which decides
 * (pre-receive) or records (post-receive). The server passes how to reach it in the environment.
 */
export async function runHook(name: HookName): Promise<number> {
  const url = process.env.HEARTH_INTERNAL_URL;
  const token = process.env.HEARTH_INTERNAL_TOKEN;
  const repoId = Number(process.env.HEARTH_REPO_ID);
  const pusherId = Number(process.env.HEARTH_PUSHER_ID);
  const pullRequestId = Number(process.env.HEARTH_PULL_REQUEST_ID ?? 0) || 0;
  const actionsTaskId = Number(process.env.HEARTH_ACTIONS_TASK_ID ?? 0) || 0;
  if (!url || !token || !repoId || !pusherId) {
    // A push straight into the directory (an administrator on the machine): nothing to report to.
    process.stderr.write(`hearth: ${name}: not a push through hearth; no checks run\n`);
    return 0;
  }
  const input = await new Response(Bun.stdin.stream()).text();
  const updates = input
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const [old, neu, ref] = l.split(" ");
      return { old: old ?? "", new: neu ?? "", ref: ref ?? "" };
    });
  const socket = process.env.HEARTH_INTERNAL_SOCKET;
  let response: Response;
  try {
    response = await fetch(new URL(`api/internal/hook/${name}`, url), {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        repo_id: repoId,
        pusher_id: pusherId,
        updates,
        // git keeps a push's objects in a quarantine directory until pre-receive accepts them: the
        // server's checks (ancestry, changed files) must look there.
        ...quarantineOf(process.env),
        ...(pullRequestId > 0 ? { pull_request_id: pullRequestId } : {}),
        ...(actionsTaskId > 0 ? { actions_task_id: actionsTaskId } : {}),
        // Only post-receive acts on them (Gitea's repo.private, repo.template).
        ...(name === "post-receive" ? { push_options: pushOptionsOf(process.env) } : {}),
      }),
      ...(socket ? { unix: socket } : {}),
      // The server this process was spawned by, at LOCAL_ROOT_URL (loopback unless configured):
      // its certificate is for the public name and often self-signed. Like Gitea's internal
      // requests, trust comes from INTERNAL_TOKEN, not from the certificate.
      tls: { rejectUnauthorized: false },
    } as RequestInit);
  } catch (err) {
    process.stderr.write(`hearth: ${name}: cannot reach the server at ${url}: ${(err as Error).message}\n`);
    return 1;
  }
  const body = (await response.json().catch(() => ({}))) as { err?: string; messages?: string[] };
  for (const m of body.messages ?? []) process.stderr.write(`${m}\n`);
  if (!response.ok) {
    process.stderr.write(`${body.err ?? `hearth: ${name} failed (${response.status})`}\n`);
    return 1;
  }
  return 0;
}

export const hookCommand: Command = {
  name: "hook",
  description: "(internal) Run by git hooks in hosted repositories",
  subcommands: [
    { name: "pre-receive", description: "Check a push before refs move", run: () => runHook("pre-receive") },
    { name: "post-receive", description: "Record a push after refs moved", run: () => runHook("post-receive") },
  ],
};
