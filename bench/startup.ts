/**
 * Start-up time and memory of dist/hearth (see bench/README.md), against a compiled bare
 * `Bun.serve` (bench/baseline-server.ts) measured in the same run, on 127.0.0.1 only (start-up and idle
 * memory also of bench/stack-floor-server.ts, Bun.serve + router + bun:sqlite with one route: the
 * stack's own floor):
 *
 *   1. start-up: spawn -> first 200 from /api/v1/version (polled every 2 ms), with a fresh work
 *      directory and with an existing database, runs interleaved with the floor; the process's CPU
 *      time up to that moment; VmRSS (anonymous and file-backed parts) --idle-settle s later;
 *   2. memory under sustained load: a database with --repos repositories and --issues issues in
 *      one of them, a fresh server, then wrk on GET /api/v1/user, /api/v1/repos/search?limit=50
 *      and /api/v1/repos/{o}/{r}/issues?limit=50&state=all in turn (--load-seconds each), VmRSS
 *      sampled every 100 ms; RSS right after, peak (VmHWM) and RSS after --after-idle s of rest.
 *      The floor serves the largest of those bodies under the same load.
 *
 *   bun bench/startup.ts [--rebuild] [--runs 7] [--idle-settle 2] [--repos 60] [--issues 300]
 *                        [--load-seconds 20] [--connections 16] [--after-idle 10] [--quiet-wait 30]
 *                        [--bin PATH]... [--keep] [--no-write]
 *
 * --bin measures other executables beside dist/hearth in the same run (say, one built with other
 * flags), each under the label of its file name: levers are compared as paired, interleaved runs.
 * Writes its section of bench/RESULTS.md (<!-- startup:begin --> ... <!-- startup:end -->) unless
 * --no-write. Every child process is killed when the script ends, also on error or Ctrl-C.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, release, tmpdir, totalmem } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { freePort, median, waitQuiet } from "./lib/measure.ts";
import { Cleanup, stop, type Child } from "./lib/children.ts";
import { benchArgs } from "./lib/args.ts";
import { RESULTS_PATH, writeResultsSection } from "./lib/results.ts";

const ROOT = resolve(import.meta.dir, "..");
const DIST_HEARTH = join(ROOT, "dist", "hearth");
const BUN = process.execPath;
const argv = process.argv.slice(2);
const args = benchArgs(argv);
const { flag } = args;
const opt = args.number;
args.helpFrom(import.meta.path);
const O = {
  runs: opt("runs", 7),
  idleSettle: opt("idle-settle", 2),
  repos: opt("repos", 60),
  issues: opt("issues", 300),
  loadSeconds: opt("load-seconds", 20),
  connections: opt("connections", 16),
  afterIdle: opt("after-idle", 10),
  quietWait: opt("quiet-wait", 30),
  rebuild: flag("rebuild"),
  keep: flag("keep"),
  write: !flag("no-write"),
  bins: argv.flatMap((a, i) => (a === "--bin" && argv[i + 1] ? [resolve(argv[i + 1]!)] : [])),
};

// ---------------------------------------------------------------------------------------------
// Child processes: everything spawned is tracked and killed on the way out.

const cleanup = new Cleanup(O.keep);

function spawn(cmd: string[], env: Record<string, string> = {}, log?: string): Child {
  const p = Bun.spawn(cmd, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdin: "ignore",
    stdout: (log ? Bun.file(log) : "ignore") as "ignore",
    stderr: (log ? Bun.file(log + ".err") : "ignore") as "ignore",
  });
  return cleanup.track(p);
}

async function run(cmd: string[], env: Record<string, string> = {}, timeoutMs = 120_000) {
  const p = Bun.spawn(cmd, { cwd: ROOT, env: { ...process.env, ...env }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  cleanup.track(p);
  const timer = setTimeout(() => p.kill("SIGKILL"), timeoutMs);
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}\n${stdout}${stderr}`);
  return stdout;
}

// ---------------------------------------------------------------------------------------------
// /proc readings

interface Mem {
  rss: number;
  anon: number;
  file: number;
  hwm: number;
}
/** VmRSS and its anonymous and file-backed parts, and the peak (VmHWM), KiB. */
function mem(pid: number): Mem {
  const s = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, "m").exec(s)?.[1] ?? NaN);
  return { rss: kb("VmRSS"), anon: kb("RssAnon"), file: kb("RssFile"), hwm: kb("VmHWM") };
}

