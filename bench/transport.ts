/**
 * Git transport benchmark (see bench/README.md): push and clone of a large generated repository
 * through hearth's smart HTTP, against the physical limit (`file://`, git talking to itself over
 * pipes) and against `git http-backend` behind a minimal Bun CGI host (bench/git-http-backend.ts),
 * all in the same run, on 127.0.0.1 only.
 *
 *   bun bench/transport.ts [--commits 20000] [--mb 200] [--branches 8] [--tags 20] [--seed 1]
 *                          [--runs 3] [--push-runs 3] [--quiet-load 0.7] [--quiet-wait 600]
 *                          [--post-buffer BYTES] [--binary PATH]
 *                          [--rebuild] [--keep] [--no-write | --write] [--quick]
 *
 * --post-buffer sets the clients' http.postBuffer (default: git's own, 1 MiB, with which a push
 * streams its pack as it is made; a buffer larger than the pack makes git build the whole pack
 * before it sends a byte). --binary measures that hearth executable instead of dist/hearth (an
 * older build, for a before/after comparison in the same session).
 *
 * --quick is a smoke run: 2,000 commits, 20 MiB, one run of each, short quiet waits, and
 * bench/RESULTS.md is left alone unless --write is given.
 *
 * The generated repository is cached in bench/.work/ (gitignored), keyed by its parameters.
 * Every child process (and its descendants) is killed when the script ends, also on error or Ctrl-C.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, release, tmpdir, totalmem } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { cacheName, generateRepo, isGenerated, type GenInfo, type GenParams } from "./gen-repo.ts";
import { CLK_TCK, freePort, machineBusyMs, median } from "./lib/measure.ts";
import { benchArgs } from "./lib/args.ts";
import { RESULTS_PATH, writeResultsSection } from "./lib/results.ts";

// ---------------------------------------------------------------------------------------------
// Options

const ROOT = resolve(import.meta.dir, "..");
const DIST_HEARTH = join(ROOT, "dist", "hearth");
const BUN = process.execPath;
const argv = process.argv.slice(2);
const args = benchArgs(argv);
const { flag } = args;
const opt = args.number;
args.helpFrom(import.meta.path);
const QUICK = flag("quick");
const O = {
  commits: opt("commits", QUICK ? 2000 : 20000),
  mib: opt("mb", QUICK ? 20 : 200),
  branches: opt("branches", 8),
  tags: opt("tags", 20),
  seed: opt("seed", 1),
  runs: opt("runs", QUICK ? 1 : 3),
  pushRuns: opt("push-runs", QUICK ? 1 : 3),
  quietLoad: opt("quiet-load", 0.7),
  quietWait: opt("quiet-wait", QUICK ? 15 : 600),
  repackWait: opt("repack-wait", 900),
  maxMinutes: opt("max-minutes", 240),
  postBuffer: argv.includes("--post-buffer") ? String(opt("post-buffer", 1)) : undefined,
  binary: argv.includes("--binary") ? resolve(argv[argv.indexOf("--binary") + 1] ?? "") : undefined,
  rebuild: flag("rebuild"),
  keep: flag("keep"),
  write: flag("write") || (!QUICK && !flag("no-write")),
};
const DEADLINE = performance.now() + O.maxMinutes * 60_000;
const GIT_TIMEOUT_MS = 30 * 60_000;
/** `-c http.postBuffer=...` for the clients, when --post-buffer asks for one. */
const POST_BUFFER_ARGS = O.postBuffer ? ["-c", `http.postBuffer=${O.postBuffer}`] : [];

// ---------------------------------------------------------------------------------------------
// Child processes: everything spawned is tracked and killed (with its descendants) on the way out.

type Child = ReturnType<typeof Bun.spawn>;
const children = new Set<Child>();
const tempDirs: string[] = [];

const GIT_ENV: Record<string, string> = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_TERMINAL_PROMPT: "0",
  LC_ALL: "C",
};

function spawn(cmd: string[], opts: { env?: Record<string, string | undefined>; log?: string; cwd?: string } = {}): Child {
  const p = Bun.spawn(cmd, {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env },
    stdin: "ignore",
    stdout: (opts.log ? Bun.file(opts.log) : "ignore") as "ignore",
    stderr: (opts.log ? Bun.file(opts.log + ".err") : "ignore") as "ignore",
  });
  children.add(p);
  p.exited.then(() => children.delete(p));
  return p;
}

async function run(cmd: string[], opts: { env?: Record<string, string | undefined>; timeoutMs?: number; cwd?: string } = {}) {
  const p = Bun.spawn(cmd, { cwd: opts.cwd ?? ROOT, env: { ...process.env, ...opts.env }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  children.add(p);
  const timer = setTimeout(() => p.kill("SIGKILL"), opts.timeoutMs ?? 120_000);
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  children.delete(p);
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code ?? p.signalCode}\n${stdout}${stderr}`);
  return { stdout, stderr };
}

const git = (args: string[], gitDir?: string, timeoutMs = GIT_TIMEOUT_MS) =>
  run(gitDir ? ["git", `--git-dir=${gitDir}`, ...args] : ["git", ...args], { env: GIT_ENV, timeoutMs });

async function stop(p: Child, graceMs = 10_000): Promise<number | null> {
  if (p.exitCode !== null || p.signalCode !== null) return p.exitCode;
  p.kill("SIGTERM");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = await Promise.race([p.exited.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), graceMs)))]);
  clearTimeout(timer);
  if (!done) {
    for (const d of descendants(p.pid)) tryKill(d);
    p.kill("SIGKILL");
    await p.exited;
  }
  return p.exitCode;
}

function tryKill(pid: number) {
  try {
    process.kill(pid, "SIGKILL");
  } catch {}
}

let cleaned = false;
function cleanupSync() {
  if (cleaned) return;
  cleaned = true;
  for (const p of children) {
    for (const d of descendants(p.pid)) tryKill(d);
    try {
      p.kill("SIGKILL");
    } catch {}
  }
  if (!O.keep) for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
}
process.on("exit", cleanupSync);
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(sig, () => {
    console.error(`\n${sig}: stopping children`);
    cleanupSync();
    process.exit(130);
  });
}

// ---------------------------------------------------------------------------------------------
// /proc


/** pid -> ppid for every process. */
function processTable(): Map<number, number> {
  const m = new Map<number, number>();
  for (const e of readdirSync("/proc")) {
    const c = e.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    try {
      const s = readFileSync(`/proc/${e}/stat`, "latin1");
      const f = s.slice(s.lastIndexOf(")") + 2).split(" ", 3);
      m.set(Number(e), Number(f[1]));
    } catch {}
  }
  return m;
}

function descendants(root: number, table = processTable()): number[] {
  const kids = new Map<number, number[]>();
  for (const [pid, ppid] of table) {
    const l = kids.get(ppid);
    if (l) l.push(pid);
    else kids.set(ppid, [pid]);
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length) {
    for (const k of kids.get(stack.pop()!) ?? []) {
      out.push(k);
      stack.push(k);
    }
  }
  return out;
}

/** KiB: resident set, its peak, and the anonymous part of it (heap; the rest is mapped files such as packs). */
function memStatus(pid: number): { rss: number; hwm: number; anon: number } | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/status`, "latin1");
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, "m").exec(s)?.[1] ?? 0);
    return { rss: kb("VmRSS"), hwm: kb("VmHWM"), anon: kb("RssAnon") };
  } catch {
    return undefined;
  }
}

function cmdlineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").filter(Boolean).join(" ");
  } catch {
    return "";
  }
}

/** CPU time of a process, ms: its own, and that of its reaped descendants (cutime + cstime). */
function procCpu(pid: number): { self: number; children: number } {
  const s = readFileSync(`/proc/${pid}/stat`, "latin1");
  const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
  const t = (i: number) => (Number(f[i]) * 1000) / CLK_TCK;
  return { self: t(11) + t(12), children: t(13) + t(14) };
}


const load1 = () => Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);

/** A short name for a git process: `git pack-objects`, `git upload-pack`, `hearth hook`, ... */
function shortCmd(cmd: string): string {
  const w = cmd.split(" ");
  const exe = w[0]!.split("/").pop()!;
  // The subcommand: the first word that is neither an option nor the value of `-c`.
  if (exe === "git") return `git ${w.find((x, i) => i > 0 && !x.startsWith("-") && w[i - 1] !== "-c") ?? ""}`.trim();
  if (exe.startsWith("git-")) return `git ${exe.slice(4)}`;
  if (exe.includes("hearth")) return `hearth ${w.slice(1, 3).join(" ")}`;
  return exe;
}

interface RssResult {
  /** Largest VmRSS of the root process seen (KiB); undefined when the root is not counted. */
  rootPeak?: number;
  /** Largest RssAnon of the root process seen (KiB). */
  rootAnonPeak?: number;
  /** Largest sum of VmRSS over the counted processes at one sample (KiB). */
  treePeak: number;
  /** Largest sum of RssAnon over the counted processes at one sample (KiB). */
  treeAnonPeak: number;
  /** Largest VmHWM of any counted descendant, and its name. */
  childPeak: number;
  childPeakName: string;
  samples: number;
}

/**
 * Samples the memory of a process tree every `everyMs`: the root's VmRSS and, for every counted
 * descendant, VmRSS (summed per sample) and VmHWM (its own peak, so a spike between two samples is
 * still seen as long as the process is alive at one of them). With `serverRoots`, only descendants
 * whose command line matches it, and their descendants, are counted (the server side of a file://
 * clone or push, under the client).
 */
