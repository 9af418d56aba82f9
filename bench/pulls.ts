/**
 * Pull request benchmark (see bench/README.md, "Pull requests"): a pull request touching 2,000
 * files over 10 commits, against a base branch that moved on (so merging is a real three-way
 * merge, 200 files merged line by line), served by `dist/hearth web`; each API operation is timed
 * against the same information computed directly with the git CLI on the same repository, in the
 * same run, alternating, on 127.0.0.1 only.
 *
 *   bun bench/pulls.ts [--rounds 7] [--files 2000] [--commits 10] [--base-files 4000]
 *                      [--quiet-wait 30] [--rebuild] [--keep] [--no-write | --write] [--quick]
 *
 * --quick is a smoke run (400 files, 2 rounds) that prints instead of writing bench/RESULTS.md.
 * Every child process is killed when the script ends, also on error or Ctrl-C.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, release, tmpdir, totalmem } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { prng } from "./gen-repo.ts";
import { CLK_TCK, freePort, machineBusyMs, median, waitQuiet } from "./lib/measure.ts";
import { benchArgs } from "./lib/args.ts";
import { RESULTS_PATH, writeResultsSection } from "./lib/results.ts";

// ---------------------------------------------------------------------------------------------
// Options

const ROOT = resolve(import.meta.dir, "..");
const DIST_HEARTH = join(ROOT, "dist", "hearth");
const argv = process.argv.slice(2);
const args = benchArgs(argv);
const { flag } = args;
const opt = args.integer;
args.helpFrom(import.meta.path);
const QUICK = flag("quick");
const O = {
  rounds: opt("rounds", QUICK ? 2 : 7),
  files: opt("files", QUICK ? 400 : 2000),
  commits: opt("commits", QUICK ? 2 : 10),
  baseFiles: opt("base-files", QUICK ? 1000 : 4000),
  quietWait: opt("quiet-wait", QUICK ? 5 : 30),
  rebuild: flag("rebuild"),
  keep: flag("keep"),
  write: flag("write") || (!QUICK && !flag("no-write")),
};
// Per commit: 85% modified, 12.5% added, 2.5% deleted (or renamed): whole numbers of files.
if (O.files % (O.commits * 40) !== 0) throw new Error("--files must be a multiple of 40 × --commits");
/** Other processes keeping more CPUs than this busy during a sample get it measured again. */
const NOISY = 0.25;

// ---------------------------------------------------------------------------------------------
// Child processes: everything spawned is tracked and killed (with its descendants) on the way out.