/** CPU time the process's threads have run so far, ms (schedstat: nanoseconds, not 10 ms ticks). */
function cpuMs(pid: number): number {
  let ns = 0;
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, "utf8").split(" ")[0]);
    } catch {} // a thread that ended meanwhile
  }
  return ns / 1e6;
}

/** Coarse CPU time of a process (utime + stime, 10 ms ticks), for per-request figures over seconds. */
function cpuTicksMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) * 10;
}



// ---------------------------------------------------------------------------------------------
// Helpers


async function waitReady(url: string, t0: number, p: Child, timeoutMs = 30_000): Promise<number> {
  for (;;) {
    try {
      const r = await fetch(url, { keepalive: false });
      await r.arrayBuffer();
      if (r.status === 200) return performance.now() - t0;
    } catch {}
    if (p.exitCode !== null || p.signalCode !== null) throw new Error(`process exited (${p.exitCode ?? p.signalCode}) before ${url} answered`);
    if (performance.now() - t0 > timeoutMs) throw new Error(`${url} not ready after ${timeoutMs} ms`);
    await Bun.sleep(2);
  }
}

const mib = (kib: number) => (kib / 1024).toFixed(1);
const fmt = (n: number, d = 0) => n.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** A work dir with only custom/conf/app.ini, so the database is created on first start. */
function newWorkDir(parent: string, name: string): { dir: string; config: string } {
  const dir = join(parent, name);
  const config = join(dir, "custom", "conf", "app.ini");
  mkdirSync(dirname(config), { recursive: true });
  writeFileSync(config, ["[server]", "HTTP_ADDR = 127.0.0.1", "HTTP_PORT = 3000", "DOMAIN = 127.0.0.1", "", "[log]", "LEVEL = warn", ""].join("\n"));
  return { dir, config };
}

interface Target {
  label: string;
  /** The command to start it listening on `port` with the work dir `w` (hearth) or serving `body` (floor). */
  cmd(port: number, w: { dir: string; config: string }): { cmd: string[]; env: Record<string, string> };
  hearth: boolean;
}

// ---------------------------------------------------------------------------------------------
// Main