class RssSampler {
  private timer: ReturnType<typeof setInterval> | undefined;
  private r: RssResult = { treePeak: 0, treeAnonPeak: 0, childPeak: 0, childPeakName: "", samples: 0 };
  private cmds = new Map<number, string>();
  constructor(
    private readonly root: number,
    private readonly opts: { countRoot: boolean; serverRoots?: RegExp },
  ) {}
  start(everyMs = 20): this {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
    return this;
  }
  private cmd(pid: number): string {
    let c = this.cmds.get(pid);
    if (c === undefined) {
      c = cmdlineOf(pid);
      this.cmds.set(pid, c);
    }
    return c;
  }
  private sample() {
    let sum = 0;
    let anon = 0;
    if (this.opts.countRoot) {
      const m = memStatus(this.root);
      if (m) {
        this.r.rootPeak = Math.max(this.r.rootPeak ?? 0, m.rss);
        this.r.rootAnonPeak = Math.max(this.r.rootAnonPeak ?? 0, m.anon);
        sum += m.rss;
        anon += m.anon;
      }
    }
    const table = processTable();
    let counted = descendants(this.root, table);
    if (this.opts.serverRoots) {
      const roots = counted.filter((pid) => this.opts.serverRoots!.test(this.cmd(pid)));
      counted = [...new Set([...roots, ...roots.flatMap((pid) => descendants(pid, table))])];
    }
    for (const pid of counted) {
      const m = memStatus(pid);
      if (!m) continue;
      sum += m.rss;
      anon += m.anon;
      if (m.hwm > this.r.childPeak) {
        this.r.childPeak = m.hwm;
        this.r.childPeakName = shortCmd(this.cmd(pid));
      }
    }
    this.r.treePeak = Math.max(this.r.treePeak, sum);
    this.r.treeAnonPeak = Math.max(this.r.treeAnonPeak, anon);
    this.r.samples++;
  }
  stop(): RssResult {
    clearInterval(this.timer);
    this.sample();
    return this.r;
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers


async function waitReady(url: string, p: Child, timeoutMs = 60_000): Promise<void> {
  const t0 = performance.now();
  for (;;) {
    try {
      const r = await fetch(url);
      await r.arrayBuffer();
      if (r.status === 200) return;
    } catch {}
    if (p.exitCode !== null || p.signalCode !== null) throw new Error(`process exited (${p.exitCode ?? p.signalCode}) before ${url} answered`);
    if (performance.now() - t0 > timeoutMs) throw new Error(`${url} not ready after ${timeoutMs} ms`);
    await Bun.sleep(20);
  }
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function packFiles(gitDir: string): string[] {
  const d = join(gitDir, "objects", "pack");
  return existsSync(d) ? readdirSync(d) : [];
}
function packBytes(gitDir: string): number {
  return packFiles(gitDir)
    .filter((f) => f.endsWith(".pack"))
    .reduce((a, f) => a + statSync(join(gitDir, "objects", "pack", f)).size, 0);
}
const isRepacked = (gitDir: string) => {
  const f = packFiles(gitDir);
  return f.filter((x) => x.endsWith(".pack")).length === 1 && f.some((x) => x.endsWith(".bitmap"));
};

const MiB = 2 ** 20;
const fmt = (n: number, d = 1) => n.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });
const mibK = (kib: number) => fmt(kib / 1024, 0);
const secs = (ms: number) => `${fmt(ms / 1000, 2)} s`;

function checkDeadline() {
  if (performance.now() > DEADLINE) throw new Error(`--max-minutes ${O.maxMinutes} reached`);
}

/** Blocks until the 1-minute load average is below --quiet-load and the last 2 s were nearly idle. */
async function waitQuiet(): Promise<{ waitedS: number; load1: number; quiet: boolean }> {
  checkDeadline();
  await run(["sync"], { timeoutMs: 120_000 }); // flush the previous phase's writes first
  const t0 = performance.now();
  let lastLog = t0;
  for (;;) {
    const b0 = machineBusyMs();
    const s0 = performance.now();
    await Bun.sleep(2000);
    const busy = (machineBusyMs() - b0) / (performance.now() - s0);
    const l = load1();
    if (l < O.quietLoad && busy < 0.3) return { waitedS: (performance.now() - t0) / 1000, load1: l, quiet: true };
    if (performance.now() - t0 > O.quietWait * 1000) {
      console.warn(`    machine still busy after ${O.quietWait} s (load ${l}, ${busy.toFixed(2)} CPUs busy); measuring anyway`);
      return { waitedS: (performance.now() - t0) / 1000, load1: l, quiet: false };
    }
    if (performance.now() - lastLog > 30_000) {
      lastLog = performance.now();
      console.log(`    waiting for a quiet machine: load ${l}, ${busy.toFixed(2)} CPUs busy`);
    }
  }
}

/** `ms=` of the last request to `path` in hearth's log (it logs each request at debug level). */
function lastRequestMs(log: string, path: string): number | undefined {
  const lines = [log, `${log}.err`]
    .filter((f) => existsSync(f))
    .flatMap((f) => readFileSync(f, "utf8").split("\n"))
    .filter((l) => l.includes(`path=${path} `))
    .sort(); // ISO timestamps first: chronological across both files
  const m = /\bms=([\d.]+)/.exec(lines.at(-1) ?? "");
  return m ? Number(m[1]) : undefined;
}

// ---------------------------------------------------------------------------------------------
// One measured git operation

interface Sample {
  target: string;
  op: "clone" | "push";
  ms: number;
  /** CPU of the git client, ms, including its reaped children (for file://, upload-pack too). */
  clientCpuMs: number;
  /** CPU of the server process itself (the Bun process: hearth or the CGI host), ms. */
  serverSelfCpuMs?: number;
  /** CPU of the server's git children (upload-pack, pack-objects, receive-pack, hooks ...), ms. */
  serverChildCpuMs?: number;
  rss: RssResult;
  load1Before: number;
  load1After: number;
  /** CPUs kept busy by processes other than this measurement during it. */
  otherCpus: number;
  quiet: boolean;
  /** hearth only: how long the server took to answer the hooks' internal requests, ms (from its request log). */
  preReceiveMs?: number;
  postReceiveMs?: number;
}

type ServerSide = { kind: "server"; pid: number } | { kind: "client"; serverRoots: RegExp };

/** Background work hearth starts after a push, which the measurement does not wait for. */
const BACKGROUND_GIT = /repack|multi-pack-index/;
/** What the reap wait ignores: the background work, and the `cat-file --batch-command` hearth keeps open. */
const NOT_WAITED_FOR = /repack|multi-pack-index|cat-file/;

async function measured(target: string, op: Sample["op"], cmd: string[], server: ServerSide, opts: { waitQuiet?: boolean; reap?: boolean } = {}): Promise<Sample> {
  // A clone right after a push starts at once: waiting for a quiet machine would wait out what it measures.
  const q = opts.waitQuiet === false ? { waitedS: 0, load1: load1(), quiet: true } : await waitQuiet();
  const busy0 = machineBusyMs();
  const cpu0 = server.kind === "server" ? procCpu(server.pid) : undefined;
  const me0 = process.cpuUsage();
  const t0 = performance.now();
  const p = Bun.spawn(cmd, { cwd: ROOT, env: { ...process.env, ...GIT_ENV }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  children.add(p);
  const sampler = (
    server.kind === "server" ? new RssSampler(server.pid, { countRoot: true }) : new RssSampler(p.pid, { countRoot: false, serverRoots: server.serverRoots })
  ).start(20);
  const timer = setTimeout(() => {
    for (const d of descendants(p.pid)) tryKill(d);
    p.kill("SIGKILL");
  }, GIT_TIMEOUT_MS);
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  const ms = performance.now() - t0;
  clearTimeout(timer);
  children.delete(p);
  // Let the server reap its git children so their CPU shows up in cutime/cstime (not before a
  // clone that must start right after: then only what was reaped when the client returned counts).
  if (server.kind === "server" && opts.reap !== false) {
    const until = performance.now() + 5000;
    while (descendants(server.pid).some((d) => !NOT_WAITED_FOR.test(cmdlineOf(d))) && performance.now() < until) await Bun.sleep(20);
  }
  const rss = sampler.stop();
  const wall = performance.now() - t0;
  if (code !== 0) throw new Error(`${target} ${op} failed: ${cmd.join(" ")} exited ${code ?? p.signalCode}\n${stdout}${stderr}`);
  const clientCpuMs = Number(p.resourceUsage()?.cpuTime.total ?? 0n) / 1000;
  const me = process.cpuUsage(me0);
  const meMs = (me.user + me.system) / 1000;
  let serverSelfCpuMs: number | undefined;
  let serverChildCpuMs: number | undefined;
  if (server.kind === "server") {
    const c1 = procCpu(server.pid);
    serverSelfCpuMs = c1.self - cpu0!.self;
    serverChildCpuMs = c1.children - cpu0!.children;
  }
  const ours = clientCpuMs + (serverSelfCpuMs ?? 0) + (serverChildCpuMs ?? 0) + meMs;
  const otherCpus = Math.max(0, machineBusyMs() - busy0 - ours) / wall;
  const s: Sample = { target, op, ms, clientCpuMs, serverSelfCpuMs, serverChildCpuMs, rss, load1Before: q.load1, load1After: load1(), otherCpus, quiet: q.quiet };
  console.log(
    `  ${op} ${target.padEnd(28)} ${secs(ms).padStart(9)}  client CPU ${secs(clientCpuMs)}` +
      (serverSelfCpuMs !== undefined ? `, server CPU ${secs(serverSelfCpuMs)} + git ${secs(serverChildCpuMs!)}` : "") +
      `, peak RSS ${s.rss.rootPeak !== undefined ? `server ${mibK(s.rss.rootPeak)} MiB (anon ${mibK(s.rss.rootAnonPeak!)}), ` : ""}tree ${mibK(s.rss.treePeak)} MiB (anon ${mibK(s.rss.treeAnonPeak)})` +
      ` (${s.rss.childPeakName || "-"} ${mibK(s.rss.childPeak)} MiB)  load ${q.load1.toFixed(2)}→${s.load1After.toFixed(2)}, other ${otherCpus.toFixed(2)} CPUs` +
      (q.waitedS > 5 ? `, waited ${fmt(q.waitedS, 0)} s` : ""),
  );
  return s;
}

// ---------------------------------------------------------------------------------------------
// Main

const REFSPECS = ["refs/heads/*:refs/heads/*", "refs/tags/*:refs/tags/*"];

async function refsOf(gitDir: string): Promise<string> {
  return (await git(["for-each-ref", "--format=%(objectname) %(refname)"], gitDir)).stdout;
}

async function main() {
  const started = new Date();
  const t00 = performance.now();
  const gitVersion = (await git(["--version"])).stdout.trim();

  // --- the repository --------------------------------------------------------------------------
  const params: GenParams = { commits: O.commits, mib: O.mib, branches: O.branches, tags: O.tags, seed: O.seed };
  const cacheDir = join(import.meta.dir, ".work");
  const SRC = join(cacheDir, cacheName(params));
  let gen: GenInfo;
  if (isGenerated(SRC)) {
    gen = JSON.parse(readFileSync(join(SRC, "bench-gen.json"), "utf8"));
    console.log(`repository: cached ${relative(ROOT, SRC)}`);
  } else {
    console.log(`generating ${relative(ROOT, SRC)} (${O.commits} commits, ~${O.mib} MiB) ...`);
    gen = await generateRepo(SRC, params, console.log);
  }
  const srcRefs = await refsOf(SRC);
  const PACK = packBytes(SRC);
  console.log(
    `  ${gen.commits} commits, ${gen.refs} refs, ${gen.objects} objects, pack ${fmt(PACK / MiB)} MiB` +
      ` (generated in ${fmt(gen.generateSeconds)} s + repack ${fmt(gen.repackSeconds)} s)`,
  );

  // --- dist/hearth ---------------------------------------------------------------------------------
  let buildNote = "";
  const BIN = O.binary ?? DIST_HEARTH;
  if (O.binary && !existsSync(O.binary)) throw new Error(`--binary ${O.binary}: no such file`);
  const srcNewer = () => !O.binary && existsSync(DIST_HEARTH) && newestMtime(join(ROOT, "src")) > statSync(DIST_HEARTH).mtimeMs;
  if (O.binary) buildNote = `--binary ${O.binary}, not the working tree's build`;
  else if (O.rebuild || !existsSync(DIST_HEARTH) || srcNewer()) {
    console.log(`building dist/hearth (npm run build) ...`);
    try {
      await run(["npm", "run", "build"], { timeoutMs: 600_000 });
      buildNote = "built from the working tree by this run";
    } catch (err) {
      if (!existsSync(DIST_HEARTH)) throw err;
      console.warn(`  build failed; using the existing dist/hearth: ${(err as Error).message.split("\n").slice(0, 3).join(" / ")}`);
      buildNote = "build failed, an older dist/hearth was measured";
    }
  }
  const tmp = mkdtempSync(join(tmpdir(), "hearth-transport-"));
  tempDirs.push(tmp);
  console.log(`work dir ${tmp}${O.keep ? " (kept)" : ""}`);
  const HEARTH = join(tmp, "hearth-bin");
  copyFileSync(BIN, HEARTH);
  chmodSync(HEARTH, 0o755);
  const hearthStat = statSync(BIN);
  const hearthVersion = (await run([HEARTH, "--version"])).stdout.trim();
  let gitHead = "?";
  try {
    gitHead = (await run(["git", "rev-parse", "--short", "HEAD"])).stdout.trim();
    if ((await run(["git", "status", "--porcelain", "--", "src"])).stdout.trim()) gitHead += " (src/ has uncommitted changes)";
  } catch {}
  if (srcNewer()) buildNote ||= "src/ is newer than dist/hearth";

  // --- hearth -----------------------------------------------------------------------------------------
  const hearthPort = freePort();
  const work = join(tmp, "hearth");
  const config = join(work, "custom", "conf", "app.ini");
  mkdirSync(dirname(config), { recursive: true });
  writeFileSync(config, ["[server]", "HTTP_ADDR = 127.0.0.1", `HTTP_PORT = ${hearthPort}`, "DOMAIN = 127.0.0.1", "", "[log]", "LEVEL = debug", ""].join("\n"));
  const hearthEnv = { HEARTH_WORK_DIR: work };
  await run([HEARTH, "admin", "user", "create", "--username", "bench", "--password", "benchpass123", "--email", "b@example.com", "--admin", "--must-change-password=false", "--config", config], { env: hearthEnv });
  const token = (await run([HEARTH, "admin", "user", "generate-access-token", "--username", "bench", "--raw", "--config", config], { env: hearthEnv })).stdout.trim();
  if (!/^[0-9a-f]{40}$/.test(token)) throw new Error(`unexpected token output: ${JSON.stringify(token)}`);
  const hearthLog = join(tmp, "hearth-web.log");
  const base = `http://127.0.0.1:${hearthPort}`;
  const hearth = spawn([HEARTH, "web", "--config", config, "--port", String(hearthPort)], { env: hearthEnv, log: hearthLog });
  await waitReady(`${base}/api/v1/version`, hearth);
  const hearthIdle = memStatus(hearth.pid)!;
  console.log(`hearth ${hearthVersion} on ${base} (pid ${hearth.pid}, ${mibK(hearthIdle.rss)} MiB idle)`);
  const hearthRepoDir = (name: string) => join(work, "data", "repositories", "bench", `${name}.git`);
  async function hearthCreateRepo(name: string): Promise<string> {
    const r = await fetch(`${base}/api/v1/user/repos`, {
      method: "POST",
      headers: { Authorization: `token ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name }),
    });
    const body = await r.text();
    if (r.status !== 201) throw new Error(`POST /api/v1/user/repos ${name}: ${r.status} ${body}`);
    if (!existsSync(hearthRepoDir(name))) throw new Error(`repository created but ${hearthRepoDir(name)} does not exist`);
    return `http://bench:${token}@127.0.0.1:${hearthPort}/bench/${name}.git`;
  }
  async function hearthDeleteRepo(name: string) {
    const r = await fetch(`${base}/api/v1/repos/bench/${name}`, { method: "DELETE", headers: { Authorization: `token ${token}` } });
    await r.arrayBuffer();
    if (r.status !== 204) console.warn(`  DELETE /api/v1/repos/bench/${name}: ${r.status}`);
  }

  // --- git http-backend ---------------------------------------------------------------------------------
  const backendRoot = join(tmp, "backend");
  mkdirSync(backendRoot);
  const backendPort = freePort();
  const backend = spawn([BUN, join(import.meta.dir, "git-http-backend.ts")], {
    env: { GIT_PROJECT_ROOT: backendRoot, BACKEND_PORT: String(backendPort) },
    log: join(tmp, "backend.log"),
  });
  await waitReady(`http://127.0.0.1:${backendPort}/ready`, backend);
  // The generated repository, served as is (the same files the file:// clone reads).
  const { symlinkSync } = await import("node:fs");
  symlinkSync(SRC, join(backendRoot, "src.git"));
  const backendUrl = (name: string) => `http://bench@127.0.0.1:${backendPort}/${name}.git`;
  console.log(`git http-backend on http://127.0.0.1:${backendPort}/ (pid ${backend.pid})`);

  /** hearth's repository config (src/git/repo-init.ts), for the http-backend push that isolates transport from it. */
  const HEARTH_REPO_CONFIG: [string, string][] = [
    ["core.fsync", "objects,derived-metadata,reference"],
    ["core.fsyncMethod", "fsync"],
    ["receive.fsckObjects", "true"],
  ];
  async function bareRepo(dir: string, cfg: [string, string][] = []) {
    rmSync(dir, { recursive: true, force: true });
    await git(["init", "--bare", "--quiet", "--initial-branch=main", dir]);
    for (const [k, v] of [["http.receivepack", "true"], ["gc.auto", "0"], ...cfg] as [string, string][]) await git(["config", k, v], dir);
  }

  const pushCmd = (url: string) => ["git", `--git-dir=${SRC}`, ...POST_BUFFER_ARGS, "push", "--quiet", url, ...REFSPECS];
  const cloneCmd = (url: string, dest: string) => ["git", ...POST_BUFFER_ARGS, "clone", "--bare", "--quiet", url, dest];
  /** The server side of a file:// clone or push: the upload-pack or receive-pack git starts, and what they start. */
  const FILE_SERVER = /upload-pack|receive-pack/;

  // --- push --------------------------------------------------------------------------------------------
  interface RepackInfo {
    /** From the end of the push to a single pack with a bitmap (a pack's or a multi-pack-index's) and no background git left, s. */
    afterPushS: number;
    /** How long the background git children ran, s (from first to last sighting). */
    repackS?: number;
    repackPeakKiB: number;
    /** What ran: `git repack`, `git multi-pack-index`. */
    kinds: string[];
    forced: boolean;
  }
  const pushes: Sample[] = [];
  const repacks: RepackInfo[] = [];
  const clones: Sample[] = [];
  const clonesDir = join(tmp, "clones");
  mkdirSync(clonesDir);
  const hearthClonesFrom = "big-1";
  const RIGHT_AFTER = "hearth, right after its push";

  /**
   * Waits for hearth's own work on `dir` after a push (a bitmap at once for a large pack, the
   * repack after a 30 s debounce), watching its git children; forces a repack if none comes.
   */
  async function waitForServerRepack(dir: string, pushEnded: number): Promise<RepackInfo> {
    let first: number | undefined;
    let last: number | undefined;
    let peak = 0;
    const kinds = new Set<string>();
    const until = performance.now() + O.repackWait * 1000;
    while (!isRepacked(dir) || descendants(hearth.pid).some((d) => BACKGROUND_GIT.test(cmdlineOf(d)))) {
      const table = processTable();
      const ds = descendants(hearth.pid, table);
      const rp = ds.filter((d) => BACKGROUND_GIT.test(cmdlineOf(d)));
      if (rp.length) {
        first ??= performance.now();
        last = performance.now();
        for (const d of rp) kinds.add(shortCmd(cmdlineOf(d)));
        // The repack and its pack-objects.
        const tree = [...rp, ...rp.flatMap((d) => descendants(d, table))];
        peak = Math.max(peak, tree.reduce((a, d) => a + (memStatus(d)?.rss ?? 0), 0));
      }
      if (performance.now() > until) {
        console.warn(`  hearth did not repack ${dir} within ${O.repackWait} s; running git repack -adb --write-bitmap-index`);
        await git(["repack", "-a", "-d", "-b", "-q", "--write-bitmap-index"], dir);
        return { afterPushS: (performance.now() - pushEnded) / 1000, repackPeakKiB: peak, kinds: [...kinds], forced: true };
      }
      await Bun.sleep(100);
    }
    return {
      afterPushS: (performance.now() - pushEnded) / 1000,
      repackS: first !== undefined ? (last! - first) / 1000 : undefined,
      repackPeakKiB: peak,
      kinds: [...kinds],
      forced: false,
    };
  }

  const pushTargets = ["file://", "git http-backend", "git http-backend + hearth's repo config", "hearth"] as const;
  console.log(`\npush (${O.pushRuns} round(s), order rotated each round)`);
  for (let r = 1; r <= O.pushRuns; r++) {
    const order = pushTargets.map((_, i) => pushTargets[(i + r - 1) % pushTargets.length]!);
    for (const t of order) {
      if (t === "file://") {
        const dir = join(tmp, `file-push-${r}.git`);
        await bareRepo(dir);
        pushes.push(await measured(t, "push", pushCmd(`file://${dir}`), { kind: "client", serverRoots: FILE_SERVER }));
        if (r === 1 && (await refsOf(dir)) !== srcRefs) throw new Error("file:// push: refs differ from the source");
        rmSync(dir, { recursive: true, force: true });
      } else if (t.startsWith("git http-backend")) {
        const name = t === "git http-backend" ? `push-${r}` : `pushcfg-${r}`;
        const dir = join(backendRoot, `${name}.git`);
        await bareRepo(dir, t === "git http-backend" ? [] : HEARTH_REPO_CONFIG);
        pushes.push(await measured(t, "push", pushCmd(backendUrl(name)), { kind: "server", pid: backend.pid }));
        if (r === 1 && (await refsOf(dir)) !== srcRefs) throw new Error(`${t} push: refs differ from the source`);
        rmSync(dir, { recursive: true, force: true });
      } else {
        const name = `big-${r}`;
        const url = await hearthCreateRepo(name);
        const dir = hearthRepoDir(name);
        const s = await measured(t, "push", pushCmd(url), { kind: "server", pid: hearth.pid }, { reap: false });
        const ended = performance.now();
        // What a user cloning right after the push gets: the clone starts at once, with whatever
        // hearth does after a push (a bitmap, a repack) running or not yet begun.
        const asPushed = packFiles(dir);
        const dest = join(clonesDir, `right-after-${r}.git`);
        const c = await measured(RIGHT_AFTER, "clone", cloneCmd(url, dest), { kind: "server", pid: hearth.pid }, { waitQuiet: false });
        clones.push(c);
        console.log(`    pack directory when that clone started: ${asPushed.join(", ")}`);
        if ((await refsOf(dest)) !== srcRefs) throw new Error(`${RIGHT_AFTER} clone: refs differ from the source`);
        rmSync(dest, { recursive: true, force: true });
        s.preReceiveMs = lastRequestMs(hearthLog, "/api/internal/hook/pre-receive");
        s.postReceiveMs = lastRequestMs(hearthLog, "/api/internal/hook/post-receive");
        console.log(`    hook requests: pre-receive ${fmt(s.preReceiveMs ?? NaN, 0)} ms, post-receive ${fmt(s.postReceiveMs ?? NaN, 0)} ms`);
        pushes.push(s);
        if ((await refsOf(dir)) !== srcRefs) throw new Error(`hearth push: refs in ${dir} differ from the source`);
        const rp = await waitForServerRepack(dir, ended);
        repacks.push(rp);
        console.log(
          `    bitmap in place and hearth's background git done ${fmt(rp.afterPushS, 0)} s after the push` +
            (rp.repackS !== undefined ? ` (${rp.kinds.join(", ")} ran ~${fmt(rp.repackS)} s, peak ${mibK(rp.repackPeakKiB)} MiB)` : "") +
            (rp.forced ? " (forced by the benchmark)" : ""),
        );
        if (name !== hearthClonesFrom) await hearthDeleteRepo(name);
      }
    }
  }

  // --- clone -------------------------------------------------------------------------------------------
  const HDIR = hearthRepoDir(hearthClonesFrom);
  const hearthPack = packBytes(HDIR);
  const hearthUrl = `http://bench:${token}@127.0.0.1:${hearthPort}/bench/${hearthClonesFrom}.git`;
  const cloneTargets = ["file://", "git http-backend", "hearth"] as const;
  console.log(`\nclone --bare (${O.runs} round(s), order rotated each round); hearth's copy: pack ${fmt(hearthPack / MiB)} MiB`);
  for (let r = 1; r <= O.runs; r++) {
    const order = cloneTargets.map((_, i) => cloneTargets[(i + r - 1) % cloneTargets.length]!);
    for (const t of order) {
      const dest = join(clonesDir, `${t.replace(/\W+/g, "-")}-${r}.git`);
      let s: Sample;
      if (t === "file://") {
        s = await measured(t, "clone", cloneCmd(`file://${SRC}`, dest), { kind: "client", serverRoots: FILE_SERVER });
      } else if (t === "git http-backend") {
        s = await measured(t, "clone", cloneCmd(backendUrl("src"), dest), { kind: "server", pid: backend.pid });
      } else {
        s = await measured(t, "clone", cloneCmd(hearthUrl, dest), { kind: "server", pid: hearth.pid });
      }
      if (r === 1 && (await refsOf(dest)) !== srcRefs) throw new Error(`${t} clone: refs differ from the source`);
      clones.push(s);
      rmSync(dest, { recursive: true, force: true });
    }
  }

  // --- wrap up ---------------------------------------------------------------------------------------
  const hearthEnd = memStatus(hearth.pid)!;
  const backendEnd = memStatus(backend.pid)!;
  await stop(backend);
  const hearthExit = await stop(hearth, 30_000);
  const logLines = [hearthLog, hearthLog + ".err"]
    .filter((f) => existsSync(f))
    .flatMap((f) => readFileSync(f, "utf8").split("\n"))
    .filter((l) => l.trim() && !/^\S+ (DEBUG|INFO|TRACE) /.test(l));
  const backendErr = existsSync(join(tmp, "backend.log.err")) ? readFileSync(join(tmp, "backend.log.err"), "utf8").trim() : "";
  const totalMin = (performance.now() - t00) / 60_000;

  // --- report ----------------------------------------------------------------------------------------
  interface Agg {
    target: string;
    n: number;
    ms: number;
    min: number;
    max: number;
    mibps: number;
    clientCpu: number;
    serverSelf?: number;
    serverChild?: number;
    rootPeak?: number;
    rootAnonPeak?: number;
    treePeak: number;
    treeAnonPeak: number;
    childPeak: number;
    childPeakName: string;
    load: string;
    other: number;
    quiet: boolean;
  }
  const agg = (xs: Sample[], target: string, bytes: number): Agg => {
    const s = xs.filter((x) => x.target === target);
    const med = (f: (x: Sample) => number | undefined) => (s[0] && f(s[0]) !== undefined ? median(s.map((x) => f(x)!)) : undefined);
    const top = s.reduce((a, x) => (x.rss.childPeak > a.rss.childPeak ? x : a), s[0]!);
    const ms = med((x) => x.ms)!;
    return {
      target,
      n: s.length,
      ms,
      min: Math.min(...s.map((x) => x.ms)),
      max: Math.max(...s.map((x) => x.ms)),
      mibps: bytes / MiB / (ms / 1000),
      clientCpu: med((x) => x.clientCpuMs)!,
      serverSelf: med((x) => x.serverSelfCpuMs),
      serverChild: med((x) => x.serverChildCpuMs),
      rootPeak: s[0]!.rss.rootPeak !== undefined ? Math.max(...s.map((x) => x.rss.rootPeak!)) : undefined,
      rootAnonPeak: s[0]!.rss.rootAnonPeak !== undefined ? Math.max(...s.map((x) => x.rss.rootAnonPeak!)) : undefined,
      treePeak: Math.max(...s.map((x) => x.rss.treePeak)),
      treeAnonPeak: Math.max(...s.map((x) => x.rss.treeAnonPeak)),
      childPeak: top.rss.childPeak,
      childPeakName: top.rss.childPeakName,
      load: s.map((x) => `${x.load1Before.toFixed(2)}→${x.load1After.toFixed(2)}`).join(", "),
      other: Math.max(...s.map((x) => x.otherCpus)),
      quiet: s.every((x) => x.quiet),
    };
  };
  const cloneRows = [...cloneTargets, RIGHT_AFTER] as const;
  const C = Object.fromEntries(cloneRows.map((t) => [t, agg(clones, t, t.startsWith("hearth") ? hearthPack : PACK)])) as Record<(typeof cloneRows)[number], Agg>;
  const P = Object.fromEntries(pushTargets.map((t) => [t, agg(pushes, t, PACK)])) as Record<(typeof pushTargets)[number], Agg>;
  const ratio = (a: Agg, b: Agg) => `${fmt(a.ms / b.ms, 2)}×`;
  const cpuCell = (a: Agg) =>
    a.serverSelf !== undefined ? `${secs(a.serverSelf)} + ${secs(a.serverChild!)}` : `(in client)`;
  const rssCell = (a: Agg) => (a.rootPeak !== undefined ? `${mibK(a.rootPeak)} MiB (${mibK(a.rootAnonPeak!)} anon)` : "–");
  const rows = (xs: string[][]) => xs.map((r) => `| ${r.join(" | ")} |`).join("\n");
  const table = (aggs: Agg[], baseRow: Agg, httpRow: Agg) =>
    `| Server | Time (median) | min – max | MiB/s | vs file:// | vs http-backend | Client CPU | Server CPU: process + git children | Peak RSS, server process | Peak RSS, server incl. git | Largest git process | Load (1-min) before→after | Other CPUs (max) |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|
${rows(
  aggs.map((a) => [
    a.target.startsWith("hearth") ? `**${a.target}**` : a.target,
    secs(a.ms),
    `${secs(a.min)} – ${secs(a.max)}`,
    fmt(a.mibps),
    a === baseRow ? "1" : ratio(a, baseRow),
    a === httpRow ? "1" : ratio(a, httpRow),
    secs(a.clientCpu),
    cpuCell(a),
    rssCell(a),
    `${mibK(a.treePeak)} MiB (${mibK(a.treeAnonPeak)} anon)`,
    `${a.childPeakName} ${mibK(a.childPeak)} MiB`,
    a.load + (a.quiet ? "" : " (busy)"),
    fmt(a.other, 2),
  ]),
)}`;

  const cpuModel = /^model name\s*:\s*(.*)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpus()[0]?.model ?? "?";
  const cmdLine = `bun bench/transport.ts${argv.length ? " " + argv.join(" ") : ""}`;
  const hc = C.hearth;
  const hp = P.hearth;
  const kinds = [...new Set(repacks.flatMap((r) => r.kinds))];
  const repackLine = repacks.length
    ? `After each push the repository had a bitmap and hearth's background git (${kinds.length ? kinds.map((k) => `\`${k}\``).join(", ") : "none seen"}) was done ${repacks.map((r) => `${fmt(r.afterPushS, 0)} s`).join(", ")} after the push ended` +
      (repacks.some((r) => r.repackS !== undefined) ? ` (it ran ~${repacks.filter((r) => r.repackS !== undefined).map((r) => fmt(r.repackS!)).join(", ")} s, peak ${mibK(Math.max(...repacks.map((r) => r.repackPeakKiB)))} MiB)` : "") +
      (repacks.some((r) => r.forced) ? "; at least once it did not, and the benchmark ran the repack itself" : "") +
      `; the "${RIGHT_AFTER}" clone ran meanwhile, every other measurement after it.`
    : "";

  const hookSamples = pushes.filter((x) => x.target === "hearth" && x.postReceiveMs !== undefined);
  const postMs = hookSamples.length ? median(hookSamples.map((x) => x.postReceiveMs!)) : undefined;
  const preMs = hookSamples.length ? median(hookSamples.map((x) => x.preReceiveMs ?? NaN)) : undefined;
  const interp = [
    `Cloning ${fmt(PACK / MiB, 0)} MiB through hearth takes ${secs(hc.ms)}, ${fmt(hc.ms / C["file://"].ms, 2)}× the \`file://\` clone (the physical limit: ` +
      `the same client and pack-objects talking over pipes) and ${fmt(hc.ms / C["git http-backend"].ms, 2)}× \`git http-backend\` behind a minimal Bun CGI host; ` +
      `hearth's own process spent ${secs(hc.serverSelf!)} of CPU relaying the pack (the CGI host ${secs(C["git http-backend"].serverSelf!)}), ` +
      `and its resident memory peaked at ${mibK(hc.rootPeak!)} MiB (${mibK(hearthIdle.rss)} MiB idle), with ${mibK(hc.treePeak)} MiB for hearth and its git children together.`,
    `Pushing takes ${secs(hp.ms)} through hearth against ${secs(P["file://"].ms)} for \`file://\` (${fmt(hp.ms / P["file://"].ms, 2)}×) and ${secs(P["git http-backend"].ms)} for http-backend ` +
      `(${fmt(hp.ms / P["git http-backend"].ms, 2)}×); with hearth's repository config (\`receive.fsckObjects\`, \`core.fsync\`) http-backend takes ${secs(P["git http-backend + hearth's repo config"].ms)}, ` +
      `so ${fmt(((hp.ms - P["git http-backend + hearth's repo config"].ms) / hp.ms) * 100, 0)}% of hearth's push time is neither git nor that config` +
      (postMs !== undefined
        ? `: the post-receive hook's request to the server alone took ${secs(postMs)} (median), while hearth's process used ${secs(hp.serverSelf!)} of CPU and peaked at ${mibK(hp.rootPeak!)} MiB resident (${mibK(hp.rootAnonPeak!)} MiB anonymous) against ${mibK(P["git http-backend"].rootPeak!)} MiB for the CGI host.`
        : "."),
    `Right after its push, a clone from hearth takes ${secs(C[RIGHT_AFTER].ms)}: ${fmt(C[RIGHT_AFTER].ms / C["file://"].ms, 2)}× the \`file://\` clone and ${fmt(C[RIGHT_AFTER].ms / hc.ms, 2)}× a clone once hearth's work after the push is done; ` +
      `hearth and its git children held at most ${mibK(C[RIGHT_AFTER].treeAnonPeak)} MiB of anonymous memory meanwhile (${mibK(C[RIGHT_AFTER].treePeak)} MiB resident with the mapped pack; largest git process: ${C[RIGHT_AFTER].childPeakName} ${mibK(C[RIGHT_AFTER].childPeak)} MiB), ` +
      `against ${mibK(C["git http-backend"].treeAnonPeak)} MiB for http-backend and its git serving the generated repository (which has a bitmap). Its server CPU includes whatever hearth ran after the push and reaped during the clone.`,
  ];

  const section = `<!-- transport:begin (written by bench/transport.ts; rerunning it replaces this section) -->
## Git transport: push and clone of a ${fmt(PACK / MiB, 0)} MiB repository

Generated by \`bench/transport.ts\`; see [README.md](README.md#git-transport-benchtransportts).

- **Date:** ${started.toISOString()} (${fmt(totalMin, 0)} min)
- **Command:** \`${cmdLine}\`
- **Machine:** ${availableParallelism()} CPUs (nproc), ${cpuModel}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Linux ${release()}; ${gitVersion}; Bun ${Bun.version}
- **hearth:** ${hearthVersion}, git ${gitHead}, dist/hearth built ${hearthStat.mtime.toISOString()}${buildNote ? ` (${buildNote})` : ""}
- **Repository:** ${gen.commits.toLocaleString("en-US")} commits on ${O.branches + 1} branches, ${O.tags} annotated tags, ${gen.objects.toLocaleString("en-US")} objects, one pack of ${fmt(PACK / MiB)} MiB with a bitmap ` +
    `(\`git fast-import\` of pseudo-random blobs plus text edits, bench/gen-repo.ts, cached as \`bench/.work/${cacheName(params)}\`); hearth's copy after its repack: ${fmt(hearthPack / MiB)} MiB
- **Clients:** \`git clone --bare\` and \`git push URL 'refs/heads/*:refs/heads/*' 'refs/tags/*:refs/tags/*'\` with ${O.postBuffer ? `\`-c http.postBuffer=${O.postBuffer}\`` : "git's default \`http.postBuffer\` (1 MiB: the push streams its pack as git makes it)"}, protocol v2 for fetch; hearth URLs carry the access token as the basic-auth password
- **Runs:** ${O.runs} clone round(s), ${O.pushRuns} push round(s), order rotated each round; before each measurement \`sync\`, then a wait until the 1-minute load was below ${O.quietLoad} and the last 2 s nearly idle (up to ${O.quietWait} s)

### Clone (\`git clone --bare\`, all refs)

${table(cloneRows.map((t) => C[t]), C["file://"], C["git http-backend"])}

### Push (every branch and tag into an empty repository)

${table(pushTargets.map((t) => P[t]), P["file://"], P["git http-backend"])}

MiB/s is the pack size over the median time. Server CPU is the Bun process's own user + system time (hearth, or the CGI host) plus what its reaped git children used
(\`/proc/PID/stat\` utime/stime and cutime/cstime); for \`file://\` the client's figure includes upload-pack or receive-pack. Peak RSS is sampled every 20 ms:
the server process's VmRSS, the sum of VmRSS over it and its git descendants (for \`file://\`, the server-side git processes under the client), and the largest VmHWM of one git process;
"anon" is the RssAnon part (heap), the rest being mapped files, mostly the pack git mmaps (shared with the page cache).
"Other CPUs" is machine busy time (\`/proc/stat\`) minus the client, the server and this script, over the wall time: other tenants of the machine.
"git http-backend + hearth's repo config" pushes into a repository with hearth's \`receive.fsckObjects=true\` and \`core.fsync\` settings (src/git/repo-init.ts), but no hooks.
${postMs !== undefined ? `hearth's request log puts the hooks' calls back into the server at ${fmt(preMs!, 0)} ms (pre-receive) and ${fmt(postMs, 0)} ms (post-receive), medians; git waits for both before it reports the push done.\n` : ""}"${RIGHT_AFTER}" clones the repository just pushed (one per push round), starting as soon as the push returned, without the quiet-machine wait. ${repackLine}
hearth's process: ${mibK(hearthIdle.rss)} MiB idle after start, ${mibK(hearthEnd.rss)} MiB resident and a lifetime peak (VmHWM) of ${mibK(hearthEnd.hwm)} MiB at the end; the CGI host's peak was ${mibK(backendEnd.hwm)} MiB.

${interp.join("\n\n")}
${
  logLines.length || backendErr
    ? `\nServer output at warn and above:\n\n\`\`\`\n${[...logLines.slice(0, 15), ...(backendErr ? backendErr.split("\n").slice(0, 5) : [])].join("\n")}\n\`\`\`\n`
    : `\nhearth logged nothing at warn or above during the run and exited with code ${hearthExit} on SIGTERM.\n`
}<!-- transport:end -->
`;

  if (O.write) {
    writeResultsSection("transport", section);
    console.log(`\nwrote the "Git transport" section of ${relative(ROOT, RESULTS_PATH)}`);
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
  await Promise.all([...children].map((p) => stop(p, 5000)));
  cleanupSync();
}
