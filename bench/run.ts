/**
 * hearth benchmarks, in one go (see bench/README.md):
 *
 *   1. throughput and latency of authenticated `GET /api/v1/user` on dist/hearth, against a bare
 *      compiled `Bun.serve` returning the same bytes (bench/baseline-server.ts), both driven by wrk
 *      with the same settings, alternating, on loopback;
 *   2. idle RSS and start-up time (spawn -> first 200 from /api/v1/version) of dist/hearth with a
 *      fresh and with an existing database, against the same bare server as the floor;
 *   3. argon2id password hashing cost, @node-rs/argon2 (what hearth uses) against Bun.password (bench/password.ts).
 *
 * Writes bench/RESULTS.md. Every child process is killed on the way out, even on failure.
 *
 *   bun bench/run.ts [--rebuild] [--duration 10] [--warmup 3] [--threads 1] [--connections 32]
 *                    [--rounds 5] [--serial 5] [--startup-runs 5] [--idle-settle 2] [--quiet-wait 30] [--no-password]
 *                    [--keep] [--no-write]
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, release, tmpdir, totalmem } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { runPasswordBench, type PasswordReport } from "./password.ts";
import { freePort, machineBusyMs, median, processCpuMs, waitQuiet } from "./lib/measure.ts";
import { Cleanup, stop, type Child } from "./lib/children.ts";
import { benchArgs } from "./lib/args.ts";
import { RESULTS_PATH, writeResultsSection } from "./lib/results.ts";

// ---------------------------------------------------------------------------------------------
// Options

const ROOT = resolve(import.meta.dir, "..");
const DIST_HEARTH = join(ROOT, "dist", "hearth");
/** The binary actually run: a copy of dist/hearth in the temp dir, so a concurrent rebuild cannot swap it mid-run. */
let HEARTH = DIST_HEARTH;
const BUN = process.execPath;

const argv = process.argv.slice(2);
const args = benchArgs(argv);
const { flag } = args;
const opt = args.number;
args.helpFrom(import.meta.path);
const O = {
  duration: opt("duration", 10),
  warmup: opt("warmup", 3),
  threads: opt("threads", 1),
  connections: opt("connections", 32),
  rounds: opt("rounds", 5),
  startupRuns: opt("startup-runs", 5),
  idleSettle: opt("idle-settle", 2),
  quietWait: opt("quiet-wait", 30),
  serial: opt("serial", 5),
  rebuild: flag("rebuild"),
  password: !flag("no-password"),
  keep: flag("keep"),
  write: !flag("no-write"),
};

// ---------------------------------------------------------------------------------------------
// Child process bookkeeping: everything spawned goes through spawn() or run() and is killed on the way out (lib/children.ts).

const cleanup = new Cleanup(O.keep);

function spawn(cmd: string[], opts: { env?: Record<string, string | undefined>; log?: string; cwd?: string } = {}): Child {
  const out = opts.log ? Bun.file(opts.log) : "ignore";
  const p = Bun.spawn(cmd, {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env },
    stdin: "ignore",
    stdout: out as "ignore",
    stderr: (opts.log ? Bun.file(opts.log + ".err") : "ignore") as "ignore",
  });
  return cleanup.track(p);
}