async function main() {
  const started = new Date();
  if (!Bun.which("wrk")) {
    console.error("wrk (the HTTP load generator) is not installed: apt-get install -y wrk");
    process.exit(2);
  }
  const srcNewer = existsSync(DIST_HEARTH) && newestMtime(join(ROOT, "src")) > statSync(DIST_HEARTH).mtimeMs;
  if (O.rebuild || !existsSync(DIST_HEARTH) || srcNewer) {
    console.log("building dist/hearth (npm run build) ...");
    await run(["npm", "run", "build"], {}, 600_000);
  }
  const buildScript = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts.build as string;
  const tmp = mkdtempSync(join(tmpdir(), "hearth-startup-"));
  cleanup.dir(tmp);
  console.log(`work dir ${tmp}${O.keep ? " (kept)" : ""}`);

  // Copies, so a concurrent rebuild cannot swap a binary mid-run.
  const bins = [DIST_HEARTH, ...O.bins].map((src, i) => {
    const dst = join(tmp, `bin-${i}-${basename(src)}`);
    copyFileSync(src, dst);
    chmodSync(dst, 0o755);
    return { label: i === 0 ? "dist/hearth" : basename(src), path: dst, size: statSync(src).size };
  });
  const floorBin = join(tmp, "baseline-server");
  await run([BUN, "build", "--compile", join(import.meta.dir, "baseline-server.ts"), "--outfile", floorBin]);
  const floorSize = statSync(floorBin).size;
  // The stack's own floor: Bun.serve + router + bun:sqlite and one route, compiled as dist/hearth is.
  const stackBin = join(tmp, "stack-floor-server");
  await run([BUN, "build", "--compile", "--bytecode", "--format=esm", join(import.meta.dir, "stack-floor-server.ts"), "--outfile", stackBin]);
  let gitHead = "?";
  try {
    gitHead = (await run(["git", "rev-parse", "--short", "HEAD"])).trim();
    if ((await run(["git", "status", "--porcelain", "--", "src", "package.json"])).trim()) gitHead += " (with uncommitted changes)";
  } catch {}

  // --- the database every "existing" start and the load use ----------------------------------
  const main = newWorkDir(tmp, "main");
  const hearthEnv = { HEARTH_WORK_DIR: main.dir };
  const H0 = bins[0]!.path;
  await run([H0, "admin", "user", "create", "--username", "bench", "--password", "benchpass123", "--email", "bench@example.com",
    "--admin", "--must-change-password=false", "--config", main.config], hearthEnv);
  const token = (await run([H0, "admin", "user", "generate-access-token", "--username", "bench", "--raw", "--config", main.config], hearthEnv)).trim();
  {
    const port = freePort();
    const p = spawn([H0, "web", "--config", main.config, "--port", String(port)], hearthEnv, join(tmp, "seed.log"));
    const base = `http://127.0.0.1:${port}/api/v1`;
    await waitReady(`${base}/version`, performance.now(), p);
    const post = async (path: string, body: unknown) => {
      const r = await fetch(base + path, {
        method: "POST",
        headers: { Authorization: `token ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${await r.text()}`);
      await r.arrayBuffer();
    };
    const t = performance.now();
    for (let i = 0; i < O.repos; i++) await post("/user/repos", { name: `repo-${i}`, description: `Benchmark repository number ${i}, with a description of some length.` });
    for (let i = 0; i < O.issues; i++) {
      await post("/repos/bench/repo-0/issues", {
        title: `Issue ${i}: something does not work as it should`,
        body: `Steps to reproduce:\n\n1. do this\n2. then that\n\nExpected one thing, got another (${i}).`,
      });
    }
    console.log(`seeded ${O.repos} repositories and ${O.issues} issues in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    await stop(p);
  }

  // --- start-up and idle memory -----------------------------------------------------------------
  const targets: Target[] = [
    ...bins.flatMap((b): Target[] => [
      {
        label: `${b.label} web, fresh database`,
        hearth: true,
        cmd: (port, w) => ({ cmd: [b.path, "web", "--config", w.config, "--port", String(port)], env: { HEARTH_WORK_DIR: w.dir } }),
      },
      {
        label: `${b.label} web, existing database`,
        hearth: true,
        cmd: (port) => ({ cmd: [b.path, "web", "--config", main.config, "--port", String(port)], env: hearthEnv }),
      },
    ]),
    {
      label: "Bun.serve + router + bun:sqlite, one route (compiled), stack floor",
      hearth: false,
      cmd: (port) => ({ cmd: [stackBin], env: { STACK_PORT: String(port), STACK_DB: join(main.dir, "data", "hearth.db") } }),
    },
    // Last: the report reads the floor's row from the end.
    { label: "bare Bun.serve (compiled), floor", hearth: false, cmd: (port) => ({ cmd: [floorBin], env: { BASELINE_PORT: String(port) } }) },
  ];
  interface StartSample {
    readyMs: number;
    cpuMs: number;
    idle: Mem;
  }
  const samples = new Map<Target, StartSample[]>(targets.map((t) => [t, []]));
  if (!(await waitQuiet(O.quietWait * 1000))) console.warn("machine busy; measuring start-up anyway");
  for (let i = 0; i < O.runs; i++) {
    // Rotate the order, so no target always follows the same one.
    for (let k = 0; k < targets.length; k++) {
      const t = targets[(i + k) % targets.length]!;
      const port = freePort();
      const { cmd, env } = t.cmd(port, newWorkDir(tmp, `fresh-${i}-${k}`));
      const t0 = performance.now();
      const p = spawn(cmd, env, join(tmp, `start-${i}-${k}.log`));
      const readyMs = await waitReady(`http://127.0.0.1:${port}/api/v1/version`, t0, p);
      const cpu = cpuMs(p.pid);
      await Bun.sleep(O.idleSettle * 1000);
      samples.get(t)!.push({ readyMs, cpuMs: cpu, idle: mem(p.pid) });
      await stop(p);
    }
  }
  for (const t of targets) {
    const s = samples.get(t)!;
    console.log(`${t.label}: ready ${median(s.map((x) => x.readyMs)).toFixed(1)} ms, CPU ${median(s.map((x) => x.cpuMs)).toFixed(1)} ms, idle RSS ${mib(median(s.map((x) => x.idle.rss)))} MiB`);
  }

  // --- memory under sustained load ----------------------------------------------------------------
  const endpoints = [
    { name: "GET /api/v1/user", path: "/api/v1/user" },
    { name: "GET /api/v1/repos/search?limit=50", path: "/api/v1/repos/search?limit=50" },
    { name: "GET /api/v1/repos/bench/repo-0/issues?limit=50&state=all", path: "/api/v1/repos/bench/repo-0/issues?limit=50&state=all" },
  ];
  interface LoadResult {
    label: string;
    idle: Mem;
    perEndpoint: { name: string; rps: number; cpuUs: number; bytes: number; peakRss: number }[];
    after: Mem;
    rested: Mem;
  }
  const loads: LoadResult[] = [];
  let biggest = new Uint8Array();
  let biggestType = "application/json;charset=utf-8";
  const loadTargets = [
    ...bins.map((b) => ({ label: b.label, hearth: true, start: (port: number) => spawn([b.path, "web", "--config", main.config, "--port", String(port)], hearthEnv, join(tmp, `load-${b.label.replace(/\W/g, "_")}.log`)) })),
    {
      label: "bare Bun.serve (compiled), floor",
      hearth: false,
      start: (port: number) => {
        writeFileSync(join(tmp, "biggest.json"), biggest);
        return spawn([floorBin], { BASELINE_PORT: String(port), BASELINE_BODY: join(tmp, "biggest.json"), BASELINE_CONTENT_TYPE: biggestType });
      },
    },
  ];
  for (const lt of loadTargets) {
    if (!(await waitQuiet(O.quietWait * 1000))) console.warn("machine busy; measuring the load anyway");
    const port = freePort();
    const p = lt.start(port);
    await waitReady(`http://127.0.0.1:${port}/api/v1/version`, performance.now(), p);
    // Idle as after the load: the same rest, so the two compare.
    await Bun.sleep(O.afterIdle * 1000);
    const idle = mem(p.pid);
    const perEndpoint: LoadResult["perEndpoint"] = [];
    for (const e of endpoints) {
      const url = `http://127.0.0.1:${port}${e.path}`;
      const probe = await fetch(url, { headers: { Authorization: `token ${token}` } });
      const bytes = new Uint8Array(await probe.arrayBuffer());
      if (probe.status !== 200) throw new Error(`${lt.label} ${e.name}: ${probe.status}`);
      if (lt.hearth && bytes.length > biggest.length) {
        biggest = bytes;
        biggestType = probe.headers.get("content-type") ?? biggestType;
      }
      let peakRss = 0;
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, mem(p.pid).rss)), 100);
      const cpu0 = cpuTicksMs(p.pid);
      const out = await run(
        ["wrk", "-t1", `-c${O.connections}`, `-d${O.loadSeconds}s`, "--timeout", "5s", "-H", `Authorization: token ${token}`, url],
        {},
        (O.loadSeconds + 30) * 1000,
      );
      clearInterval(sampler);
      const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
      const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
      if (!Number.isFinite(requests) || non2xx > 0) throw new Error(`${lt.label} ${e.name}: ${non2xx} non-2xx responses\n${out}`);
      const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
      const cpuUs = ((cpuTicksMs(p.pid) - cpu0) * 1000) / requests;
      perEndpoint.push({ name: e.name, rps, cpuUs, bytes: bytes.length, peakRss });
      console.log(`${lt.label} ${e.name}: ${fmt(rps)} req/s, ${fmt(cpuUs)} µs CPU/req, ${bytes.length} B, peak RSS ${mib(peakRss)} MiB`);
    }
    const after = mem(p.pid);
    await Bun.sleep(O.afterIdle * 1000);
    const rested = mem(p.pid);
    await stop(p);
    loads.push({ label: lt.label, idle, perEndpoint, after, rested });
    console.log(`${lt.label}: RSS idle ${mib(idle.rss)}, after load ${mib(after.rss)} (peak ${mib(after.hwm)}), after ${O.afterIdle} s rest ${mib(rested.rss)} MiB`);
  }

  // --- report -------------------------------------------------------------------------------------
  const logLines = readdirSync(tmp)
    .filter((f) => f.endsWith(".log") || f.endsWith(".log.err"))
    .flatMap((f) => readFileSync(join(tmp, f), "utf8").split("\n"))
    .filter((l) => l.trim());
  const rows = (xs: string[][]) => xs.map((r) => `| ${r.join(" | ")} |`).join("\n");
  const cmdLine = `bun bench/startup.ts${argv.length ? " " + argv.join(" ") : ""}`;
  const cpuModel = /^model name\s*:\s*(.*)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpus()[0]?.model ?? "?";
  const floorStart = samples.get(targets[targets.length - 1]!)!;
  const floorLoad = loads[loads.length - 1]!;
  const section = `<!-- startup:begin (written by bench/startup.ts; rerunning it replaces this section) -->
## Start-up and memory of dist/hearth (\`bench/startup.ts\`)

- **Date:** ${started.toISOString()}
- **Command:** \`${cmdLine}\`
- **Machine:** ${availableParallelism()} CPUs (nproc), ${cpuModel}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Linux ${release()}; Bun ${Bun.version}
- **hearth:** git ${gitHead}; built with \`${buildScript}\`; ${bins.map((b) => `${b.label} ${(b.size / 2 ** 20).toFixed(1)} MiB`).join(", ")} on disk, the floor ${(floorSize / 2 ** 20).toFixed(1)} MiB

### Start-up and idle memory

Spawn to the first \`200\` from \`/api/v1/version\` (polled every 2 ms), median and range of ${O.runs} runs,
interleaved; CPU is the process's thread time up to that moment (\`/proc/PID/task/*/schedstat\`); idle RSS is
\`VmRSS\` ${O.idleSettle} s after the first 200 (median), split into anonymous memory (heap) and file-backed pages
(mostly the executable's own code and embedded files).

| Process | Start-up | min – max | CPU to ready | Idle RSS | anonymous | file-backed |
|---|---:|---:|---:|---:|---:|---:|
${rows(
  targets.map((t) => {
    const s = samples.get(t)!;
    const r = s.map((x) => x.readyMs);
    return [t.label, `${median(r).toFixed(1)} ms`, `${Math.min(...r).toFixed(1)} – ${Math.max(...r).toFixed(1)} ms`, `${median(s.map((x) => x.cpuMs)).toFixed(1)} ms`,
      `${mib(median(s.map((x) => x.idle.rss)))} MiB`, `${mib(median(s.map((x) => x.idle.anon)))} MiB`, `${mib(median(s.map((x) => x.idle.file)))} MiB`];
  }),
)}

### Memory under sustained load

A database with ${O.repos} repositories and ${O.issues} issues in \`bench/repo-0\`; a fresh server, then \`wrk -t1 -c${O.connections} -d${O.loadSeconds}s\`
with the token on each endpoint in turn; RSS sampled every 100 ms. The floor answers every request with the largest of hearth's bodies (${fmt(biggest.length)} bytes).

| Process | RSS ${O.afterIdle} s after start | ${endpoints.map((e) => `${e.name}: req/s, CPU/req, peak RSS`).join(" | ")} | RSS after load | peak (VmHWM) | after ${O.afterIdle} s rest |
|---|---:|${endpoints.map(() => "---:").join("|")}|---:|---:|---:|
${rows(
  loads.map((l) => [
    l.label,
    `${mib(l.idle.rss)} MiB`,
    ...l.perEndpoint.map((e) => `${fmt(e.rps)}/s, ${fmt(e.cpuUs)} µs, ${mib(e.peakRss)} MiB`),
    `${mib(l.after.rss)} MiB (${mib(l.after.anon)} anon)`,
    `${mib(l.after.hwm)} MiB`,
    `${mib(l.rested.rss)} MiB`,
  ]),
)}

hearth is ready ${median(samples.get(targets[1]!)!.map((x) => x.readyMs)).toFixed(0)} ms after spawn with an existing database (the floor: ${median(floorStart.map((x) => x.readyMs)).toFixed(0)} ms) and idles at
${mib(median(samples.get(targets[1]!)!.map((x) => x.idle.rss)))} MiB (the floor: ${mib(median(floorStart.map((x) => x.idle.rss)))} MiB); after the load it holds ${mib(loads[0]!.after.rss)} MiB
(peak ${mib(loads[0]!.after.hwm)} MiB; the floor ${mib(floorLoad.after.rss)} MiB). ${logLines.length ? `The servers logged ${logLines.length} line(s) at warn or above; the first: \`${logLines[0]}\`.` : "The servers logged nothing at warn or above."}
<!-- startup:end -->
`;
  if (O.write) {
    writeResultsSection("startup", section);
    console.log(`\nwrote ${relative(ROOT, RESULTS_PATH)}`);
  } else {
    console.log("\n" + section);
  }
}

try {
  await main();
} catch (err) {
  console.error(`bench failed: ${(err as Error).stack ?? err}`);
  process.exitCode = 1;
} finally {
  cleanup.now();
}
