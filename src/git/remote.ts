import { spawn } from "node:child_process";
import { gitArgs, gitEnv } from "./exec.ts";

/**
 * git talking to another server (push mirrors, pull mirrors, migrations). Credentials never reach
 * the command line, the remote's URL or a file: they ride in an `Authorization: Basic` header
 * given to git through GIT_CONFIG_COUNT in the child's environment, which only this user can read.
 * The host was checked by the caller; git is held to the addresses checked and follows no
 * redirect, whose target nobody checked.
 */
export interface RemoteAccess {
  /** http(s) or git:// URL without credentials. */
  url: string;
  username: string;
  password: string;
  /**
   * Addresses the host was checked against (curl's `--resolve`): git connects to these and no
   * others, so a DNS answer changed after the check cannot send it elsewhere.
   */
  pinnedAddresses?: string[];
  timeoutMs: number;
}

export type RemoteOutcome = { ok: true } | { ok: false; message: string };

function configEnv(entries: [string, string][]): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(entries.length) };
  entries.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  return env;
}

/** The URL git is given and the configuration that goes with it. */
function transport(remote: RemoteAccess): { url: string; env: Record<string, string> } {
  const u = new URL(remote.url);
  const pinned = remote.pinnedAddresses ?? [];
  if (u.protocol === "git:") {
    // git:// has no curl to pin through: the checked address itself is what git dials.
    if (pinned.length > 0) u.hostname = pinned[0]!.includes(":") ? `[${pinned[0]}]` : pinned[0]!;
    return { url: pinned.length > 0 ? u.href : remote.url, env: gitEnv(configEnv([["protocol.git.allow", "always"]])) };
  }
  const entries: [string, string][] = [["http.followRedirects", "false"]];
  if (remote.username || remote.password) {
    const basic = Buffer.from(`${remote.username}:${remote.password}`).toString("base64");
    entries.push(["http.extraHeader", `Authorization: Basic ${basic}`]);
  }
  if (pinned.length > 0) {
    const port = u.port || (u.protocol === "https:" ? "443" : "80");
    const addrs = pinned.map((a) => (a.includes(":") ? `[${a}]` : a)).join(",");
    entries.push(["http.curloptResolve", `${u.hostname}:${port}:${addrs}`]);
  }
  return { url: remote.url, env: gitEnv(configEnv(entries)) };
}

function outcome(r: { code: number; stderr: string; timedOut: boolean }, what: string, timeoutMs: number): RemoteOutcome {
  if (r.code === 0) return { ok: true };
  if (r.timedOut) return { ok: false, message: `${what} timed out after ${Math.round(timeoutMs / 1000)}s` };
  const lines = r.stderr
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return { ok: false, message: lines.slice(-5).join("\n") || `git ${what} exited with ${r.code}` };
}

/** `git push --force --prune` of every branch and tag (a push mirror; pull request refs and other internals stay home). */
export async function pushMirrorRefs(gitDir: string, remote: RemoteAccess): Promise<RemoteOutcome> {
  const t = transport(remote);
  const args = ["push", "--force", "--prune", "--quiet", "--end-of-options", t.url, "+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"];
  return outcome(await runDetached(gitArgs({ gitDir }, args), t.env, remote.timeoutMs), "push", remote.timeoutMs);
}

/** `git clone --mirror` of a remote into `target` (every ref, pull request heads included). */
export async function cloneRemoteMirror(remote: RemoteAccess, target: string): Promise<RemoteOutcome> {
  const t = transport(remote);
  const args = ["clone", "--mirror", "--quiet", "--end-of-options", t.url, target];
  return outcome(await runDetached(gitArgs({}, args), t.env, remote.timeoutMs), "clone", remote.timeoutMs);
}

/**
 * Fetches `refspecs` from a remote into a bare repository, `--prune` deleting what the remote no
 * longer has under the refspecs' destinations (a pull mirror's sync).
 */
export async function fetchRemote(gitDir: string, remote: RemoteAccess, refspecs: string[], opts: { prune: boolean }): Promise<RemoteOutcome> {
  const t = transport(remote);
  const args = ["fetch", "--quiet", "--no-tags", "--no-write-fetch-head", ...(opts.prune ? ["--prune"] : []), "--end-of-options", t.url, ...refspecs];
  return outcome(await runDetached(gitArgs({ gitDir }, args), t.env, remote.timeoutMs), "fetch", remote.timeoutMs);
}

/**
 * Runs git in a process group of its own, so the timeout ends git and its helpers alike
 * (git-remote-http outlives a killed `git push` and would hold the pipes open).
 */
function runDetached(argv: string[], env: Record<string, string>, timeoutMs: number): Promise<{ code: number; stderr: string; timedOut: boolean }> {
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
