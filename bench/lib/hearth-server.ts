import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Cleanup, Child } from "./children.ts";
import { freePort } from "./measure.ts";

const ROOT = resolve(import.meta.dir, "..", "..");

/** Runs a command to its end; its stdout, or an error with everything it said. */
export async function run(cmd: string[], opts: { env?: Record<string, string>; cwd?: string } = {}): Promise<string> {
  const p = Bun.spawn(cmd, { cwd: opts.cwd ?? ROOT, env: { ...process.env, ...opts.env }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}\n${out}${err}`);
  return out;
}

/** A running `hearth web` of a fresh work dir under `tmp`, with an admin `bench` and a token of theirs. */
export interface BenchHearth {
  base: string;
  port: number;
  token: string;
  server: Child;
  work: string;
}

/**
 * Starts hearth (the executable at `binary`, else `bun src/main.ts`) on a free port of 127.0.0.1,
 * makes the admin and the token with the CLI, and waits for `/api/v1/version`; `cleanup` stops it.
 */
export async function startHearth(tmp: string, cleanup: Cleanup, binary?: string): Promise<BenchHearth> {
  const port = freePort();
  const work = join(tmp, "hearth");
  const config = join(work, "custom", "conf", "app.ini");
  mkdirSync(dirname(config), { recursive: true });
  writeFileSync(config, `[server]\nHTTP_ADDR = 127.0.0.1\nHTTP_PORT = ${port}\nDOMAIN = 127.0.0.1\n\n[log]\nLEVEL = warn\n`);
  const hearth = binary ? [binary] : [process.execPath, join(ROOT, "src", "main.ts")];
  const env = { HEARTH_WORK_DIR: work };
  await run([...hearth, "admin", "user", "create", "--username", "bench", "--password", "benchpass123", "--email", "bench@example.com", "--admin", "--must-change-password=false", "--config", config], { env });
  const token = (await run([...hearth, "admin", "user", "generate-access-token", "--username", "bench", "--raw", "--config", config], { env })).trim();
  const server = cleanup.track(
    Bun.spawn([...hearth, "web", "--config", config, "--port", String(port)], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdout: Bun.file(join(tmp, "web.log")),
      stderr: Bun.file(join(tmp, "web.err")),
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/v1/version`)).status === 200) break;
    } catch {}
    if (server.exitCode !== null || i > 3000) throw new Error("hearth did not start");
    await Bun.sleep(10);
  }
  return { base, port, token, server, work };
}