type Child = ReturnType<typeof Bun.spawn>;
const children = new Set<Child>();
const tempDirs: string[] = [];
const GIT_ENV: Record<string, string> = { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" };

function spawn(cmd: string[], opts: { env?: Record<string, string>; log?: string } = {}): Child {
  const p = Bun.spawn(cmd, {
    cwd: ROOT,
    env: { ...process.env, ...opts.env },
    stdin: "ignore",
    stdout: (opts.log ? Bun.file(opts.log) : "ignore") as "ignore",
    stderr: (opts.log ? Bun.file(opts.log + ".err") : "ignore") as "ignore",
  });
  children.add(p);
  p.exited.then(() => children.delete(p));
  return p;
}

interface RunResult {
  stdout: Buffer;
  stderr: string;
  /** CPU of the process and its reaped children, ms. */
  cpuMs: number;
}

async function run(cmd: string[], opts: { env?: Record<string, string>; input?: string | Uint8Array; cwd?: string; ok?: number[] } = {}): Promise<RunResult> {
  const p = Bun.spawn(cmd, {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env },
    stdin: opts.input !== undefined ? new Blob([opts.input]) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  children.add(p);
  const timer = setTimeout(() => p.kill("SIGKILL"), 600_000);
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).arrayBuffer(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  children.delete(p);
  if (!(opts.ok ?? [0]).includes(code)) throw new Error(`${cmd.join(" ")} exited ${code ?? p.signalCode}\n${stderr}`);
  return { stdout: Buffer.from(stdout), stderr, cpuMs: Number(p.resourceUsage()?.cpuTime.total ?? 0n) / 1000 };
}

const git = (gitDir: string, args: string[], opts: { env?: Record<string, string>; input?: string | Uint8Array; cwd?: string; ok?: number[] } = {}) =>
  run(["git", `--git-dir=${gitDir}`, ...args], { ...opts, env: { ...GIT_ENV, ...opts.env } });
const gitText = async (gitDir: string, args: string[], opts: Parameters<typeof git>[2] = {}) => (await git(gitDir, args, opts)).stdout.toString("utf8").trim();

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


function processTable(): Map<number, number> {
  const m = new Map<number, number>();
  for (const e of readdirSync("/proc")) {
    const c = e.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    try {
      const s = readFileSync(`/proc/${e}/stat`, "latin1");
      m.set(Number(e), Number(s.slice(s.lastIndexOf(")") + 2).split(" ", 3)[1]));
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
  while (stack.length) for (const k of kids.get(stack.pop()!) ?? []) out.push(k), stack.push(k);
  return out;
}
function cmdlineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").filter(Boolean).join(" ");
  } catch {
    return "";
  }
}
/** KiB. */
function memStatus(pid: number): { rss: number; hwm: number; anon: number } | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/status`, "latin1");
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, "m").exec(s)?.[1] ?? 0);
    return { rss: kb("VmRSS"), hwm: kb("VmHWM"), anon: kb("RssAnon") };
  } catch {
    return undefined;
  }
}
/** CPU of a process, ms: its own, and its reaped descendants'. */
function procCpu(pid: number): { self: number; children: number } {
  const s = readFileSync(`/proc/${pid}/stat`, "latin1");
  const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
  const t = (i: number) => (Number(f[i]) * 1000) / CLK_TCK;
  return { self: t(11) + t(12), children: t(13) + t(14) };
}


// ---------------------------------------------------------------------------------------------
// Helpers

const fmt = (n: number, d = 1) => n.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });
const ms = (x: number) => (x >= 1000 ? `${fmt(x / 1000, 2)} s` : `${fmt(x, x < 10 ? 2 : 1)} ms`);
const mibK = (kib: number) => fmt(kib / 1024, 1);

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

// ---------------------------------------------------------------------------------------------
// The repository, written with `git fast-import`: same options, same object ids.

interface Shape {
  main0: string;
  main: string;
  feature: string;
  /** Files the pull request changes: modified, added, deleted, renamed (exact). */
  modified: number;
  added: number;
  deleted: number;
  renamed: number;
  /** Files the base branch changed after the fork, and how many of them the pull request changes too (other lines). */
  baseChanged: number;
  overlap: number;
}

const WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega".split(" ");

async function generate(dir: string): Promise<Shape> {
  const rnd = prng(6);
  const word = () => WORDS[Math.floor(rnd() * WORDS.length)]!;
  const line = (i: number) => `${i}: ${Array.from({ length: 8 }, word).join(" ")}`;
  const pathOf = (i: number) => `pkg/d${String(Math.floor(i / 50)).padStart(3, "0")}/file${String(i).padStart(5, "0")}.txt`;
  const files = new Map<string, string[]>();
  for (let i = 0; i < O.baseFiles; i++) files.set(pathOf(i), Array.from({ length: 60 }, (_, j) => line(j)));

  const chunks: string[] = [];
  let mark = 0;
  let time = 1_700_000_000;
  const commit = (branch: string, message: string, from: string | undefined, ops: string[]) => {
    mark++;
    time += 60;
    chunks.push(
      `commit refs/heads/${branch}\nmark :${mark}\nauthor Bench <bench@example.com> ${time} +0000\ncommitter Bench <bench@example.com> ${time} +0000\n` +
        `data ${Buffer.byteLength(message)}\n${message}\n${from ? `from ${from}\n` : ""}${ops.join("")}\n`,
    );
    return `:${mark}`;
  };
  const put = (path: string, lines: string[]) => {
    const body = lines.join("\n") + "\n";
    return `M 100644 inline ${path}\ndata ${Buffer.byteLength(body)}\n${body}\n`;
  };

  const root = commit("main", "Initial import", undefined, [...files].map(([p, l]) => put(p, l)));

  // The pull request's file choice: a shuffled order of the base files.
  const order = Array.from({ length: O.baseFiles }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const perCommit = O.files / O.commits;
  const mods = perCommit * 0.85;
  const adds = perCommit * 0.125;
  const dels = perCommit * 0.025; // deletions in the first half of the commits, exact renames in the second
  const modifiedList = order.slice(0, mods * O.commits);
  const deletedList = order.slice(mods * O.commits, mods * O.commits + dels * O.commits);
  const baseOnly = order.slice(mods * O.commits + dels * O.commits, mods * O.commits + dels * O.commits + O.files / 20);
  if (baseOnly.length < O.files / 20) throw new Error("--base-files too small for --files");
  const overlap = modifiedList.slice(0, O.files / 10);

  // Feature: edits lines 10-12 of each modified file and appends one; adds files; deletes or renames a few.
  let from = root;
  let added = 0;
  for (let c = 0; c < O.commits; c++) {
    const ops: string[] = [];
    for (const i of modifiedList.slice(c * mods, (c + 1) * mods)) {
      const l = [...files.get(pathOf(i))!];
      for (const j of [10, 11, 12]) l[j] = `${j}: feature ${c} ${word()} ${word()}`;
      l.push(`feature line ${c}`);
      ops.push(put(pathOf(i), l));
    }
    for (let k = 0; k < adds; k++, added++) ops.push(put(`pkg/new/d${String(Math.floor(added / 25)).padStart(2, "0")}/added${added}.txt`, Array.from({ length: 40 }, (_, j) => line(j))));
    for (const i of deletedList.slice(c * dels, (c + 1) * dels)) {
      ops.push(`D ${pathOf(i)}\n`);
      if (c >= O.commits / 2) ops.push(put(pathOf(i).replace("/file", "/moved"), files.get(pathOf(i))!));
    }
    from = commit("feature", `Feature part ${c + 1}\n\nTouches ${perCommit} files.`, from, ops);
  }

  // Base after the fork: files the request leaves alone, and files it changes too (lines 40-42).
  from = root;
  const baseList = [...baseOnly, ...overlap];
  const baseCommits = 3;
  for (let c = 0; c < baseCommits; c++) {
    const ops: string[] = [];
    for (const i of baseList.slice((c * baseList.length) / baseCommits, ((c + 1) * baseList.length) / baseCommits)) {
      const l = [...files.get(pathOf(i))!];
      for (const j of [40, 41, 42]) l[j] = `${j}: base ${c} ${word()}`;
      ops.push(put(pathOf(i), l));
    }
    from = commit("main", `Base change ${c + 1}`, from, ops);
  }
  chunks.push(`reset refs/tags/main0\nfrom ${root}\n\n`);

  await run(["git", "init", "--bare", "--quiet", "--initial-branch=main", dir], { env: GIT_ENV });
  await git(dir, ["fast-import", "--quiet"], { input: chunks.join("") });
  await git(dir, ["repack", "-adq"]);
  const half = Math.ceil(O.commits / 2);
  return {
    main0: await gitText(dir, ["rev-parse", "main0"]),
    main: await gitText(dir, ["rev-parse", "main"]),
    feature: await gitText(dir, ["rev-parse", "feature"]),
    modified: modifiedList.length,
    added: adds * O.commits,
    deleted: dels * half,
    renamed: dels * (O.commits - half),
    baseChanged: baseList.length,
    overlap: overlap.length,
  };
}

// ---------------------------------------------------------------------------------------------
// Samples

interface Sample {
  ms: number;
  /** hearth: the server's own CPU and its reaped git children's; baseline: the git processes'. */
  cpuMs: number;
  gitCpuMs?: number;
  /** hearth only, KiB: the server's VmRSS peak during the sample, and server + git children. */
  rssPeak?: number;
  treePeak?: number;
  /** Requests made (the whole-list walk makes several). */
  requests?: number;
  otherCpus: number;
  /** Other processes or a background repack were busy during it (a non-repeatable sample is kept anyway; the caller decides). */
  disturbed?: boolean;
}

let hearthPid = 0;
let hearthPeakKiB = 0;
let treePeakKiB = 0;
/** A background repack or check seen during a sample makes it void. */
const serverBusyNames = /repack|pack-objects|gc/;

/**
 * hearth's git children that do work for a request or in the background; the cat-file process
 * it keeps open between requests (closed after 10 s idle, src/git/catfile.ts) is not one.
 */
function hearthChildren(): number[] {
  return descendants(hearthPid).filter((d) => !/cat-file --batch/.test(cmdlineOf(d)));
}

async function serverQuiet(): Promise<void> {
  const until = performance.now() + 120_000;
  while (hearthChildren().length && performance.now() < until) await Bun.sleep(50);
}

/**
 * Runs `fn` as one sample: wall time, CPU (hearth: from /proc; baseline: returned by fn), memory
 * sampled every 10 ms, and the CPU other processes used meanwhile. A sample during which other
 * processes kept more than NOISY CPUs busy, or hearth repacked, is taken again (up to 3 times).
 */
async function sample(kind: "hearth" | "git", fn: () => Promise<{ cpuMs?: number; requests?: number }>, repeatable = true): Promise<Sample> {
  for (let attempt = 0; ; attempt++) {
    await serverQuiet();
    let rssPeak = 0;
    let treePeak = 0;
    let busyServer = false;
    const probe = () => {
      const m = memStatus(hearthPid);
      if (!m) return;
      let sum = m.rss;
      for (const d of hearthChildren()) {
        if (serverBusyNames.test(cmdlineOf(d))) busyServer = true;
        sum += memStatus(d)?.rss ?? 0;
      }
      rssPeak = Math.max(rssPeak, m.rss);
      treePeak = Math.max(treePeak, sum);
    };
    const timer = setInterval(probe, 10);
    const busy0 = machineBusyMs();
    const me0 = process.cpuUsage();
    const cpu0 = procCpu(hearthPid);
    const t0 = performance.now();
    let r: Awaited<ReturnType<typeof fn>>;
    try {
      r = await fn();
    } catch (err) {
      clearInterval(timer);
      throw err;
    }
    const wall = performance.now() - t0;
    if (kind === "hearth") {
      // Let the server reap its git children so their CPU shows in cutime/cstime.
      const until = performance.now() + 2000;
      while (hearthChildren().length && performance.now() < until) await Bun.sleep(5);
    }
    clearInterval(timer);
    probe();
    const cpu1 = procCpu(hearthPid);
    const me = process.cpuUsage(me0);
    const self = cpu1.self - cpu0.self;
    const kids = cpu1.children - cpu0.children;
    const ours = (me.user + me.system) / 1000 + (r.cpuMs ?? 0) + self + kids;
    const otherCpus = Math.max(0, machineBusyMs() - busy0 - ours) / Math.max(wall, 10);
    hearthPeakKiB = Math.max(hearthPeakKiB, rssPeak);
    treePeakKiB = Math.max(treePeakKiB, treePeak);
    const s: Sample =
      kind === "hearth"
        ? { ms: wall, cpuMs: self + kids, gitCpuMs: kids, rssPeak, treePeak, requests: r.requests, otherCpus }
        : { ms: wall, cpuMs: r.cpuMs ?? 0, otherCpus };
    // The CPU accounting has 10 ms ticks: below ~50 ms of wall time "other" is noise; judge long samples only.
    const noisy = wall > 50 && otherCpus > NOISY;
    s.disturbed = noisy || busyServer;
    if (!s.disturbed || !repeatable || attempt >= 3) return s;
    await waitQuiet(O.quietWait * 1000);
  }
}

// ---------------------------------------------------------------------------------------------
// Main

async function main() {
  const started = new Date();
  const t00 = performance.now();
  const gitVersion = (await run(["git", "--version"])).stdout.toString().trim();

  // --- dist/hearth -----------------------------------------------------------------------------
  let buildNote = "";
  const srcNewer = () => existsSync(DIST_HEARTH) && newestMtime(join(ROOT, "src")) > statSync(DIST_HEARTH).mtimeMs;
  if (O.rebuild || !existsSync(DIST_HEARTH) || srcNewer()) {
    console.log("building dist/hearth (npm run build) ...");
    try {
      await run(["npm", "run", "build"]);
      buildNote = "built from the working tree by this run";
    } catch (err) {
      if (!existsSync(DIST_HEARTH)) throw err;
      console.warn(`  build failed; using the existing dist/hearth: ${(err as Error).message.split("\n")[0]}`);
      buildNote = "build failed, an older dist/hearth was measured";
    }
  }
  const tmp = mkdtempSync(join(tmpdir(), "hearth-pulls-"));
  tempDirs.push(tmp);
  console.log(`work dir ${tmp}${O.keep ? " (kept)" : ""}`);
  const HEARTH = join(tmp, "hearth-bin");
  copyFileSync(DIST_HEARTH, HEARTH);
  chmodSync(HEARTH, 0o755);
  const hearthBuilt = statSync(DIST_HEARTH).mtime.toISOString();
  const hearthVersion = (await run([HEARTH, "--version"])).stdout.toString().trim();
  let gitHead = "?";
  try {
    gitHead = (await run(["git", "rev-parse", "--short", "HEAD"])).stdout.toString().trim();
    if ((await run(["git", "status", "--porcelain", "--", "src"])).stdout.toString().trim()) gitHead += " (src/ has uncommitted changes)";
  } catch {}

  // --- the repository -----------------------------------------------------------------------------
  const SRC = join(tmp, "src.git");
  const g0 = performance.now();
  const shape = await generate(SRC);
  console.log(`generated ${O.baseFiles} base files, a ${O.commits}-commit branch touching ${O.files} files, in ${ms(performance.now() - g0)}`);

  // --- hearth ----------------------------------------------------------------------------------------
  const port = freePort();
  const work = join(tmp, "hearth");
  const config = join(work, "custom", "conf", "app.ini");
  mkdirSync(dirname(config), { recursive: true });
  writeFileSync(config, ["[server]", "HTTP_ADDR = 127.0.0.1", `HTTP_PORT = ${port}`, "DOMAIN = 127.0.0.1", "", "[log]", "LEVEL = warn", ""].join("\n"));
  const env = { HEARTH_WORK_DIR: work };
  await run([HEARTH, "admin", "user", "create", "--username", "bench", "--password", "benchpass123", "--email", "b@example.com", "--admin", "--must-change-password=false", "--config", config], { env });
  const token = (await run([HEARTH, "admin", "user", "generate-access-token", "--username", "bench", "--raw", "--config", config], { env })).stdout.toString().trim();
  const base = `http://127.0.0.1:${port}`;
  const log = join(tmp, "hearth-web.log");
  const hearth = spawn([HEARTH, "web", "--config", config, "--port", String(port)], { env, log });
  hearthPid = hearth.pid;
  for (const t0 = performance.now(); ; ) {
    try {
      if ((await fetch(`${base}/api/v1/version`)).status === 200) break;
    } catch {}
    if (hearth.exitCode !== null) throw new Error("hearth exited before it answered");
    if (performance.now() - t0 > 60_000) throw new Error("hearth not ready after 60 s");
    await Bun.sleep(20);
  }
  const idle = memStatus(hearth.pid)!;
  console.log(`${hearthVersion} on ${base} (pid ${hearth.pid}, ${mibK(idle.rss)} MiB)`);

  const api = async (method: string, path: string, body?: unknown): Promise<Response> =>
    fetch(`${base}/api/v1${path}`, {
      method,
      headers: { Authorization: `token ${token}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  const apiOk = async (method: string, path: string, status: number, body?: unknown) => {
    const r = await api(method, path, body);
    const text = await r.text();
    if (r.status !== status) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 500)}`);
    return { r, text };
  };

  await apiOk("POST", "/user/repos", 201, { name: "pr" });
  const DIR = join(work, "data", "repositories", "bench", "pr.git");
  const pushUrl = `http://bench:${token}@127.0.0.1:${port}/bench/pr.git`;
  await git(SRC, ["push", "--quiet", pushUrl, "refs/heads/main:refs/heads/main", "refs/heads/feature:refs/heads/feature"]);
  // hearth repacks 30 s after the last push: wait for it, so the measurements see the steady state.
  console.log("waiting for hearth's repack after the push ...");
  for (const t0 = performance.now(); performance.now() - t0 < 90_000; await Bun.sleep(200)) {
    const packs = readdirSync(join(DIR, "objects", "pack"));
    if (packs.some((f) => f.endsWith(".bitmap")) && !hearthChildren().length) break;
  }
  const resetBase = () => git(SRC, ["push", "--quiet", "--force", pushUrl, `${shape.main}:refs/heads/main`]);

  let pr = Number(JSON.parse((await apiOk("POST", "/repos/bench/pr/pulls", 201, { head: "feature", base: "main", title: "Big change" })).text).number);
  const mergeBase = await gitText(DIR, ["merge-base", shape.main, shape.feature]);

  // --- the git CLI baselines, on hearth's own repository (read-only) ---------------------------------
  const gitFiles = async () => {
    const mb = await git(DIR, ["merge-base", "refs/heads/main", `refs/pull/${pr}/head`]);
    const from = mb.stdout.toString().trim();
    const [names, stats] = await Promise.all([
      git(DIR, ["diff", "--name-status", "-z", "-M", from, shape.feature]),
      git(DIR, ["diff", "--numstat", "-z", "-M", from, shape.feature]),
    ]);
    return { cpuMs: mb.cpuMs + names.cpuMs + stats.cpuMs, names: names.stdout.toString(), stats: stats.stdout.toString() };
  };
  const gitCommits = async () => {
    const mb = await git(DIR, ["merge-base", "refs/heads/main", `refs/pull/${pr}/head`]);
    const range = `${mb.stdout.toString().trim()}..${shape.feature}`;
    const [numstat, names] = await Promise.all([
      git(DIR, ["log", "-z", "--format=%H%x00%T%x00%P%x00%an%x00%ae%x00%at%x00%cn%x00%ce%x00%ct%x00%B", "--numstat", "-M", range]),
      git(DIR, ["log", "-z", "--format=%H", "--name-status", "--no-renames", range]),
    ]);
    return { cpuMs: mb.cpuMs + numstat.cpuMs + names.cpuMs, out: numstat.stdout.toString() };
  };
  const gitDiff = async () => {
    const r = await git(DIR, ["diff", "-p", "-M", mergeBase, shape.feature]);
    return { cpuMs: r.cpuMs, body: r.stdout };
  };

  // --- correctness, once --------------------------------------------------------------------------
  const limit = 50;
  const pages = Math.ceil(O.files / limit);
  {
    const f = await gitFiles();
    const entries = f.names.split("\0").filter(Boolean).filter((x) => /^[ACDMRT]/.test(x) && x.length <= 4).length;
    if (entries !== O.files) throw new Error(`the generated request changes ${entries} files, not ${O.files}`);
    const all: { filename: string; status: string; additions: number }[] = [];
    for (let p = 1; p <= pages; p++) all.push(...JSON.parse((await apiOk("GET", `/repos/bench/pr/pulls/${pr}/files?limit=${limit}&page=${p}`, 200)).text));
    if (all.length !== O.files || new Set(all.map((x) => x.filename)).size !== O.files) throw new Error(`hearth listed ${all.length} files`);
    const stats = new Map<string, number>();
    for (const rec of f.stats.split("\0")) {
      const m = /^(\d+|-)\t(\d+|-)\t(.+)$/.exec(rec);
      if (m) stats.set(m[3]!, Number(m[1]));
    }
    const wrong = all.filter((x) => stats.has(x.filename) && stats.get(x.filename) !== x.additions);
    if (wrong.length) throw new Error(`hearth's additions differ from git's for ${wrong.length} files, e.g. ${wrong[0]!.filename}`);
    const commits = JSON.parse((await apiOk("GET", `/repos/bench/pr/pulls/${pr}/commits?limit=${limit}`, 200)).text) as { files?: unknown[]; stats?: { total: number } }[];
    if (commits.length !== O.commits || commits.some((c) => !c.files?.length || !c.stats?.total)) throw new Error("hearth's commit list lacks commits, files or stats");
    const diff = Buffer.from(await (await api("GET", `/repos/bench/pr/pulls/${pr}.diff`)).arrayBuffer());
    if (!diff.equals((await gitDiff()).body)) throw new Error(".diff differs from git diff -p -M");
    console.log(`checked: ${all.length} files, ${commits.length} commits, a ${fmt(diff.length / 2 ** 20)} MiB .diff identical to git's`);
  }

  // --- reads ------------------------------------------------------------------------------------------
  type Op = { name: string; hearth: () => Promise<{ requests?: number }>; git?: () => Promise<{ cpuMs: number }>; baseline?: string };
  const get = (path: string) => async () => {
    const r = await api("GET", path);
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`GET ${path}: ${r.status}`);
    return { requests: 1 };
  };
  const mid = Math.ceil(pages / 2);
  const filesBaseline = "`git merge-base` + `git diff --name-status -z -M` ∥ `git diff --numstat -z -M`";
  const reads: Op[] = [
    { name: `GET /pulls/{n}/files?limit=${limit} (page 1)`, hearth: get(`/repos/bench/pr/pulls/${pr}/files?limit=${limit}&page=1`), git: gitFiles, baseline: filesBaseline },
    { name: `… page ${mid} of ${pages}`, hearth: get(`/repos/bench/pr/pulls/${pr}/files?limit=${limit}&page=${mid}`), git: gitFiles, baseline: "the same" },
    { name: `… page ${pages + 1} (past the end, empty)`, hearth: get(`/repos/bench/pr/pulls/${pr}/files?limit=${limit}&page=${pages + 1}`), git: gitFiles, baseline: "the same" },
    {
      name: `every page, limit=${limit} (the maximum): ${pages} requests`,
      hearth: async () => {
        let n = 0;
        for (let p = 1; ; p++) {
          const r = await api("GET", `/repos/bench/pr/pulls/${pr}/files?limit=${limit}&page=${p}`);
          await r.arrayBuffer();
          n++;
          if (r.headers.get("X-HasMore") !== "true") break;
        }
        return { requests: n };
      },
      git: gitFiles,
      baseline: "the same, once",
    },
    {
      name: `GET /pulls/{n}/commits (files, stats, verification)`,
      hearth: get(`/repos/bench/pr/pulls/${pr}/commits?limit=${limit}`),
      git: gitCommits,
      baseline: "`git merge-base` + `git log --numstat -M` ∥ `git log --name-status --no-renames`",
    },
    { name: "GET /pulls/{n}.diff", hearth: get(`/repos/bench/pr/pulls/${pr}.diff`), git: gitDiff, baseline: "`git diff -p -M`" },
    { name: "GET /pulls/{n}", hearth: get(`/repos/bench/pr/pulls/${pr}`) },
  ];
  const readSamples = new Map<string, { hearth: Sample[]; git: Sample[] }>(reads.map((o) => [o.name, { hearth: [], git: [] }]));
  for (const o of reads) {
    await o.hearth();
    await o.git?.(); // warm-up: page cache, JIT
  }
  console.log(`\nreads: ${O.rounds} rounds, hearth and git alternating`);
  for (let round = 1; round <= O.rounds; round++) {
    if (!(await waitQuiet(O.quietWait * 1000))) console.warn("  machine busy; measuring anyway");
    for (const o of reads) {
      const s = readSamples.get(o.name)!;
      const order = round % 2 ? (["hearth", "git"] as const) : (["git", "hearth"] as const);
      for (const k of order) {
        if (k === "hearth") s.hearth.push(await sample("hearth", o.hearth));
        else if (o.git) s.git.push(await sample("git", o.git));
      }
      const h = s.hearth.at(-1)!;
      const g = s.git.at(-1);
      console.log(`  ${round} ${o.name.padEnd(58)} hearth ${ms(h.ms).padStart(9)} (CPU ${ms(h.cpuMs)}, RSS ${mibK(h.rssPeak!)} MiB)` + (g ? `   git ${ms(g.ms).padStart(9)} (CPU ${ms(g.cpuMs)})` : ""));
    }
  }

  // --- merges ----------------------------------------------------------------------------------------
  // Each round merges the same change: hearth's base branch is pushed back (`git push -f`) and the
  // request opened again; the baselines work in `git clone --bare --shared` of hearth's repository
  // (Gitea's temporary repositories are shared clones too), base reset with update-ref.
  const COPY = join(tmp, "copy.git");
  await run(["git", "clone", "--bare", "--shared", "--quiet", DIR, COPY], { env: GIT_ENV });
  await git(COPY, ["update-ref", "refs/heads/feature", shape.feature]);
  const expectedTree = (await gitText(COPY, ["merge-tree", "--write-tree", shape.main, shape.feature])).split("\n")[0]!;
  const ID = { GIT_AUTHOR_NAME: "bench", GIT_AUTHOR_EMAIL: "b@example.com", GIT_COMMITTER_NAME: "bench", GIT_COMMITTER_EMAIL: "b@example.com" };
  const copyReset = () => git(COPY, ["update-ref", "refs/heads/main", shape.main]);
  const sum = (rs: RunResult[]) => rs.reduce((a, r) => a + r.cpuMs, 0);

  /** What hearth does, by hand: merge-tree, commit-tree, a compare-and-swap of the branch. */
  const floorMerge = (squash: boolean) => async () => {
    const mt = await git(COPY, ["merge-tree", "--write-tree", "--name-only", "--no-messages", "-z", "refs/heads/main", "refs/heads/feature"]);
    const tree = mt.stdout.toString().split("\0")[0]!.trim();
    const parents = squash ? ["-p", shape.main] : ["-p", shape.main, "-p", shape.feature];
    const ct = await git(COPY, ["commit-tree", tree, ...parents], { input: "Merge\n", env: ID });
    const ur = await git(COPY, ["update-ref", "refs/heads/main", ct.stdout.toString().trim(), shape.main]);
    if (tree !== expectedTree) throw new Error("floor merge: unexpected tree");
    return { cpuMs: sum([mt, ct, ur]) };
  };
  /** A conventional merge, as Gitea does it: a temporary checkout, `git merge` / `git rebase` there, the branch moved. */
  const worktreeMerge = (style: string) => async () => {
    const wt = join(tmp, `wt-${style}`);
    const rs: RunResult[] = [];
    const w = (args: string[]) => run(["git", ...args], { cwd: wt, env: { ...GIT_ENV, ...ID } }).then((r) => (rs.push(r), r));
    rs.push(await git(COPY, ["worktree", "add", "--quiet", "--detach", wt, style.startsWith("rebase") ? shape.feature : shape.main]));
    if (style === "merge") await w(["merge", "--quiet", "--no-ff", "--no-edit", shape.feature]);
    else if (style === "squash") {
      await w(["merge", "--quiet", "--squash", shape.feature]);
      await w(["commit", "--quiet", "-m", "Squashed"]);
    } else {
      await w(["rebase", "--quiet", shape.main]);
      if (style === "rebase-merge") {
        const tip = (await w(["rev-parse", "HEAD"])).stdout.toString().trim();
        await w(["checkout", "--quiet", "--detach", shape.main]);
        await w(["merge", "--quiet", "--no-ff", "--no-edit", tip]);
      }
    }
    const head = (await w(["rev-parse", "HEAD"])).stdout.toString().trim();
    rs.push(await git(COPY, ["update-ref", "refs/heads/main", head, shape.main]));
    rs.push(await git(COPY, ["worktree", "remove", "--force", wt]));
    const tree = await gitText(COPY, ["rev-parse", `${head}^{tree}`]);
    if (tree !== expectedTree) throw new Error(`worktree ${style}: unexpected tree`);
    return { cpuMs: sum(rs) };
  };

  const STYLES = ["merge", "squash", "rebase", "rebase-merge"] as const;
  interface MergeRow {
    hearth: Sample[];
    open: Sample[];
    floor: Sample[];
    worktree: Sample[];
  }
  const merges = new Map<string, MergeRow>(STYLES.map((s) => [s, { hearth: [], open: [], floor: [], worktree: [] }]));
  const closeOpen = async () => {
    // The request of the read phase is still open: merge it away first, so every round opens a fresh one.
    await apiOk("POST", `/repos/bench/pr/pulls/${pr}/merge`, 200, { Do: "merge" });
  };
  await closeOpen();
  console.log(`\nmerges: ${O.rounds} rounds per style, hearth / merge-tree floor / worktree alternating`);
  for (const style of STYLES) {
    const row = merges.get(style)!;
    for (let round = 0; round <= O.rounds; round++) {
      if (round > 0 && !(await waitQuiet(O.quietWait * 1000))) console.warn("  machine busy; measuring anyway");
      const order = ["hearth", "floor", "worktree"].map((_, i, a) => a[(i + round) % a.length]!);
      for (const k of order) {
        if (k === "floor" && style.startsWith("rebase")) continue; // git 2.39 cannot rebase without a worktree
        let s: Sample;
        if (k === "hearth") {
          // Opening and merging change state, so a disturbed attempt is redone whole: base reset, open, merge.
          let open: Sample;
          for (let attempt = 0; ; attempt++) {
            await resetBase();
            await serverQuiet();
            open = await sample(
              "hearth",
              async () => {
                pr = Number(JSON.parse((await apiOk("POST", "/repos/bench/pr/pulls", 201, { head: "feature", base: "main", title: `Big change, ${style}` })).text).number);
                return { requests: 1 };
              },
              false,
            );
            s = await sample(
              "hearth",
              async () => {
                await apiOk("POST", `/repos/bench/pr/pulls/${pr}/merge`, 200, { Do: style });
                return { requests: 1 };
              },
              false,
            );
            if ((!open.disturbed && !s.disturbed) || attempt >= 3) break;
            await waitQuiet(O.quietWait * 1000);
          }
          const tip = await gitText(DIR, ["rev-parse", "refs/heads/main"]);
          const tree = await gitText(DIR, ["rev-parse", `${tip}^{tree}`]);
          if (tree !== expectedTree) throw new Error(`hearth ${style}: the merged tree differs from git merge-tree's`);
          if (round > 0) row.open.push(open);
        } else {
          for (let attempt = 0; ; attempt++) {
            await copyReset();
            s = await sample("git", k === "floor" ? floorMerge(style === "squash") : worktreeMerge(style), false);
            if (!s.disturbed || attempt >= 3) break;
            await waitQuiet(O.quietWait * 1000);
          }
        }
        if (round === 0) continue; // warm-up
        (row[k as keyof MergeRow] as Sample[]).push(s);
        console.log(`  ${round} ${style.padEnd(13)} ${k.padEnd(9)} ${ms(s.ms).padStart(9)} (CPU ${ms(s.cpuMs)}${s.rssPeak ? `, RSS ${mibK(s.rssPeak)} MiB` : ""})`);
      }
    }
  }

  // --- wrap up -------------------------------------------------------------------------------------------
  const end = memStatus(hearth.pid)!;
  const exit = await stop(hearth, 30_000);
  const logLines = [log, log + ".err"]
    .filter((f) => existsSync(f))
    .flatMap((f) => readFileSync(f, "utf8").split("\n"))
    .filter((l) => l.trim());
  const totalMin = (performance.now() - t00) / 60_000;

  // --- report -----------------------------------------------------------------------------------------
  const med = (xs: Sample[], f: (s: Sample) => number) => median(xs.map(f));
  const ratio = (h: Sample[], g: Sample[]) => {
    // Samples alternate, so pair them by round: the median of per-round ratios.
    const n = Math.min(h.length, g.length);
    return median(Array.from({ length: n }, (_, i) => h[i]!.ms / g[i]!.ms));
  };
  const x = (r: number) => `${fmt(r, r < 10 ? 2 : 1)}×`;
  const rows: string[] = [];
  for (const o of reads) {
    const s = readSamples.get(o.name)!;
    const hasGit = s.git.length > 0;
    rows.push(
      `| ${o.name} | ${ms(med(s.hearth, (x) => x.ms))} | ${ms(Math.min(...s.hearth.map((x) => x.ms)))} – ${ms(Math.max(...s.hearth.map((x) => x.ms)))} | ` +
        `${ms(med(s.hearth, (x) => x.cpuMs))} (${ms(med(s.hearth, (x) => x.gitCpuMs!))}) | ${mibK(Math.max(...s.hearth.map((x) => x.rssPeak!)))} MiB | ` +
        `${hasGit ? `${ms(med(s.git, (x) => x.ms))} | ${ms(med(s.git, (x) => x.cpuMs))} | **${x(ratio(s.hearth, s.git))}** | ${o.baseline}` : "– | – | – | –"} |`,
    );
  }
  const mrows: string[] = [];
  for (const style of STYLES) {
    const r = merges.get(style)!;
    const floor = r.floor.length ? r.floor : undefined;
    mrows.push(
      `| ${style} | ${ms(med(r.hearth, (x) => x.ms))} | ${ms(Math.min(...r.hearth.map((x) => x.ms)))} – ${ms(Math.max(...r.hearth.map((x) => x.ms)))} | ` +
        `${ms(med(r.hearth, (x) => x.cpuMs))} (${ms(med(r.hearth, (x) => x.gitCpuMs!))}) | ${mibK(Math.max(...r.hearth.map((x) => x.rssPeak!)))} MiB | ` +
        `${floor ? `${ms(med(floor, (x) => x.ms))} | **${x(ratio(r.hearth, floor))}**` : "– | –"} | ` +
        `${ms(med(r.worktree, (x) => x.ms))} | ${x(ratio(r.hearth, r.worktree))} | ${ms(med(r.open, (x) => x.ms))} |`,
    );
  }
  const R = (name: string) => readSamples.get(name)!;
  const p1 = R(reads[0]!.name);
  const walk = R(reads[3]!.name);
  const cpuModel = /^model name\s*:\s*(.*)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpus()[0]?.model ?? "?";
  const cmdLine = `bun bench/pulls.ts${argv.length ? " " + argv.join(" ") : ""}`;
  const m = merges.get("merge")!;
  const section = `<!-- pulls:begin (written by bench/pulls.ts; rerunning it replaces this section) -->
## Pull requests (${fmt(O.files, 0)} files)

Generated by \`bench/pulls.ts\`; see [README.md](README.md#pull-requests-benchpullsts).

- **Date:** ${started.toISOString()} (${fmt(totalMin, 0)} min)
- **Command:** \`${cmdLine}\`
- **Machine:** ${availableParallelism()} CPUs (nproc), ${cpuModel}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Linux ${release()}; ${gitVersion}; Bun ${Bun.version}
- **hearth:** ${hearthVersion}, git ${gitHead}, dist/hearth built ${hearthBuilt}${buildNote ? ` (${buildNote})` : ""}; \`dist/hearth web\`, \`[log] LEVEL = warn\`, the repository repacked by hearth after the push
- **Repository:** ${fmt(O.baseFiles, 0)} text files of 60 lines; the request: ${O.commits} commits of ${O.files / O.commits} files each, ${fmt(shape.modified, 0)} files modified (3 lines changed, 1 appended), ${shape.added} added, ${shape.deleted} deleted, ${shape.renamed} renamed unchanged (${fmt(O.files, 0)} entries with rename detection); the base branch moved on by 3 commits changing ${shape.baseChanged} files, ${shape.overlap} of which the request changes too (other lines), so every merge is a three-way merge with ${shape.overlap} files merged line by line
- **Runs:** ${O.rounds} rounds; in each, hearth and its baseline alternate (merges: hearth, the floor and the worktree merge rotate); medians reported, ratios are medians of the per-round ratios. A sample during which other processes kept more than ${NOISY} CPUs busy, or hearth ran a background repack, was taken again

### Reading the request

| Request | hearth (median) | min – max | hearth CPU (git children) | hearth RSS peak | git CLI (median) | git CPU | **hearth / git** | Baseline: the same information from the git CLI |
|---|---:|---:|---:|---:|---:|---:|---:|---|
${rows.join("\n")}

### Merging it (\`POST /pulls/{n}/merge\`)

Each round pushes hearth's base branch back to where it was (\`git push -f\`), opens the request again (last column) and merges it; the merged tree is checked against \`git merge-tree\`'s.
The floor is what hearth does, by hand: \`git merge-tree --write-tree\`, \`git commit-tree\`, \`git update-ref\` with the old value; the worktree merge is what Gitea does: a temporary checkout of the base (\`git worktree add\`, ${fmt(O.baseFiles, 0)} files), \`git merge --no-ff\` / \`git merge --squash\` + \`git commit\` / \`git rebase\` there, \`git update-ref\`, \`git worktree remove\`. Both run in a \`git clone --bare --shared\` of hearth's repository.

| Style | hearth (median) | min – max | hearth CPU (git children) | hearth RSS peak | merge-tree floor | **hearth / floor** | worktree merge | hearth / worktree | POST /pulls (open it) |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${mrows.join("\n")}

hearth CPU is the server process's user + system time plus its reaped git children's (\`/proc/PID/stat\`), git's in parentheses (without the \`git cat-file --batch-command\` hearth keeps open between requests, which is reaped later); RSS peak is the server process's VmRSS sampled every 10 ms.
hearth's process: ${mibK(idle.rss)} MiB idle after start; the highest VmRSS seen during a measurement ${mibK(hearthPeakKiB)} MiB (${mibK(treePeakKiB)} MiB with its git children); at the end ${mibK(end.rss)} MiB resident, lifetime peak (VmHWM) ${mibK(end.hwm)} MiB.

The file list: the first request for a range runs the whole diff (\`git diff --name-status\` and \`--numstat\` over all ${fmt(O.files, 0)} files) and hearth remembers the list for the last 16 ranges (keyed by commit ids, so it cannot go stale; src/services/pull/changed-paths-cache.ts); further pages and \`GET /pulls/{n}\` reuse it. A page then costs ${ms(med(p1.hearth, (x) => x.ms))} against ${ms(med(p1.git, (x) => x.ms))} for git computing the whole list, and reading every page (${walk.hearth[0]?.requests ?? pages} requests at the maximum \`limit\`, \`[api] MAX_RESPONSE_ITEMS\` = 50 as in Gitea) takes ${ms(med(walk.hearth, (x) => x.ms))}, ${x(ratio(walk.hearth, walk.git))} one git run. Gitea computes the whole diff for every page (its GetPullRequestFiles, \`MaxFiles: -1\`).
\`GET /pulls/{n}\` (${ms(med(R(reads[6]!.name).hearth, (x) => x.ms))}) takes \`changed_files\`, \`additions\` and \`deletions\` from the same remembered list.
A merge costs ${ms(med(m.hearth, (x) => x.ms))} against ${ms(med(m.floor, (x) => x.ms))} for the same three git commands by hand and ${ms(med(m.worktree, (x) => x.ms))} for a merge in a temporary checkout.
${
  logLines.length ? `\nServer output during the run:\n\n\`\`\`\n${logLines.slice(0, 15).join("\n")}\n\`\`\`\n` : `\nhearth logged nothing at warn or above during the run and exited with code ${exit} on SIGTERM.\n`
}<!-- pulls:end -->
`;
  if (O.write) {
    writeResultsSection("pulls", section);
    console.log(`\nwrote the "Pull requests" section of ${relative(ROOT, RESULTS_PATH)}`);
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
