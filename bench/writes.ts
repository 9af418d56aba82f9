/**
 * Write throughput (see bench/README.md, "Writes"): issue and comment creation through
 * `hearth web` with 8 requests in flight, against a bare Bun.serve + bun:sqlite server that inserts
 * one row per request with the same SQLite settings (bench/writes-floor.ts), in the same run.
 *
 *   1. hearth (`bun src/main.ts web`, a fresh work dir, an admin user and token made with
 *      `admin user create` / `admin user generate-access-token`) and the floors are started once;
 *   2. each round drives, for --seconds each, in rotating order: `POST /api/v1/repos/{o}/{r}/issues`,
 *      `POST /api/v1/repos/{o}/{r}/issues/{n}/comments` (round-robin over --comment-issues issues
 *      made for the round, so no issue grows to thousands of comments), and the
 *      floor's `POST` with synchronous=FULL and with synchronous=NORMAL, each with --inflight
 *      requests in flight from this process (a loop per slot: send, await the 201, send again);
 *   3. after each measurement the script waits until the server has gone idle (hearth's event
 *      worker hands every creation to notifications, webhooks and mail after the answer), so the
 *      server CPU per request counts all the work a creation causes.
 *
 * Creations/s are completed 201s over the time from the first request to the last answer; the
 * report gives medians over the rounds and hearth / floor as the median of per-round ratios.
 *
 *   bun bench/writes.ts [--rounds 5] [--seconds 5] [--inflight 8] [--warmup 2] [--quiet-wait 20]
 *                       [--comment-issues 100] [--label after] [--tree DIR] [--compare DIR] [--no-write] [--keep]
 *                       [--cpu-prof DIR]
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { machineBusyMs, median, processCpuMs, waitQuiet } from "./lib/measure.ts";
import { Cleanup, stop, type Child } from "./lib/children.ts";
import { benchArgs } from "./lib/args.ts";
import { withSection } from "./lib/results.ts";

const ROOT = resolve(import.meta.dir, "..");
const BUN = process.execPath;
const argv = process.argv.slice(2);
const args = benchArgs(argv);
const { number: opt, string: optStr } = args;
args.helpFrom(import.meta.path);
const O = {
  rounds: opt("rounds", 5),
  seconds: opt("seconds", 5),
  inflight: opt("inflight", 8),
  warmup: opt("warmup", 2),
  quietWait: opt("quiet-wait", 20),
  label: optStr("label", "after"),
  /** Another checkout of hearth to measure (its src/main.ts), e.g. the commit before a change. */
  tree: resolve(optStr("tree", ROOT)),
  /** A second checkout measured in the same rounds (e.g. the commit before a change), for a paired ratio. */
  compare: optStr("compare", "") && resolve(optStr("compare", "")),
  /** Issues the comments are spread over, round-robin (a fresh set each round). */
  commentIssues: opt("comment-issues", 100),
  /** Runs hearth under `bun --cpu-prof --cpu-prof-md` and leaves the profiles in this directory. */
  cpuProf: optStr("cpu-prof", ""),
  write: !argv.includes("--no-write"),
  keep: argv.includes("--keep"),
};
if (!/^[a-z0-9-]+$/.test(O.label)) throw new Error("--label is lower-case letters, digits and dashes");

// ---- child processes: every one is killed on the way out

const cleanup = new Cleanup(O.keep);
const tmp = cleanup.dir(mkdtempSync(join(tmpdir(), "hearth-bench-writes-")));

