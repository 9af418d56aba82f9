/**
 * List endpoints at scale: hearth against a bare bun:sqlite floor (bench/list-floor.ts) serving the
 * same pages from the same database, in alternating rounds, and every API call measured alone.
 *
 *   bun bench/lists.ts                      # 20,000 repositories, 1,000,000 issues; writes RESULTS.md
 *   bun bench/lists.ts --repos 2000 --issues 100000 --no-write   # a quick look
 *
 * Options: --repos N, --issues N, --duration S (per wrk run, 5), --connections N (16), --rounds N
 * (3), --single N (sequential requests per call measured alone, 20), --source (run `bun src/main.ts`
 * instead of dist/hearth), --rebuild (build dist/hearth from the tree first), --no-write, --keep.
 * The seeded database is cached under bench/.work (bench/seed-scale.ts makes it through the data
 * layer); each run works on a copy. Needs wrk (apt-get install wrk).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { Database } from "bun:sqlite";
import { seedScale } from "./seed-scale.ts";
import { freePort, median, processCpuMs } from "./lib/measure.ts";
import { Cleanup, type Child } from "./lib/children.ts";
import { writeResultsSection } from "./lib/results.ts";

const ROOT = resolve(import.meta.dir, "..");
const BUN = process.execPath;
const argv = process.argv.slice(2);
const opt = (name: string, def: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : def;
};
const flag = (name: string) => argv.includes(`--${name}`);
const O = {
  repos: opt("repos", 20_000),
  issues: opt("issues", 1_000_000),
  duration: opt("duration", 5),
  connections: opt("connections", 16),
  rounds: opt("rounds", 3),
  single: opt("single", 20),
  source: flag("source"),
  tree: (() => {
    const i = argv.indexOf("--tree");
    return i >= 0 ? resolve(argv[i + 1]!) : undefined;
  })(),
  label: (() => {
    const i = argv.indexOf("--label");
    return i >= 0 ? argv[i + 1]! : "after";
  })(),
  rebuild: flag("rebuild"),
  write: !flag("no-write"),
  keep: flag("keep"),
};
/** Bump when bench/seed-scale.ts lays the forge out differently, so a stale cache is not reused. */
const SEED_VERSION = 8;

const cleanup = new Cleanup(O.keep);

function spawn(cmd: string[], env: Record<string, string> = {}, log?: string): Child {
  return cleanup.track(
    Bun.spawn(cmd, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdout: log ? Bun.file(log) : "ignore",
      stderr: log ? Bun.file(`${log}.err`) : "ignore",
    }),
  );
}

