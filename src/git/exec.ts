import { Invalid } from "../lib/errors.ts";

/**
 * Runs the system `git` with an argument array (never a shell string) and a controlled
 * environment: no terminal prompts, no user or system config leaking in, C locale for parsable
 * messages, literal pathspecs. Every spawn of git in hearth goes through here, through
 * transport.ts, or (for its process-group timeout) through push-mirror.ts.
 */
export interface GitOptions {
  /** The repository (bare) to run in: passed as `--git-dir`. */
  gitDir?: string;
  cwd?: string;
  input?: string | Uint8Array;
  env?: Record<string, string>;
  timeoutMs?: number;
}

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

export class GitError extends Error {
  constructor(
    readonly args: string[],
    readonly code: number,
    readonly stderr: string,
  ) {
    super(`git ${args[0]} failed (${code}): ${stderr.trim().split("\n").slice(-3).join(" / ")}`);
    this.name = "GitError";
  }
}

/**
 * git takes its arguments and environment as C strings, so a NUL cannot reach it (Bun refuses to
 * spawn, with a TypeError). Nothing hearth makes itself holds one: a NUL here came from a user (a
 * tag message, an author's name) and is refused as invalid input, whichever path carried it.
 */
function refuseNul(values: Iterable<string>): void {
  for (const value of values) if (value.includes("\0")) throw new Invalid("a NUL byte cannot be passed to git");
}

/**
 * Linux refuses to exec with one argument over MAX_ARG_STRLEN (32 pages, 128 KiB) with E2BIG.
 * hearth passes long text (messages, contents) through stdin; an argument this long came from a
 * user (a branch name, a revision) and names nothing git could hold.
 */
const MAX_ARG_BYTES = 128 * 1024 - 1;

function refuseOverlong(values: Iterable<string>): void {
  for (const value of values) {
    if (value.length > MAX_ARG_BYTES / 3 && Buffer.byteLength(value) > MAX_ARG_BYTES) throw new Invalid("a value too long to pass to git");
  }
}

/** A NUL in a commit or tag message, refused in git's own words (it would refuse it itself, later). */
export function refuseNulMessage(message: string): void {
  if (message.includes("\0")) throw new Invalid("a NUL byte in commit log message not allowed");
}

export function gitEnv(extra: Record<string, string> = {}): Record<string, string> {
  refuseNul(Object.values(extra));
  const base: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: process.env.HOME ?? "/",
    LC_ALL: "C",
    GIT_TERMINAL_PROMPT: "0",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_NO_REPLACE_OBJECTS: "1",
    // Paths come from users (log, diff, blame, ls-tree, archive): they name files, never pathspec
    // magic such as `:(top)`, `:!x` or globs, whichever command they reach.
    GIT_LITERAL_PATHSPECS: "1",
  };
  return { ...base, ...extra };
}

export function gitArgs(opts: GitOptions, args: string[]): string[] {
  refuseNul(args);
  refuseOverlong(args);
  return opts.gitDir ? ["git", `--git-dir=${opts.gitDir}`, ...args] : ["git", ...args];
}

export async function runGit(args: string[], opts: GitOptions = {}): Promise<GitResult> {
  const proc = Bun.spawn(gitArgs(opts, args), {
    cwd: opts.cwd,
    env: gitEnv(opts.env),
    stdin: opts.input === undefined ? "ignore" : new Blob([opts.input]),
    stdout: "pipe",
    stderr: "pipe",
    timeout: opts.timeoutMs ?? 120_000,
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).arrayBuffer(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout: Buffer.from(stdout), stderr };
}

/** Runs git and returns stdout as text; a non-zero exit throws GitError. */
export async function git(args: string[], opts: GitOptions = {}): Promise<string> {
  const r = await runGit(args, opts);
  if (r.code !== 0) throw new GitError(args, r.code, r.stderr);
  return r.stdout.toString("utf8");
}
