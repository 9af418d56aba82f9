import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { collectOutput } from "./process.ts";

export interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real git client with no user config, no prompts, and a test identity. */
export async function gitClient(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<GitRun> {
  const proc = Bun.spawn(["git", ...args], {
    cwd: opts.cwd,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: opts.cwd ?? tmpdir(),
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_TERMINAL_PROMPT: "0",
      GIT_AUTHOR_NAME: "Test",
      GIT_AUTHOR_EMAIL: "test@example.com",
      GIT_COMMITTER_NAME: "Test",
      GIT_COMMITTER_EMAIL: "test@example.com",
      LC_ALL: "C",
      ...opts.env,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  return collectOutput(proc);
}

export async function gitOk(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<string> {
  const r = await gitClient(args, opts);
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}

/** A URL with credentials embedded, the way users paste them into `git clone`. */
export function authUrl(base: string, path: string, user: string, secret: string): string {
  const u = new URL(path, base);
  u.username = encodeURIComponent(user);
  u.password = encodeURIComponent(secret);
  return u.href;
}

/** A fresh local working repository with one commit on `branch`. */
export async function localRepo(branch = "main"): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "hearth-work-"));
  await gitOk(["init", "-q", "-b", branch, dir]);
  await Bun.write(join(dir, "hello.txt"), "hello\n");
  await gitOk(["add", "hello.txt"], { cwd: dir });
  await gitOk(["commit", "-q", "-m", "first"], { cwd: dir });
  return dir;
}
