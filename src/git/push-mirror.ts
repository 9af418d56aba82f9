import { spawn } from "node:child_process";
import { gitArgs, gitEnv } from "./exec.ts";

/**
 * The git half of a push mirror sync: `git push --force --prune` of every branch and tag to the
 * remote (Gitea pushes `+refs/heads/*` and `+refs/tags/*` with --mirror; pull request refs and
 * other internals stay home). Credentials never reach the command line, the remote's URL or a
 * file: they ride in an `Authorization: Basic` header given to git through GIT_CONFIG_COUNT in the
 * child's environment, which only this user can read.
 */
export interface PushMirrorRemote {
  /** http(s) URL without credentials. */
  url: string;
  username: string;
  password: string;
  /**
   * Addresses the host was checked against (curl's `--resolve`): git connects to these and no
   * others, so a DNS answer changed after the check cannot send the push elsewhere.
   */
  pinnedAddresses?: string[];
  timeoutMs: number;
}

export type PushMirrorOutcome = { ok: true } | { ok: false; message: string };

function configEnv(entries: [string, string][]): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(entries.length) };
  entries.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  return env;
}

export async function pushToMirror(gitDir: string, remote: PushMirrorRemote): Promise<PushMirrorOutcome> {
  const u = new URL(remote.url);
  const entries: [string, string][] = [
    // The address was checked, a redirect's target was not: a redirect fails the push.
    ["http.followRedirects", "false"],
  ];
  if (remote.username || remote.password) {
    const basic = Buffer.from(`${remote.username}:${remote.password}`).toString("base64");
    entries.push(["http.extraHeader", `Authorization: Basic ${basic}`]);
  }
  if (remote.pinnedAddresses && remote.pinnedAddresses.length > 0) {
    const port = u.port || (u.protocol === "https:" ? "443" : "80");
    const addrs = remote.pinnedAddresses.map((a) => (a.includes(":") ? `[${a}]` : a)).join(",");
    entries.push(["http.curloptResolve", `${u.hostname}:${port}:${addrs}`]);
  }
  const r = await runPush(
    gitArgs({ gitDir }, ["push", "--force", "--prune", "--quiet", "--end-of-options", remote.url, "+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"]),
    gitEnv(configEnv(entries)),
    remote.timeoutMs,
  );
  if (r.code === 0) return { ok: true };
  if (r.timedOut) return { ok: false, message: `push timed out after ${Math.round(remote.timeoutMs / 1000)}s` };
  const lines = r.stderr
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return { ok: false, message: lines.slice(-5).join("\n") || `git push exited with ${r.code}` };
}

/**
 * Runs git in a process group of its own, so the timeout ends git and its helpers alike
 * (git-remote-http outlives a killed `git push` and would hold the pipes open).
 */
function runPush(argv: string[], env: Record<string, string>, timeoutMs: number): Promise<{ code: number; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ["ignore", "ignore", "pipe"], detached: true });
    let stderr = "";
    let timedOut = false;
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (d: string) => {
      // The tail is what tells the error; a chatty remote cannot grow it without bound.
      stderr = (stderr + d).slice(-16_384);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // Already gone.
      }
    }, timeoutMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      resolve({ code: -1, stderr: err.message, timedOut });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stderr, timedOut });
    });
  });
}
