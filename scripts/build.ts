/**
 * `npm run build`: dist/hearth, one executable, built in two passes (the measurements behind each
 * flag are in README.md, Performance, and bench/RESULTS.md):
 *
 *   1. `bun build --compile --bytecode`: the script is compiled to bytecode at build time, not parsed
 *      at every start; `--splitting` puts what is imported on first use (the API's operation
 *      modules, formats, commands) in chunks of their own, which a start does not load;
 *      `--compile-jit-policy` keeps the JIT out of run-once start-up code (`web` sets the normal
 *      policy once it is under load, other commands a reluctant one as they start);
 *   2. a run of that executable as a server is started (`web` in a temporary work directory, on a
 *      free loopback port, a few API requests, then SIGTERM) with BUN_BYTECODE_ORDER_OUT, which
 *      records the functions a start and a request use;
 *   3. the same build again with `--bytecode-order` of that record: the bytecode a start needs is
 *      laid out together at the front, so a start touches fewer pages of the executable.
 *
 * The record is made fresh on every build, so it always matches the code; a server that cannot
 * start or answer fails the build.
 *
 *   bun scripts/build.ts [--outfile dist/hearth]
 *
 * HEARTH_BUILD_FLAGS="--flag ..." adds `bun build` flags, to build a variant whose lever a bench
 * measures beside dist/hearth (bench/startup.ts --bin).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const argv = process.argv.slice(2);
const at = argv.indexOf("--outfile");
const outfile = resolve(ROOT, at >= 0 && argv[at + 1] ? argv[at + 1]! : "dist/hearth");
// A thousand times the JIT's normal thresholds: start-up runs in the interpreter, and so does `web`
// until requests arrive in numbers (src/http/jit-on-load.ts); other commands set 8 once they start.
const JIT_POLICY = "1000";
const extraFlags = (process.env.HEARTH_BUILD_FLAGS ?? "").split(" ").filter(Boolean); // for measuring levers in bench/
const flags = ["--compile", "--bytecode", "--format=esm", "--splitting", "--minify-syntax", "--minify-whitespace", `--compile-jit-policy=${JIT_POLICY}`, ...extraFlags];

async function bunBuild(extra: string[]): Promise<void> {
  const p = Bun.spawn([process.execPath, "build", ...flags, ...extra, "src/main.ts", "--outfile", outfile], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
  if ((await p.exited) !== 0) throw new Error(`bun build exited with ${p.exitCode}`);
}

/** Runs the server once as it is used (start, a few requests, stop) and returns the recorded order file. */
async function recordOrder(work: string): Promise<string> {
  const order = join(work, "web.order");
  const config = join(work, "custom", "conf", "app.ini");
  mkdirSync(dirname(config), { recursive: true });
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  writeFileSync(config, `[server]\nHTTP_ADDR = 127.0.0.1\nHTTP_PORT = ${port}\n\n[log]\nLEVEL = warn\n`);
  const env = { ...process.env, HEARTH_WORK_DIR: work };
  const cli = async (args: string[]) => {
    const p = Bun.spawn([outfile, ...args, "--config", config], { env, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    if (code !== 0) throw new Error(`hearth ${args.slice(0, 3).join(" ")} exited with ${code}: ${err.trim()}`);
    return out.trim();
  };
  await cli(["admin", "user", "create", "--username", "build", "--password", "build-password", "--email", "build@example.com", "--admin", "--must-change-password=false"]);
  const token = await cli(["admin", "user", "generate-access-token", "--username", "build", "--raw"]);

  const server = Bun.spawn([outfile, "web", "--config", config], { env: { ...env, BUN_BYTECODE_ORDER_OUT: order }, stdout: "ignore", stderr: "inherit" });
  try {
    const base = `http://127.0.0.1:${port}/api/v1`;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const ok = await fetch(`${base}/version`).then((r) => r.ok, () => false);
      if (ok) break;
      if (server.exitCode !== null || Date.now() > deadline) throw new Error("the server did not start");
      await Bun.sleep(20);
    }
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(base + path, {
        method,
        headers: { Authorization: `token ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      await r.arrayBuffer();
      if (!r.ok) throw new Error(`${method} ${path}: ${r.status}`);
    };
    // What a server does most: authenticated reads of the user, repositories and issues.
    await call("GET", "/user");
    await call("POST", "/user/repos", { name: "order" });
    await call("POST", "/repos/build/order/issues", { title: "an issue" });
    await call("GET", "/repos/search?limit=50");
    await call("GET", "/repos/build/order");
    await call("GET", "/repos/build/order/issues?limit=50&state=all");
  } finally {
    server.kill("SIGTERM");
    await server.exited;
  }
  if (server.exitCode !== 0) throw new Error(`the server exited with ${server.exitCode}`);
  return order;
}

await bunBuild([]);
const work = mkdtempSync(join(tmpdir(), "hearth-build-"));
try {
  await bunBuild([`--bytecode-order=${await recordOrder(work)}`]);
} finally {
  rmSync(work, { recursive: true, force: true });
}