async function run(cmd: string[], env: Record<string, string>): Promise<string> {
  const p = Bun.spawn(cmd, { cwd: ROOT, env: { ...process.env, ...env }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}\n${out}${err}`);
  return out;
}

function spawn(cmd: string[], env: Record<string, string>, log?: string): Child {
  const p = Bun.spawn(cmd, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdin: "ignore",
    stdout: log ? Bun.file(log) : "pipe",
    stderr: log ? Bun.file(`${log}.err`) : "inherit",
  });
  return cleanup.track(p);
}

// ---- /proc

/** Waits until `pid` used (almost) no CPU for 300 ms: its background work is done. Returns the wait. */
async function waitIdle(pid: number, maxMs = 60_000): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    const c0 = processCpuMs(pid);
    await Bun.sleep(300);
    if (processCpuMs(pid) - c0 <= 10 || performance.now() - t0 > maxMs) return performance.now() - t0 - 300;
  }
}

const fmt = (n: number, d = 0) => n.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });

// ---- the load: --inflight loops, each sending its next request when the last was answered

interface Load {
  created: number;
  seconds: number;
  rate: number;
  p50ms: number;
  p99ms: number;
  /** Server CPU per creation, including the work it does after answering, µs. */
  cpuUs: number;
  /** Of that, the share used after the last answer (background work catching up), µs. */
  afterUs: number;
  /** CPUs kept busy by other processes meanwhile. */
  otherCpus: number;
}

async function drive(pid: number, target: string | ((i: number) => string), headers: Record<string, string>, body: (i: number) => unknown, seconds: number): Promise<Load> {
  const lat: number[] = [];
  let n = 0;
  const cpu0 = processCpuMs(pid);
  const busy0 = machineBusyMs();
  const selfCpu0 = process.cpuUsage();
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline) {
      const i = n++;
      const s = performance.now();
      const url = typeof target === "string" ? target : target(i);
      const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(body(i)) });
      const text = await res.text();
      if (res.status !== 201) throw new Error(`${url} answered ${res.status}: ${text.slice(0, 300)}`);
      lat.push(performance.now() - s);
    }
  };
  await Promise.all(Array.from({ length: O.inflight }, loop));
  const wall = performance.now() - t0;
  const cpuAnswered = processCpuMs(pid) - cpu0;
  const selfMs = (() => {
    const u = process.cpuUsage(selfCpu0);
    return (u.user + u.system) / 1000;
  })();
  const other = Math.max(0, machineBusyMs() - busy0 - cpuAnswered - selfMs) / wall;
  await waitIdle(pid);
  const cpuAll = processCpuMs(pid) - cpu0;
  lat.sort((a, b) => a - b);
  return {
    created: lat.length,
    seconds: wall / 1000,
    rate: (lat.length * 1000) / wall,
    p50ms: lat[Math.floor(lat.length * 0.5)]!,
    p99ms: lat[Math.floor(lat.length * 0.99)]!,
    cpuUs: (cpuAll * 1000) / lat.length,
    afterUs: ((cpuAll - cpuAnswered) * 1000) / lat.length,
    otherCpus: other,
  };
}

// ---- main

/** One `hearth web` of `tree` with a fresh work dir, an admin user, a token and a repository. */
async function startHearth(tree: string, name: string, profile: boolean) {
  const port = (() => {
    const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
    const p = s.port!;
    s.stop(true);
    return p;
  })();
  const work = join(tmp, name);
  const config = join(work, "custom", "conf", "app.ini");
  mkdirSync(dirname(config), { recursive: true });
  writeFileSync(config, `[server]\nHTTP_ADDR = 127.0.0.1\nHTTP_PORT = ${port}\nDOMAIN = 127.0.0.1\n\n[log]\nLEVEL = warn\n`);
  const env = { HEARTH_WORK_DIR: work };
  const main = join(tree, "src", "main.ts");
  await run([BUN, main, "admin", "user", "create", "--username", "bench", "--password", "benchpass123", "--email", "bench@example.com",
    "--admin", "--must-change-password=false", "--config", config], env);
  const token = (await run([BUN, main, "admin", "user", "generate-access-token", "--username", "bench", "--raw", "--config", config], env)).trim();
  const log = join(tmp, `${name}-web.log`);
  const prof = profile ? ["--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${resolve(O.cpuProf)}`] : [];
  const proc = spawn([BUN, ...prof, main, "web", "--config", config, "--port", String(port)], env, log);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/v1/version`)).status === 200) break;
    } catch {}
    if (proc.exitCode !== null || i > 3000) throw new Error(`hearth (${tree}) did not start`);
    await Bun.sleep(10);
  }
  const headers = { Authorization: `token ${token}`, "Content-Type": "application/json" };
  const repoRes = await fetch(`${base}/api/v1/user/repos`, { method: "POST", headers, body: JSON.stringify({ name: "bench" }) });
  if (repoRes.status !== 201) throw new Error(`creating the repository: ${repoRes.status} ${await repoRes.text()}`);
  const issuesUrl = `${base}/api/v1/repos/bench/bench/issues`;
  /** Issues to comment on, made before a measurement (and their events settled). */
  const newIssues = async (n: number) => {
    const numbers: number[] = [];
    for (let i = 0; i < n; i++) {
      const r = await fetch(issuesUrl, { method: "POST", headers, body: JSON.stringify({ title: "comments go here" }) });
      if (r.status !== 201) throw new Error(`creating an issue: ${r.status}`);
      numbers.push(((await r.json()) as { number: number }).number);
    }
    await waitIdle(proc.pid);
    return numbers;
  };
  return { proc, log, headers, issuesUrl, newIssues, tree };
}

async function gitHead(tree: string): Promise<string> {
  try {
    let head = (await run(["git", "-C", tree, "rev-parse", "--short", "HEAD"], {})).trim();
    if ((await run(["git", "-C", tree, "status", "--porcelain", "--", "src"], {})).trim()) head += " (src/ with uncommitted changes)";
    return head;
  } catch {
    return "?";
  }
}

async function main() {
  const started = new Date();
  // hearth from the tree measured (this one, or --tree), and with --compare a second one in the same rounds.
  const hearths = [await startHearth(O.tree, "hearth", Boolean(O.cpuProf))];
  if (O.compare) hearths.push(await startHearth(O.compare, "hearth-compare", false));
  const hearthName = async (h: (typeof hearths)[number]) => (O.compare ? `hearth ${await gitHead(h.tree)}` : "hearth");
  const headers = hearths[0]!.headers;

  // The floors, one database each.
  const floors: Record<string, { proc: Child; url: string }> = {};
  for (const sync of ["FULL", "NORMAL"]) {
    const proc = spawn([BUN, join(import.meta.dir, "writes-floor.ts")], { FLOOR_DB: join(tmp, `floor-${sync}.db`), FLOOR_SYNC: sync });
    const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
    let first = "";
    while (!first.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error("floor did not start");
      first += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    floors[sync] = { proc, url: `http://127.0.0.1:${first.trim()}/rows` };
  }

  const issueBody = (i: number) => ({ title: `bench issue ${i}`, body: `Created by bench/writes.ts, number ${i}, with some **markdown** and a link to #1.` });
  const commentBody = (i: number) => ({ body: `Comment ${i} from bench/writes.ts, with some **markdown** and a mention of #1.` });

  type Target = { name: string; go: () => Promise<Load> };
  const targets: Target[] = [];
  for (const h of hearths) {
    const name = await hearthName(h);
    targets.push(
      { name: `${name}: issues`, go: () => drive(h.proc.pid, h.issuesUrl, h.headers, issueBody, O.seconds) },
      {
        name: `${name}: comments`,
        go: async () => {
          const pool = await h.newIssues(O.commentIssues);
          return drive(h.proc.pid, (i) => `${h.issuesUrl}/${pool[i % pool.length]}/comments`, h.headers, commentBody, O.seconds);
        },
      },
    );
  }
  targets.push(
    { name: "floor: synchronous=FULL", go: () => drive(floors.FULL!.proc.pid, floors.FULL!.url, headers, issueBody, O.seconds) },
    { name: "floor: synchronous=NORMAL", go: () => drive(floors.NORMAL!.proc.pid, floors.NORMAL!.url, headers, issueBody, O.seconds) },
  );

  // Warm-up (JIT, page cache, connection pools), not reported.
  for (const t of targets) {
    const save = O.seconds;
    O.seconds = O.warmup;
    await t.go();
    O.seconds = save;
  }

  const results: Record<string, Load[]> = Object.fromEntries(targets.map((t) => [t.name, []]));
  for (let round = 0; round < O.rounds; round++) {
    const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
    for (const t of order) {
      if (!(await waitQuiet(O.quietWait * 1000))) console.warn(`  machine still busy after ${O.quietWait} s; measuring anyway`);
      const r = await t.go();
      results[t.name]!.push(r);
      console.log(
        `round ${round + 1} ${t.name.padEnd(26)} ${fmt(r.rate).padStart(6)}/s  p50 ${r.p50ms.toFixed(2)} ms  p99 ${r.p99ms.toFixed(2)} ms  ` +
          `server CPU ${fmt(r.cpuUs)} µs/creation (${fmt(r.afterUs)} after the answers)  other load ${r.otherCpus.toFixed(2)} CPUs`,
      );
    }
  }

  const codes: string[] = [];
  let warnLines: string[] = [];
  for (const h of hearths) {
    codes.push(`${await hearthName(h)} exited with code ${await stop(h.proc, 5000)} on SIGTERM`);
    const logText = (existsSync(h.log) ? readFileSync(h.log, "utf8") : "") + (existsSync(`${h.log}.err`) ? readFileSync(`${h.log}.err`, "utf8") : "");
    warnLines = warnLines.concat(logText.split("\n").filter((l) => /\b(warn|error|fatal)\b/i.test(l)));
  }
  for (const f of Object.values(floors)) await stop(f.proc, 5000);

  // ---- report
  const ratio = (a: string, b: string) => median(results[a]!.map((r, i) => r.rate / results[b]![i]!.rate));
  const row = (name: string) => {
    const rs = results[name]!;
    const rates = rs.map((r) => r.rate);
    return `| ${name} | ${fmt(median(rates))} | ${fmt(Math.min(...rates))} – ${fmt(Math.max(...rates))} | ${median(rs.map((r) => r.p50ms)).toFixed(2)} ms | ${median(rs.map((r) => r.p99ms)).toFixed(2)} ms | ${fmt(median(rs.map((r) => r.cpuUs)))} µs | ${fmt(median(rs.map((r) => r.afterUs)))} µs | ${median(rs.map((r) => r.otherCpus)).toFixed(2)} |`;
  };
  const ratios: string[] = [];
  for (const h of hearths) {
    const n = await hearthName(h);
    ratios.push(
      `${n} / floor (median of per-round ratios): issues ${ratio(`${n}: issues`, "floor: synchronous=FULL").toFixed(3)}× the FULL floor, ` +
        `${ratio(`${n}: issues`, "floor: synchronous=NORMAL").toFixed(3)}× the NORMAL floor; comments ${ratio(`${n}: comments`, "floor: synchronous=FULL").toFixed(3)}× FULL, ` +
        `${ratio(`${n}: comments`, "floor: synchronous=NORMAL").toFixed(3)}× NORMAL.`,
    );
  }
  if (O.compare) {
    const [a, b] = [await hearthName(hearths[0]!), await hearthName(hearths[1]!)];
    ratios.push(
      `**${a} / ${b}** (median of per-round ratios): issues **${ratio(`${a}: issues`, `${b}: issues`).toFixed(2)}×**, comments **${ratio(`${a}: comments`, `${b}: comments`).toFixed(2)}×**.`,
    );
  }
  const trees = await Promise.all(hearths.map(async (h) => `git ${await gitHead(h.tree)}${h.tree !== ROOT ? ` (checked out in ${h.tree})` : ""}`));
  const lines = [
    `### ${O.label === "before" ? "Before" : O.label === "after" ? "After" : O.label} (\`--label ${O.label}\`)`,
    "",
    `- **Date:** ${started.toISOString()}; **hearth:** ${trees.join(" and ")}, \`bun src/main.ts web\`, \`[log] LEVEL = warn\``,
    `- **Command:** \`${["bun bench/writes.ts", ...argv].join(" ")}\``,
    `- **Machine:** ${availableParallelism()} CPUs, ${cpus()[0]?.model ?? "?"}; Bun ${Bun.version}; ${O.inflight} requests in flight from one client process, ${O.seconds} s per measurement, ${O.rounds} rounds in rotating order`,
    "",
    "| Target | Creations/s (median) | min – max | p50 | p99 | Server CPU per creation | … of it after the answers | Other load (CPUs) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...targets.map((t) => row(t.name)),
    "",
    ...ratios,
    `Per round, creations/s: ${targets.map((t) => `${t.name} ${results[t.name]!.map((r) => fmt(r.rate)).join(", ")}`).join("; ")}.`,
    warnLines.length ? `hearth logged ${warnLines.length} line(s) at warn or above, the first: \`${warnLines[0]!.slice(0, 200)}\`.` : "hearth logged nothing at warn or above.",
    `${codes.join("; ")}.`,
  ];
  const sub = `<!-- writes:${O.label}:begin -->\n${lines.join("\n")}\n<!-- writes:${O.label}:end -->`;
  console.log(`\n${sub}`);
  if (!O.write) return;
  const file = join(import.meta.dir, "RESULTS.md");
  let text = readFileSync(file, "utf8");
  const intro = [
    "## Writes (`bench/writes.ts`)",
    "",
    "Issue and comment creation through `hearth web`, 8 requests in flight, against a bare `Bun.serve` + `bun:sqlite`",
    "server inserting one row per request (bench/writes-floor.ts) with `synchronous=FULL` and with `NORMAL`, in the same run;",
    "see [README.md](README.md#writes-benchwritests). Each run replaces its own labelled part below.",
  ].join("\n");
  if (!text.includes("<!-- writes:begin -->")) text = `${text.trimEnd()}\n\n<!-- writes:begin -->\n${intro}\n<!-- writes:end -->\n`;
  const [pre, rest] = text.split("<!-- writes:begin -->") as [string, string];
  const [inner, post] = rest.split("<!-- writes:end -->") as [string, string];
  const newInner = withSection(inner, `writes:${O.label}`, sub);
  writeFileSync(file, `${pre}<!-- writes:begin -->${newInner}<!-- writes:end -->${post}`);
  console.log(`wrote ${file}`);
}

try {
  await main();
} finally {
  cleanup.now();
}