async function run(cmd: string[], env: Record<string, string> = {}): Promise<string> {
  const p = Bun.spawn(cmd, { cwd: ROOT, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}\n${out}${err}`);
  return out;
}


async function waitReady(url: string, p: Child): Promise<void> {
  const t0 = performance.now();
  for (;;) {
    try {
      const r = await fetch(url);
      await r.arrayBuffer();
      if (r.status < 500) return;
    } catch {}
    if (p.exitCode !== null) throw new Error(`server exited (${p.exitCode}) before ${url} answered`);
    if (performance.now() - t0 > 120_000) throw new Error(`${url} not ready after 120 s`);
    await Bun.sleep(20);
  }
}


const fmt = (n: number, d = 0) => n.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });

interface Wrk {
  rps: number;
  p50: number;
  cpuUs: number;
}

async function wrk(url: string, token: string | undefined, pid: number): Promise<Wrk> {
  const cmd = ["wrk", "-t1", `-c${O.connections}`, `-d${O.duration}s`, "--timeout", "10s", "--latency"];
  if (token) cmd.push("-H", `Authorization: token ${token}`);
  const before = processCpuMs(pid);
  const out = await run([...cmd, url]);
  const cpu = processCpuMs(pid) - before;
  const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  if (non2xx) throw new Error(`${url}: ${non2xx} non-2xx responses\n${out}`);
  const p50 = /^\s+50%\s+([\d.]+)(us|ms|s)/m.exec(out)!;
  const ms = Number(p50[1]) * (p50[2] === "us" ? 0.001 : p50[2] === "s" ? 1000 : 1);
  return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1]), p50: ms, cpuUs: (cpu * 1000) / requests };
}

/** A seeded work directory, cached: hearth's config, database, repositories and the bench account's token. */
async function seededTemplate(hearth: string[]): Promise<string> {
  const dir = join(ROOT, "bench", ".work", `scale-v${SEED_VERSION}-r${O.repos}-i${O.issues}`);
  if (existsSync(join(dir, "token"))) return dir;
  rmSync(dir, { recursive: true, force: true });
  const config = join(dir, "custom", "conf", "app.ini");
  mkdirSync(dirname(config), { recursive: true });
  writeFileSync(config, "[server]\nHTTP_ADDR = 127.0.0.1\nHTTP_PORT = 3000\n\n[log]\nLEVEL = warn\n");
  const env = { HEARTH_WORK_DIR: dir };
  await run([...hearth, "admin", "user", "create", "--username", "bench", "--password", "benchpass123", "--email", "bench@example.com", "--admin", "--must-change-password=false", "--config", config], env);
  const token = (await run([...hearth, "admin", "user", "generate-access-token", "--username", "bench", "--raw", "--config", config], env)).trim();
  console.log(`seeding ${fmt(O.repos)} repositories and ${fmt(O.issues)} issues ...`);
  const r = await seedScale({ db: join(dir, "data", "hearth.db"), repoRoot: join(dir, "data", "repositories"), owner: "bench", repos: O.repos, issues: O.issues, seed: 1 });
  console.log(`  seeded in ${r.seconds.toFixed(0)} s`);
  writeFileSync(join(dir, "seed.json"), JSON.stringify(r, null, 2));
  writeFileSync(join(dir, "token"), token);
  return dir;
}

/**
 * The migrations a tree from before issue 14 does not know (0013 and later) undone on a copy, so it
 * runs on the same data as it would have: their added indexes, the full-text table and its triggers
 * dropped, the three indexes 0013 widened put back as they were, and their records removed. The two
 * columns 0013 added (comment.repo_id, repository.num_comments) stay; an older tree never names them.
 */
function downgradeForOldTree(dbPath: string, tree: string): void {
  const db = new Database(dbPath);
  const unknown = readdirSync(join(ROOT, "migrations")).filter((f) => f.endsWith(".sql") && !existsSync(join(tree, "migrations", f)));
  db.transaction(() => {
    for (const file of unknown) {
      const text = readFileSync(join(ROOT, "migrations", file), "utf8");
      for (const m of text.matchAll(/CREATE INDEX `([a-z_]+)`/g)) db.exec(`DROP INDEX IF EXISTS ${m[1]}`);
      db.exec(`DELETE FROM hearth_migrations WHERE tag = '${file.replace(/\.sql$/, "")}'`);
    }
    for (const t of ["issue_fts_insert", "issue_fts_delete", "issue_fts_update"]) db.exec(`DROP TRIGGER IF EXISTS ${t}`);
    db.exec("DROP TABLE IF EXISTS issue_fts");
    db.exec("CREATE INDEX IF NOT EXISTS issue_label_label_idx ON issue_label (label_id)");
    db.exec("CREATE INDEX IF NOT EXISTS issue_poster_idx ON issue (poster_id)");
    db.exec("CREATE INDEX IF NOT EXISTS issue_milestone_idx ON issue (milestone_id)");
  })();
  db.exec("ANALYZE");
  db.close();
}

/** The pages measured against the floor (same path on both servers). */
const LISTS: [string, string][] = [
  ["repository issues (`/repos/{o}/{r}/issues`)", "/api/v1/repos/bench/big/issues?limit=50"],
  ["the same, page 100", "/api/v1/repos/bench/big/issues?limit=50&page=100"],
  ["repository pull requests (`/repos/{o}/{r}/pulls`)", "/api/v1/repos/bench/big/pulls?limit=50"],
  ["issue search (`/repos/issues/search`)", "/api/v1/repos/issues/search?limit=50"],
  ["repository comments (`/repos/{o}/{r}/issues/comments`)", "/api/v1/repos/bench/big/issues/comments?limit=50"],
  ["repository search (`/repos/search`)", "/api/v1/repos/search?limit=50"],
  ["user repositories (`/users/{u}/repos`)", "/api/v1/users/bench/repos?limit=50"],
  ["organization repositories (`/orgs/{o}/repos`)", "/api/v1/orgs/big-org/repos?limit=50"],
  ["notifications (`/notifications`)", "/api/v1/notifications?limit=50"],
];

/** Calls measured alone (hearth only), beyond the lists above. */
const SINGLES: string[] = [
  "/api/v1/repos/bench/big/issues?limit=1",
  "/api/v1/repos/bench/small/issues?limit=1",
  "/api/v1/repos/bench/big/issues?limit=50&state=all&page=10000",
  "/api/v1/repos/bench/big/issues?limit=50&state=closed&type=pulls",
  "/api/v1/repos/bench/big/issues?limit=50&labels=cache",
  "/api/v1/repos/bench/big/issues?limit=50&milestones=v3.0",
  "/api/v1/repos/bench/big/issues?limit=50&created_by=user0014&state=all",
  "/api/v1/repos/bench/big/issues?limit=50&q=reproduce%20654321%3A",
  "/api/v1/repos/bench/big/issues?limit=50&q=flaky",
  "/api/v1/repos/bench/big/pulls?limit=50&page=100&state=all",
  "/api/v1/repos/bench/big/pulls?limit=50&sort=recentupdate",
  "/api/v1/repos/issues/search?limit=50&type=pulls&state=closed",
  "/api/v1/repos/issues/search?limit=50&owner=big-org",
  "/api/v1/repos/issues/search?limit=50&q=reproduce%20654321%3A",
  "/api/v1/repos/issues/search?limit=50&q=flaky",
  "/api/v1/repos/bench/big/issues/1",
  "/api/v1/repos/bench/big/issues/1/comments",
  "/api/v1/repos/bench/big/issues/comments?limit=50&page=1000",
  "/api/v1/repos/bench/big",
  "/api/v1/repos/bench/big/labels?limit=50",
  "/api/v1/repos/bench/big/milestones?limit=50",
  "/api/v1/repos/search?limit=50&q=crash",
  "/api/v1/repos/search?limit=50&page=300",
  "/api/v1/user/repos?limit=50",
  "/api/v1/notifications?limit=50&page=100&all=true",
  "/api/v1/notifications/new",
  "/api/v1/user",
  "/api/v1/users/user0001",
];

async function single(base: string, path: string, token: string): Promise<{ median: number; max: number; status: number; bytes: number }> {
  const times: number[] = [];
  let status = 0;
  let bytes = 0;
  for (let i = 0; i < O.single; i++) {
    const t = performance.now();
    const r = await fetch(base + path, { headers: { Authorization: `token ${token}` } });
    bytes = (await r.arrayBuffer()).byteLength;
    times.push(performance.now() - t);
    status = r.status;
  }
  return { median: median(times), max: Math.max(...times), status, bytes };
}

async function main() {
  if (!Bun.which("wrk")) throw new Error("wrk is not installed: apt-get install -y wrk");
  const dist = join(ROOT, "dist", "hearth");
  if (!O.source && (O.rebuild || !existsSync(dist))) {
    console.log("building dist/hearth ...");
    await run(["npm", "run", "build"]);
  }
  const hearthCmd = O.tree ? [BUN, join(O.tree, "src", "main.ts")] : O.source ? [BUN, join(ROOT, "src", "main.ts")] : [dist];
  const template = await seededTemplate(O.tree ? [BUN, join(ROOT, "src", "main.ts")] : hearthCmd);
  const seed = JSON.parse(readFileSync(join(template, "seed.json"), "utf8"));
  const token = readFileSync(join(template, "token"), "utf8").trim();
  const tmp = mkdtempSync(join(tmpdir(), "hearth-lists-"));
  cleanup.dir(tmp);
  const work = join(tmp, "work");
  cpSync(template, work, { recursive: true });
  // The floor reads a copy of the data as seeded, whichever tree hearth is: the same data, with the
  // indexes the floor's queries are written for.
  let floorDb = join(work, "data", "hearth.db");
  if (O.tree && !existsSync(join(O.tree, "migrations", "0013_list_indexes.sql"))) {
    floorDb = join(tmp, "floor.db");
    cpSync(join(template, "data", "hearth.db"), floorDb);
    downgradeForOldTree(join(work, "data", "hearth.db"), O.tree);
  }
  const port = freePort();
  const config = join(work, "custom", "conf", "app.ini");
  writeFileSync(config, `[server]\nHTTP_ADDR = 127.0.0.1\nHTTP_PORT = ${port}\nROOT_URL = http://127.0.0.1:${port}/\n\n[log]\nLEVEL = warn\n`);
  const hearth = spawn([...hearthCmd, "web", "--config", config], { HEARTH_WORK_DIR: work }, join(tmp, "hearth.log"));
  const hearthBase = `http://127.0.0.1:${port}`;
  await waitReady(`${hearthBase}/api/v1/version`, hearth);
  const floorPort = freePort();
  const floor = spawn([BUN, join(ROOT, "bench", "list-floor.ts"), "--db", floorDb, "--port", String(floorPort), "--root-url", `${hearthBase}/`, "--viewer", "bench"], {}, join(tmp, "floor.log"));
  const floorBase = `http://127.0.0.1:${floorPort}`;
  await waitReady(`${floorBase}/api/v1/repos/search?limit=1`, floor);

  const rows: string[] = [];
  for (const [name, path] of LISTS) {
    const [h, f] = await Promise.all([fetch(hearthBase + path, { headers: { Authorization: `token ${token}` } }), fetch(floorBase + path)]);
    const [hb, fb] = [await h.arrayBuffer(), await f.arrayBuffer()];
    if (h.status !== 200 || f.status !== 200) throw new Error(`${path}: hearth ${h.status}, floor ${f.status}`);
    const totals = `${h.headers.get("x-total-count")} / ${f.headers.get("x-total-count")}`;
    await wrk(hearthBase + path, token, hearth.pid); // warm-up
    await wrk(floorBase + path, undefined, floor.pid);
    const hs: Wrk[] = [];
    const fs: Wrk[] = [];
    const ratios: number[] = [];
    for (let i = 0; i < O.rounds; i++) {
      const a = await wrk(hearthBase + path, token, hearth.pid);
      const b = await wrk(floorBase + path, undefined, floor.pid);
      hs.push(a);
      fs.push(b);
      ratios.push(a.rps / b.rps);
    }
    const line = `| ${name} | ${fmt(median(hs.map((x) => x.rps)))} | ${fmt(median(hs.map((x) => x.p50)), 1)} ms | ${fmt(median(hs.map((x) => x.cpuUs)))} µs | ${fmt(median(fs.map((x) => x.rps)))} | ${fmt(median(fs.map((x) => x.cpuUs)))} µs | **${median(ratios).toFixed(2)}×** | ${fmt(hb.byteLength / 1024, 1)} / ${fmt(fb.byteLength / 1024, 1)} KiB | ${totals} |`;
    console.log(line);
    rows.push(line);
  }

  const singles: string[] = [];
  let slowest = 0;
  for (const path of [...LISTS.map(([, p]) => p), ...SINGLES]) {
    const s = await single(hearthBase, path, token);
    if (s.status >= 400) throw new Error(`${path}: ${s.status}`);
    slowest = Math.max(slowest, s.median);
    const line = `| \`${path.replace("/api/v1", "")}\` | ${s.status} | ${fmt(s.bytes / 1024, 1)} KiB | ${fmt(s.median, 1)} ms | ${fmt(s.max, 1)} ms |`;
    console.log(line);
    singles.push(line);
  }
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${hearth.pid}/status`, "utf8"))![1]) / 1024;

  const hearthVersion = (await run([...hearthCmd, "--version"])).trim();
  const treeHead = O.tree ? (await run(["git", "-C", O.tree, "rev-parse", "--short", "HEAD"])).trim() : "";
  const downgradeNote = O.tree && !existsSync(join(O.tree, "migrations", "0013_list_indexes.sql"))
    ? " on the same data with the indexes, full-text table and triggers of the migrations it does not know (0013 and later) removed and the three indexes 0013 widened restored to their old form (0013's two new columns stay, unread by that tree)"
    : "";
  const head = (await run(["git", "rev-parse", "--short", "HEAD"])).trim();
  const section = [
    `<!-- lists-${O.label}:begin (written by bench/lists.ts --label ${O.label}; rerunning it replaces this section) -->`,
    `## List endpoints at scale: ${O.label}`,
    "",
    "Generated by `bench/lists.ts`; see [README.md](README.md#list-endpoints-at-scale-benchliststs).",
    "",
    `- **Date:** ${new Date().toISOString()}`,
    `- **Command:** \`bun bench/lists.ts${argv.length ? " " + argv.join(" ") : ""}\``,
    `- **hearth:** ${hearthVersion}, ${O.tree ? `the tree at ${O.tree} (git ${treeHead}), \`bun src/main.ts web\`${downgradeNote}` : `git ${head}, ${O.source ? "`bun src/main.ts web`" : "`dist/hearth web`"}`}`,
    `- **Data:** ${fmt(seed.repos)} repositories, ${fmt(seed.issues)} issues (\`bench/big\`: ${fmt(seed.big.issues)} issues and ${fmt(seed.big.pulls)} pull requests; \`bench/small\`: 1,000), ${fmt(seed.comments)} comments, ${fmt(seed.notifications)} notifications, ${fmt(seed.users)} accounts, seeded by \`bench/seed-scale.ts\` through the data layer`,
    `- **Load:** \`wrk -t1 -c${O.connections} -d${O.duration}s\` per run, hearth with \`Authorization: token …\` as the site admin \`bench\`, the floor (\`bench/list-floor.ts\`, bare Bun.serve + bun:sqlite, no authentication) on the same database; a warm-up run each, then ${O.rounds} alternating rounds; medians; the ratio is the median of the per-round ratios`,
    "",
    "| page (`limit=50`) | hearth req/s | hearth p50 | hearth CPU/req | floor req/s | floor CPU/req | hearth / floor | body hearth / floor | X-Total-Count hearth / floor |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows,
    "",
    `Every call alone (one request at a time, ${O.single} times; median and maximum; the slowest median is ${fmt(slowest, 1)} ms):`,
    "",
    "| call | status | body | median | max |",
    "|---|---:|---:|---:|---:|",
    ...singles,
    "",
    `hearth's resident memory after the run: ${fmt(rss, 1)} MiB.`,
    `<!-- lists-${O.label}:end -->`,
  ].join("\n");
  if (O.write) {
    writeResultsSection(`lists-${O.label}`, section);
    console.log("wrote bench/RESULTS.md");
  } else console.log(section);
}

await main();
// The servers it started keep the event loop alive: leave through exit, whose handler stops them.
process.exit(0);
