import type { Command } from "./command.ts";

/**
 * `hearth hook pre-receive|post-receive`: run by git inside a hosted repository during a push.
 * It forwards the ref updates (read from stdin) to the server that spawned git, which decides
 * (pre-receive) or records (post-receive). The server passes how to reach it in the environment.
 */
async function runHook(name: "pre-receive" | "post-receive"): Promise<number> {
  const url = process.env.HEARTH_INTERNAL_URL;
  const token = process.env.HEARTH_INTERNAL_TOKEN;
  const repoId = Number(process.env.HEARTH_REPO_ID);
  const pusherId = Number(process.env.HEARTH_PUSHER_ID);
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
      body: JSON.stringify({ repo_id: repoId, pusher_id: pusherId, updates }),
      ...(socket ? { unix: socket } : {}),
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