/** Runs a command to completion, capturing output; throws on a non-zero exit. */
async function run(cmd: string[], opts: { env?: Record<string, string | undefined>; timeoutMs?: number } = {}) {
  const p = Bun.spawn(cmd, { cwd: ROOT, env: { ...process.env, ...opts.env }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  cleanup.track(p);
  const timer = setTimeout(() => p.kill("SIGKILL"), opts.timeoutMs ?? 120_000);
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}\n${stdout}${stderr}`);
  const cpuMs = Number(p.resourceUsage()?.cpuTime.total ?? 0n) / 1000;
  return { stdout, stderr, cpuMs };
}

// ---------------------------------------------------------------------------------------------
// Helpers


/** Polls `url` every `everyMs` until it answers 200; returns ms since `t0`. */
async function waitReady(url: string, t0: number, p: Child, timeoutMs = 30_000, everyMs = 2): Promise<number> {
  for (;;) {
    try {
      const r = await fetch(url, { keepalive: false });
      await r.arrayBuffer();
      if (r.status === 200) return performance.now() - t0;
    } catch {}
    if (p.exitCode !== null || p.signalCode !== null) throw new Error(`process exited (${p.exitCode ?? p.signalCode}) before ${url} answered`);
    if (performance.now() - t0 > timeoutMs) throw new Error(`${url} not ready after ${timeoutMs} ms`);
    await Bun.sleep(everyMs);
  }
}

/** Other processes keeping more CPUs than this busy make a round noisy. */
const NOISY = 0.25;


function procStatus(pid: number): { rssKiB: number; hwmKiB: number } {
  const s = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, "m").exec(s)?.[1] ?? NaN);
  return { rssKiB: kb("VmRSS"), hwmKiB: kb("VmHWM") };
}

const mib = (kib: number) => (kib / 1024).toFixed(1);
const fmt = (n: number, d = 1) => n.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function hearthConfig(port: number): string {
  return [
    "[server]",
    "HTTP_ADDR = 127.0.0.1",
    `HTTP_PORT = ${port}`,
    "DOMAIN = 127.0.0.1",
    "",
    "[log]",
    "LEVEL = warn",
    "",
  ].join("\n");
}

/** A work dir with custom/conf/app.ini and nothing else (so the database is created on start). */
function newWorkDir(parent: string, name: string, port: number): { dir: string; config: string } {
  const dir = join(parent, name);
  const config = join(dir, "custom", "conf", "app.ini");
  mkdirSync(dirname(config), { recursive: true });
  writeFileSync(config, hearthConfig(port));
  return { dir, config };
}

// ---------------------------------------------------------------------------------------------
// wrk

interface WrkResult {
  rps: number;
  /** Server CPU time (user + system) per request, µs; filled in by the caller. */
  cpuUsPerReq?: number;
  /** CPU time wrk itself used, ms. */
  wrkCpuMs: number;
  /** CPUs kept busy by everything but the server and wrk during the run (other tenants); filled in by the caller. */
  otherCpus?: number;
  p50ms: number;
  p75ms: number;
  p90ms: number;
  p99ms: number;
  requests: number;
  non2xx: number;
  socketErrors: string | undefined;
  raw: string;
}

function toMs(v: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(v.trim());
  if (!m) return NaN;
  const n = Number(m[1]);
  return m[2] === "us" ? n / 1000 : m[2] === "ms" ? n : m[2] === "s" ? n * 1000 : n * 60_000;
}

function parseWrk(out: string): WrkResult {
  const pct = (p: string) => toMs(new RegExp(`^\\s+${p}%\\s+(\\S+)`, "m").exec(out)?.[1] ?? "");
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    p50ms: pct("50"),
    p75ms: pct("75"),
    p90ms: pct("90"),
    p99ms: pct("99"),
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
    socketErrors: /Socket errors:.*/.exec(out)?.[0],
    wrkCpuMs: 0,
    raw: out,
  };
}

function wrkArgs(url: string, token: string, seconds: number, connections = O.connections): string[] {
  return [
    "wrk",
    `-t${Math.min(O.threads, connections)}`,
    `-c${connections}`,
    `-d${seconds}s`,
    "--timeout",
    "5s",
    "--latency",
    "-H",
    `Authorization: token ${token}`,
    url,
  ];
}

async function wrk(url: string, token: string, seconds: number, connections?: number): Promise<WrkResult> {
  const { stdout, cpuMs: wrkCpuMs } = await run(wrkArgs(url, token, seconds, connections), { timeoutMs: (seconds + 15) * 1000 });
  const r = parseWrk(stdout);
  r.wrkCpuMs = wrkCpuMs;
  if (!Number.isFinite(r.rps) || !Number.isFinite(r.p99ms)) throw new Error(`could not parse wrk output:\n${stdout}`);
  if (r.non2xx > 0) throw new Error(`${url}: ${r.non2xx} non-2xx responses under load\n${stdout}`);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Main

interface StartupSample {
  readyMs: number;
}

async function main() {
  const started = new Date();
  const wrkPath = Bun.which("wrk");
  if (!wrkPath) {
    console.error(
      "wrk (the HTTP load generator) is not installed.\n" +
        "  Debian/Ubuntu:  apt-get update && apt-get install -y wrk\n" +
        "then run `npm run bench` (or `bun bench/run.ts`) again.",
    );
    process.exit(2);
  }
  const wrkVersion = (await new Response(Bun.spawn(["wrk", "--version"], { stdout: "pipe", stderr: "pipe" }).stdout).text()).split("\n")[0]!.trim();

  // --- dist/hearth --------------------------------------------------------------------------
  if (O.rebuild || !existsSync(DIST_HEARTH)) {
    // package.json's build, so the benchmark measures the executable that ships (its flags matter: bench/startup.ts).
    console.log(`building ${relative(ROOT, DIST_HEARTH)} (npm run build) ...`);
    const t = performance.now();
    await run(["npm", "run", "build"], { timeoutMs: 300_000 });
    console.log(`  built in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  const tmp = mkdtempSync(join(tmpdir(), "hearth-bench-"));
  cleanup.dir(tmp);
  console.log(`work dir ${tmp}${O.keep ? " (kept)" : ""}`);
  HEARTH = join(tmp, "hearth-bin");
  copyFileSync(DIST_HEARTH, HEARTH);
  chmodSync(HEARTH, 0o755);
  const hearthStat = statSync(DIST_HEARTH);
  const srcNewer = newestMtime(join(ROOT, "src")) > hearthStat.mtimeMs;
  if (srcNewer) console.warn("warning: src/ has files newer than dist/hearth; pass --rebuild to measure the current tree");
  const hearthBun = (await run([HEARTH, "--version"], { env: { BUN_BE_BUN: "1" } }).catch(() => ({ stdout: "?" }))).stdout.trim();
  const hearthVersion = (await run([HEARTH, "--version"])).stdout.trim();
  let gitHead = "?";
  try {
    gitHead = (await run(["git", "rev-parse", "--short", "HEAD"])).stdout.trim();
    const dirty = (await run(["git", "status", "--porcelain", "--", "src"])).stdout.trim();
    if (dirty) gitHead += " (src/ has uncommitted changes)";
  } catch {}

  // --- the floor: a compiled bare Bun.serve --------------------------------------------------
  const baselineBin = join(tmp, "baseline-server");
  {
    const t = performance.now();
    await run([BUN, "build", "--compile", join(import.meta.dir, "baseline-server.ts"), "--outfile", baselineBin], { timeoutMs: 120_000 });
    console.log(`compiled bench/baseline-server.ts in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }

  // --- hearth: user, token, server -------------------------------------------------------------
  const hearthPort = freePort();
  const main = newWorkDir(tmp, "hearth", hearthPort);
  const hearthEnv = { HEARTH_WORK_DIR: main.dir };
  await run(
    [HEARTH, "admin", "user", "create", "--username", "bench", "--password", "benchpass123", "--email", "bench@example.com",
      "--admin", "--must-change-password=false", "--config", main.config],
    { env: hearthEnv },
  );
  const token = (await run([HEARTH, "admin", "user", "generate-access-token", "--username", "bench", "--raw", "--config", main.config], {
    env: hearthEnv,
  })).stdout.trim();
  if (!/^[0-9a-f]{40}$/.test(token)) throw new Error(`unexpected token output: ${JSON.stringify(token)}`);

  const hearthLog = join(tmp, "hearth-web.log");
  const base = `http://127.0.0.1:${hearthPort}`;
  let t0 = performance.now();
  const hearth = spawn([HEARTH, "web", "--config", main.config, "--port", String(hearthPort)], { env: hearthEnv, log: hearthLog });
  await waitReady(`${base}/api/v1/version`, t0, hearth);

  const userUrl = `${base}/api/v1/user`;
  const probe = await fetch(userUrl, { headers: { Authorization: `token ${token}` } });
  const userBytes = new Uint8Array(await probe.arrayBuffer());
  if (probe.status !== 200) throw new Error(`GET /api/v1/user answered ${probe.status}: ${new TextDecoder().decode(userBytes)}`);
  const contentType = probe.headers.get("content-type") ?? "application/json";
  const bodyFile = join(tmp, "user.json");
  writeFileSync(bodyFile, userBytes);
  const unauth = await fetch(userUrl);
  await unauth.arrayBuffer();
  console.log(`hearth ready on ${base}; /api/v1/user = ${userBytes.length} bytes (${contentType}); without token: ${unauth.status}`);

  const basePort = freePort();
  const baselineEnv = { BASELINE_PORT: String(basePort), BASELINE_BODY: bodyFile, BASELINE_CONTENT_TYPE: contentType };
  t0 = performance.now();
  const baseline = spawn([baselineBin], { env: baselineEnv });
  await waitReady(`http://127.0.0.1:${basePort}/api/v1/version`, t0, baseline);
  const baseUrl = `http://127.0.0.1:${basePort}/api/v1/user`;
  const check = new Uint8Array(await (await fetch(baseUrl)).arrayBuffer());
  if (Buffer.compare(check, userBytes) !== 0) throw new Error("baseline does not return hearth's bytes");

  // --- load ------------------------------------------------------------------------------------
  const targets = [
    { name: "hearth", url: userUrl, proc: hearth },
    { name: "baseline", url: baseUrl, proc: baseline },
  ] as const;
  const loadResults: Record<string, WrkResult[]> = { hearth: [], baseline: [] };
  for (const t of targets) {
    console.log(`warm-up ${t.name}: ${O.warmup} s`);
    await wrk(t.url, token, O.warmup);
  }
  // Other tenants of the machine skew a round; a pair of rounds where something else kept more than
  // NOISY CPUs busy is run again (at most --rounds extra times), after waiting for a quiet moment.
  let retriesLeft = O.rounds;
  let discarded = 0;
  for (let round = 1; round <= O.rounds; round++) {
    const quiet = await waitQuiet(O.quietWait * 1000);
    if (!quiet) console.warn(`  machine still busy after ${O.quietWait} s; measuring anyway`);
    const pair: WrkResult[] = [];
    for (const t of round % 2 ? targets : [...targets].reverse()) {
      const cpu0 = processCpuMs(t.proc.pid);
      const busy0 = machineBusyMs();
      const wall0 = performance.now();
      const r = await wrk(t.url, token, O.duration);
      const serverMs = processCpuMs(t.proc.pid) - cpu0;
      r.cpuUsPerReq = (serverMs * 1000) / r.requests;
      r.otherCpus = Math.max(0, machineBusyMs() - busy0 - serverMs - r.wrkCpuMs) / (performance.now() - wall0);
      pair.push(r);
      console.log(
        `round ${round} ${t.name.padEnd(8)} ${fmt(r.rps, 0).padStart(8)} req/s  p50 ${r.p50ms.toFixed(3)} ms  p99 ${r.p99ms.toFixed(3)} ms  ` +
          `server CPU ${r.cpuUsPerReq.toFixed(1)} µs/req  other load ${r.otherCpus.toFixed(2)} CPUs` +
          (r.socketErrors ? `  ${r.socketErrors}` : ""),
      );
    }
    if (pair.some((r) => r.otherCpus! > NOISY) && retriesLeft > 0) {
      retriesLeft--;
      discarded++;
      console.log(`  round ${round} discarded: other processes kept > ${NOISY} CPUs busy; running it again`);
      round--;
      continue;
    }
    const order = round % 2 ? targets : [...targets].reverse();
    order.forEach((t, i) => loadResults[t.name]!.push(pair[i]!));
  }
  const afterLoad = { hearth: procStatus(hearth.pid), baseline: procStatus(baseline.pid) };

  // One connection, one request at a time: the service time, without the queueing of the rounds above.
  const serial: Record<string, WrkResult> = {};
  await waitQuiet(O.quietWait * 1000);
  for (const t of targets) {
    serial[t.name] = await wrk(t.url, token, O.serial, 1);
    const r = serial[t.name]!;
    console.log(`1 connection ${t.name.padEnd(8)} ${fmt(r.rps, 0).padStart(8)} req/s  p50 ${r.p50ms.toFixed(3)} ms  p99 ${r.p99ms.toFixed(3)} ms`);
  }
  await stop(baseline);
  const hearthExit = await stop(hearth);

  // --- idle RSS and start-up ------------------------------------------------------------------
  interface StartupCase {
    label: string;
    cmd: (port: number, run: number) => { cmd: string[]; env: Record<string, string> };
    samples: StartupSample[];
    idleRssKiB?: number;
  }
  const cases: StartupCase[] = [
    {
      label: "dist/hearth web, fresh database",
      cmd: (port, i) => {
        const w = newWorkDir(tmp, `fresh-${i}-${port}`, port);
        return { cmd: [HEARTH, "web", "--config", w.config, "--port", String(port)], env: { HEARTH_WORK_DIR: w.dir } };
      },
      samples: [],
    },
    {
      label: "dist/hearth web, existing database",
      cmd: (port) => ({ cmd: [HEARTH, "web", "--config", main.config, "--port", String(port)], env: hearthEnv }),
      samples: [],
    },
    {
      label: "bare Bun.serve (compiled), floor",
      cmd: (port) => ({ cmd: [baselineBin], env: { ...baselineEnv, BASELINE_PORT: String(port) } }),
      samples: [],
    },
  ];
  const startupLogs: string[] = [];
  if (!(await waitQuiet(O.quietWait * 1000))) console.warn("  machine busy; measuring start-up anyway");
  for (let i = 0; i < O.startupRuns; i++) {
    for (const c of cases) {
      const port = freePort();
      const { cmd, env } = c.cmd(port, i);
      const log = join(tmp, `startup-${i}-${port}.log`);
      startupLogs.push(log);
      const start = performance.now();
      const p = spawn(cmd, { env, log });
      const readyMs = await waitReady(`http://127.0.0.1:${port}/api/v1/version`, start, p);
      c.samples.push({ readyMs });
      // Idle RSS once per case, on the first run (which, for hearth, is after the DB exists for
      // the "existing" case and right after migrations for the "fresh" one).
      if (i === 0) {
        await Bun.sleep(O.idleSettle * 1000);
        c.idleRssKiB = procStatus(p.pid).rssKiB;
      }
      await stop(p);
    }
  }
  for (const c of cases) console.log(`${c.label}: ready in ${median(c.samples.map((s) => s.readyMs)).toFixed(1)} ms (median of ${c.samples.length}), idle RSS ${mib(c.idleRssKiB!)} MiB`);

  // --- password hashing ------------------------------------------------------------------------
  let pw: PasswordReport | undefined;
  if (O.password) {
    console.log("password hashing ...");
    if (!(await waitQuiet(O.quietWait * 1000))) console.warn("  machine busy; measuring anyway");
    pw = await runPasswordBench(10);
    for (const r of pw.results) console.log(`  ${r.name}: hash ${r.hashMs.median.toFixed(1)} ms, verify ${r.verifyMs.median.toFixed(1)} ms`);
    if (pw.nodeRsMissing) console.log(`  ${pw.nodeRsMissing}`);
  }

  // --- server logs: anything at warn or above is worth a look -----------------------------------
  const logText = [hearthLog, ...startupLogs]
    .flatMap((f) => [f, f + ".err"])
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f, "utf8"))
    .join("");
  const logLines = logText.split("\n").filter((l) => l.trim());
  if (logLines.length) console.log(`server logged ${logLines.length} line(s) at warn+; first: ${logLines[0]}`);

  // --- report ----------------------------------------------------------------------------------
  const agg = (name: string) => {
    const rs = loadResults[name]!;
    return {
      rps: median(rs.map((r) => r.rps)),
      p50: median(rs.map((r) => r.p50ms)),
      p90: median(rs.map((r) => r.p90ms)),
      p99: median(rs.map((r) => r.p99ms)),
      requests: rs.reduce((a, r) => a + r.requests, 0),
      cpu: median(rs.map((r) => r.cpuUsPerReq!)),
    };
  };
  const H = agg("hearth");
  const B = agg("baseline");
  // Rounds alternate, so round i of each server ran under similar machine load: pair them.
  const ratios = loadResults.hearth!.map((h, i) => h.rps / loadResults.baseline![i]!.rps);
  const ratio = median(ratios);
  const cpuRatio = H.cpu / B.cpu;
  const bMin = Math.min(...loadResults.baseline!.map((r) => r.rps));
  const bMax = Math.max(...loadResults.baseline!.map((r) => r.rps));
  const cpuModel = /^model name\s*:\s*(.*)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpus()[0]?.model ?? "?";
  const [fresh, existing, floor] = cases as [StartupCase, StartupCase, StartupCase];
  const fm = median(fresh.samples.map((s) => s.readyMs));
  const em = median(existing.samples.map((s) => s.readyMs));
  const flm = median(floor.samples.map((s) => s.readyMs));
  const cmdLine = `bun bench/run.ts${argv.length ? " " + argv.join(" ") : ""}`;
  const wrkCmd = wrkArgs("http://127.0.0.1:PORT/api/v1/user", "TOKEN", O.duration)
    .map((a) => (a.includes(" ") ? `"${a}"` : a))
    .join(" ");

  const rows = (xs: string[][]) => xs.map((r) => `| ${r.join(" | ")} |`).join("\n");
  const bunPw = pw?.results.find((r) => r.name === "Bun.password");
  const nodePw = pw?.results.find((r) => r.name === "@node-rs/argon2");

  const interp: string[] = [];
  interp.push(
    `hearth serves an authenticated \`GET /api/v1/user\` at ${fmt(H.rps, 0)} req/s, ${(ratio * 100).toFixed(1)}% of what a bare ` +
      `\`Bun.serve\` returning the same bytes manages in the same run (${fmt(B.rps, 0)} req/s), with p50 ${H.p50.toFixed(2)} ms against ${B.p50.toFixed(2)} ms; ` +
      `each request costs the server ${fmt(H.cpu, 0)} µs of CPU against ${fmt(B.cpu, 0)} µs, so ${fmt(H.cpu - B.cpu, 0)} µs is hearth's own work ` +
      `(routing, token and user lookups in SQLite, building the JSON); one request at a time it answers in ${serial.hearth!.p50ms.toFixed(2)} ms (p50) against ` +
      `${serial.baseline!.p50ms.toFixed(2)} ms. wrk and the server share ${availableParallelism()} CPUs` +
      (bMax / bMin > 1.2 ? ` and the baseline alone ranged from ${fmt(bMin, 0)} to ${fmt(bMax, 0)} req/s between rounds` : "") +
      `, so compare the paired ratio and the CPU per request between runs rather than absolute rates.`,
  );
  interp.push(
    `The single executable is ready to answer ${fmt(em, 0)} ms after spawn with an existing database and ${fmt(fm, 0)} ms with a fresh one ` +
      `(migrations included), against ${fmt(flm, 0)} ms for a compiled hello-world Bun server; idle it holds ${mib(existing.idleRssKiB!)} MiB ` +
      `resident against the floor's ${mib(floor.idleRssKiB!)} MiB.`,
  );
  if (bunPw) {
    interp.push(
      nodePw
        ? `Bun.password's argon2id (m=64 MiB, t=2, p=1) takes ${bunPw.hashMs.median.toFixed(0)} ms per hash against ` +
            `${nodePw.hashMs.median.toFixed(0)} ms for @node-rs/argon2 (${(bunPw.hashMs.median / nodePw.hashMs.median).toFixed(2)}×); ` +
            `with several hashes in flight the gap narrows (${fmt(bunPw.concurrentHashesPerSec, 1)} against ${fmt(nodePw.concurrentHashesPerSec, 1)} hashes/s). ` +
            `Both write standard PHC strings and ${pw!.crossVerify?.bunVerifiesNodeRs && pw!.crossVerify?.nodeRsVerifiesBun ? "each verifies the other's" : "they do NOT verify each other's"}, ` +
            `so the choice is reversible. hearth uses @node-rs/argon2 (src/crypto/password.ts): it embeds in the single executable, ` +
            `and every password-authenticated request (each git operation over HTTP, for one) pays a verify.`
        : `Bun.password's argon2id (m=64 MiB, t=2, p=1) takes ${bunPw.hashMs.median.toFixed(0)} ms per hash; @node-rs/argon2 was not available to compare.`,
    );
  }

  const md = `<!-- run:begin (written by bench/run.ts; rerunning it replaces this section) -->
## Authenticated API request, start-up, password hashing (\`bench/run.ts\`)

Generated by \`bench/run.ts\`; see [README.md](README.md) for what is measured and how.

- **Date:** ${started.toISOString()}
- **Machine:** ${availableParallelism()} CPUs (nproc), ${cpuModel}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Linux ${release()}
- **Bun:** ${Bun.version} (runner); dist/hearth embeds Bun ${hearthBun}
- **hearth:** ${hearthVersion}, git ${gitHead}, dist/hearth built ${hearthStat.mtime.toISOString()}${srcNewer ? " (**older than src/**)" : ""}
- **Load generator:** ${wrkVersion}
- **Command:** \`${cmdLine}\`
- **wrk, per run:** \`${wrkCmd}\` after a ${O.warmup} s warm-up per server; ${O.rounds} alternating rounds, medians reported${discarded ? ` (${discarded} round pair(s) discarded and rerun because other processes were busy)` : ""}

### \`GET /api/v1/user\` with \`Authorization: token …\` (${userBytes.length}-byte JSON body)

| Server | Requests/s | p50 | p90 | p99 | Server CPU per request |
|---|---:|---:|---:|---:|---:|
${rows([
  ["hearth (`dist/hearth web`)", fmt(H.rps, 0), `${H.p50.toFixed(3)} ms`, `${H.p90.toFixed(3)} ms`, `${H.p99.toFixed(3)} ms`, `${fmt(H.cpu, 0)} µs`],
  ["bare `Bun.serve`, same bytes", fmt(B.rps, 0), `${B.p50.toFixed(3)} ms`, `${B.p90.toFixed(3)} ms`, `${B.p99.toFixed(3)} ms`, `${fmt(B.cpu, 0)} µs`],
  ["**hearth / baseline**", `**${(ratio * 100).toFixed(1)}%**`, `${(H.p50 / B.p50).toFixed(1)}×`, `${(H.p90 / B.p90).toFixed(1)}×`, `${(H.p99 / B.p99).toFixed(1)}×`, `${cpuRatio.toFixed(1)}×`],
])}

With ${O.connections} connections both servers are saturated, so latency is mostly queueing (p50 ≈ connections ÷ rate).
One connection, one request at a time (\`-c1 -d${O.serial}s\`), shows the time a request takes without a queue:

| Server, 1 connection | Requests/s | p50 | p90 | p99 |
|---|---:|---:|---:|---:|
${rows(
  targets.map((t) => {
    const r = serial[t.name]!;
    return [t.name === "hearth" ? "hearth" : "bare `Bun.serve`", fmt(r.rps, 0), `${r.p50ms.toFixed(3)} ms`, `${r.p90ms.toFixed(3)} ms`, `${r.p99ms.toFixed(3)} ms`];
  }),
)}

Requests/s, per round (hearth / baseline): ${loadResults.hearth!.map((r, i) => `${fmt(r.rps, 0)} / ${fmt(loadResults.baseline![i]!.rps, 0)} = ${(ratios[i]! * 100).toFixed(1)}%`).join("; ")}.
The ratio row gives the median of those per-round ratios: rounds alternate, so each pair ran under the same machine conditions.
Server CPU per request is the server process's user + system time (\`/proc/PID/stat\`) during a round divided by the requests it served.
CPUs kept busy by other processes during the rounds (machine busy time from \`/proc/stat\` minus the server's and wrk's), hearth / baseline:
${loadResults.hearth!.map((r, i) => `${r.otherCpus!.toFixed(2)} / ${loadResults.baseline![i]!.otherCpus!.toFixed(2)}`).join("; ")} of ${availableParallelism()}.
Resident memory after the load: hearth ${mib(afterLoad.hearth.rssKiB)} MiB (peak ${mib(afterLoad.hearth.hwmKiB)} MiB), baseline ${mib(afterLoad.baseline.rssKiB)} MiB (peak ${mib(afterLoad.baseline.hwmKiB)} MiB).

### Start-up and idle memory

Start-up is the time from spawn to the first \`200\` from \`/api/v1/version\` (polled every 2 ms), median of ${O.startupRuns} runs.
Idle RSS is \`VmRSS\` from \`/proc/PID/status\` ${O.idleSettle} s after the server became ready (no request but the readiness polls).

| Process | Start-up (median) | min – max | Idle RSS |
|---|---:|---:|---:|
${rows(
  cases.map((c) => {
    const xs = c.samples.map((s) => s.readyMs);
    return [c.label, `${median(xs).toFixed(1)} ms`, `${Math.min(...xs).toFixed(1)} – ${Math.max(...xs).toFixed(1)} ms`, `${mib(c.idleRssKiB!)} MiB`];
  }),
)}

dist/hearth is ${(hearthStat.size / 2 ** 20).toFixed(1)} MiB on disk; the compiled floor is ${(statSync(baselineBin).size / 2 ** 20).toFixed(1)} MiB.
${
  pw
    ? `
### Password hashing (argon2id, m=${pw.params.memoryCost} KiB, t=${pw.params.timeCost}, p=${pw.params.parallelism})

Sequential hash and verify of one password, median (min – max) of ${pw.iterations}; throughput with ${(pw.results[0]?.concurrency ?? 2) * 2} hashes in flight.

| Implementation | Hash | Verify | Hashes/s, concurrent |
|---|---:|---:|---:|
${rows(
  pw.results.map((r) => [
    `${r.name} (${r.version})`,
    `${r.hashMs.median.toFixed(1)} ms (${r.hashMs.min.toFixed(0)} – ${r.hashMs.max.toFixed(0)})`,
    `${r.verifyMs.median.toFixed(1)} ms (${r.verifyMs.min.toFixed(0)} – ${r.verifyMs.max.toFixed(0)})`,
    fmt(r.concurrentHashesPerSec, 1),
  ]),
)}
${pw.crossVerify ? `\nCross-verification: Bun.password verifies @node-rs/argon2's hash: ${pw.crossVerify.bunVerifiesNodeRs}; @node-rs/argon2 verifies Bun.password's: ${pw.crossVerify.nodeRsVerifiesBun}.\n` : ""}${pw.nodeRsMissing ? `\n${pw.nodeRsMissing}\n` : ""}`
    : ""
}
### Interpretation

${interp.join("\n\n")}
${
  logLines.length
    ? `\n### Server output at warn and above\n\n\`\`\`\n${logLines.slice(0, 20).join("\n")}\n\`\`\`\n`
    : `\nThe servers logged nothing at warn or above during the run; hearth exited with code ${hearthExit} on SIGTERM.\n`
}<!-- run:end -->`;

  if (O.write) {
    // Only this script's section changes: the other scripts' sections (and the summary above them) stay.
    writeResultsSection("run", md);
    console.log(`\nwrote ${relative(ROOT, RESULTS_PATH)}`);
  } else {
    console.log("\n" + md);
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
