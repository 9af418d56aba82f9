import { join } from "node:path";
import { collectOutput } from "./process.ts";

/** The repository root: the CLI runs as `bun src/main.ts` from here. */
export const REPO = join(import.meta.dir, "../..");

/** The test runner's environment without any HEARTH variables that could leak into the CLI. */
export function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("HEARTH")) env[k] = v;
  }
  return env;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `hearth ARGS` in a subprocess with HEARTH_WORK_DIR pointing at `workDir`. */
export async function hearth(workDir: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const proc = Bun.spawn([process.execPath, "src/main.ts", ...args], {
    cwd: REPO,
    env: { ...baseEnv(), HEARTH_WORK_DIR: workDir, ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  return collectOutput(proc);
}

/** Asserts success and returns stdout; on failure the message shows stderr. */
export async function hearthOk(workDir: string, args: string[], env?: Record<string, string>): Promise<string> {
  const r = await hearth(workDir, args, env);
  if (r.code !== 0) throw new Error(`hearth ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

export interface WebProcess {
  proc: ReturnType<typeof Bun.spawn>;
  /** The `listening` line's URL and port. */
  url: string;
  port: number;
  /** Everything the server logged so far (stderr is drained for as long as it runs). */
  log(): string;
  /** Resolves when the log has been read to its end (after the process exited). */
  drained: Promise<void>;
}

/**
 * Starts `hearth web --config FILE --port 0` and reads its log until the "listening" line tells
 * the port. The caller stops it (SIGTERM, or SIGKILL in a finally).
 */
export async function startWeb(workDir: string, config: string): Promise<WebProcess> {
  const proc = Bun.spawn([process.execPath, "src/main.ts", "web", "--config", config, "--port", "0"], {
    cwd: REPO,
    env: { ...baseEnv(), HEARTH_WORK_DIR: workDir },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let stderr = "";
  const reader = proc.stderr.getReader();
  const decoder = new TextDecoder();
  // Generous: a busy machine may take long to start bun; the test's own timeout still bounds it.
  const deadline = Date.now() + 45_000;
  let found: RegExpExecArray | null = null;
  try {
    while (!found) {
      if (Date.now() > deadline) throw new Error(`no "listening" line:\n${stderr}`);
      const { value, done } = await reader.read();
      if (done) throw new Error(`web exited before listening:\n${stderr}`);
      stderr += decoder.decode(value, { stream: true });
      found = /listening url=(\S+) address=\S+:(\d+)/.exec(stderr);
    }
  } catch (err) {
    proc.kill("SIGKILL");
    throw err;
  }
  // Keep draining stderr so the server never blocks on a full pipe.
  const drained = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      stderr += decoder.decode(value, { stream: true });
    }
  })();
  return { proc, url: found[1]!, port: Number(found[2]), log: () => stderr, drained };
}
