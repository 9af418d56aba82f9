/**
 * Web pages benchmark (issue 15's budgets): server time of the pages people open most, on a
 * repository with real history (hearth's own, pushed into a fresh instance), against `cgit` run as
 * CGI on the very same bare repository, in the same run, on 127.0.0.1 only.
 *
 *   bun bench/web.ts [--runs 30] [--cold 12] [--binary PATH] [--no-write] [--keep]
 *
 * Measured, each as the median of --runs sequential requests after a warm-up:
 * - the repository home (budget 30 ms, HTML ≤ 100 KB, no script);
 * - a 5,000-line (~200 KB) TypeScript file: warm (cached highlighting, ≤ 15 ms) and cold (each of
 *   --cold never-seen blobs viewed once, ≤ 400 ms);
 * - a pull request's files page of 100 changed files (≤ 200 ms);
 * - tree, file and log pages against cgit's tree, blob and log pages (within 2×). cgit runs as
 *   CGI — a process per request, as it is deployed — with its cache off.
 * --binary measures that hearth executable (default: `bun src/main.ts`).
 */
import { mkdirSync, mkdtempSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { benchArgs } from "./lib/args.ts";
import { Cleanup } from "./lib/children.ts";
import { run, startHearth } from "./lib/hearth-server.ts";
import { median } from "./lib/measure.ts";
import { writeResultsSection } from "./lib/results.ts";

const ROOT = resolve(import.meta.dir, "..");
const args = benchArgs(process.argv.slice(2));
args.helpFrom(import.meta.path);
const O = {
  runs: args.integer("runs", 30),
  cold: args.integer("cold", 12),
  binary: args.flag("binary") ? resolve(args.string("binary", "")) : undefined,
  write: !args.flag("no-write"),
  keep: args.flag("keep"),
};
const CGIT = "/usr/lib/cgit/cgit.cgi";
if (!existsSync(CGIT)) throw new Error("cgit is not installed: apt-get install cgit");

const cleanup = new Cleanup(O.keep);
const tmp = cleanup.dir(mkdtempSync(join(tmpdir(), "hearth-bench-web-")));


// ---- hearth, with a repository holding hearth's own history, a big file and a wide pull request

const { base, token, work } = await startHearth(tmp, cleanup, O.binary);
const headers = { Authorization: `token ${token}`, "Content-Type": "application/json" };
const api = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${base}/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return r.json();
};
await api("POST", "/user/repos", { name: "site" });

console.log("pushing hearth's own history, a 5,000-line file and a 100-file branch…");
const clone = join(tmp, "clone");
await run(["git", "clone", "-q", "--no-local", ROOT, clone]);
const git = (...a: string[]) => run(["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com", ...a], { cwd: clone });
await git("checkout", "-q", "-B", "main");

/** 5,000 lines of TypeScript (~200 KB), different for each `seed`. */
function bigFile(seed: number): string {
  const lines: string[] = [`// generated for the web benchmark (${seed})`];
  for (let i = 1; lines.length < 5000; i++) {
    lines.push(`/** Adds ${i} to a value and names the result, as a ${seed}-th example. */`);
    lines.push(`export function add${i}(value: number, label = "item-${i}"): { label: string; total: number } {`);
    lines.push(`  const total = value + ${i} * ${seed + 1}; // keeps ${i}`);
    lines.push(`  return { label: \`\${label}:${i}\`, total };`);
    lines.push("}");
  }
  return `${lines.slice(0, 5000).join("\n")}\n`;
}
writeFileSync(join(clone, "big.ts"), bigFile(0));
mkdirSync(join(clone, "cold"));
for (let i = 1; i <= O.cold; i++) writeFileSync(join(clone, "cold", `big-${i}.ts`), bigFile(i));
await git("add", "-A");
await git("commit", "-q", "-m", "bench: a 5,000-line file and never-seen copies");
await git("checkout", "-q", "-b", "wide");
const files = (await git("ls-files", "src")).split("\n").filter((f) => f.endsWith(".ts")).slice(0, 100);
if (files.length < 100) throw new Error("fewer than 100 files to change");
for (const f of files) writeFileSync(join(clone, f), `${await Bun.file(join(clone, f)).text()}\n// changed by the web benchmark\nexport const benchMark = ${files.indexOf(f)};\n`);
await git("commit", "-q", "-am", "bench: change 100 files");
const remote = `http://bench:${token}@127.0.0.1:${port}/bench/site.git`;
await git("push", "-q", remote, "main", "wide");
const pull = (await api("POST", "/repos/bench/site/pulls", { head: "wide", base: "main", title: "100 files" })) as { number: number };
const bare = join(work, "data", "repositories", "bench", "site.git");
if (!existsSync(bare)) throw new Error(`no repository at ${bare}`);

// ---- cgit on the same bare repository, as CGI with its cache off

const cgitrc = join(tmp, "cgitrc");
writeFileSync(cgitrc, `cache-size=0\nvirtual-root=/\nrepo.url=site\nrepo.path=${bare}\n`);
async function cgit(path: string): Promise<{ ms: number; bytes: number }> {
  const t0 = performance.now();
  const p = Bun.spawn([CGIT], {
    env: { CGIT_CONFIG: cgitrc, REQUEST_METHOD: "GET", QUERY_STRING: "", PATH_INFO: path, SCRIPT_NAME: "/", HTTP_HOST: "127.0.0.1", SERVER_NAME: "127.0.0.1", SERVER_PORT: "80" },
    stdout: "pipe",
    stderr: "ignore",
  });
  const out = await new Response(p.stdout).arrayBuffer();
  await p.exited;
  const ms = performance.now() - t0;
  if (!new TextDecoder().decode(out.slice(0, 200)).includes("200") && !new TextDecoder().decode(out.slice(0, 300)).toLowerCase().includes("content-type")) {
    throw new Error(`cgit ${path}: unexpected answer`);
  }
  return { ms, bytes: out.byteLength };
}

async function page(path: string): Promise<{ ms: number; bytes: number; body: string }> {
  const t0 = performance.now();
  const r = await fetch(`${base}${path}`);
  const body = await r.text();
  const ms = performance.now() - t0;
  if (r.status !== 200) throw new Error(`GET ${path}: ${r.status}\n${body.slice(0, 500)}`);
  return { ms, bytes: Buffer.byteLength(body), body };
}

async function timed(f: () => Promise<{ ms: number }>, runs = O.runs): Promise<number> {
  for (let i = 0; i < 3; i++) await f();
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) xs.push((await f()).ms);
  return median(xs);
}

// ---- measurements

const P = `/bench/site`;
const results: { name: string; ms: number; budget?: string; floor?: number; note?: string }[] = [];

const home = await page(P);
const homeMs = await timed(() => page(P));
results.push({ name: "repository home", ms: homeMs, budget: "≤ 30 ms", note: `${(home.bytes / 1024).toFixed(1)} KB of HTML, ${/<script/i.test(home.body) ? "with" : "no"} script` });

const fileWarm = await timed(() => page(`${P}/src/branch/main/big.ts`));
results.push({ name: "5,000-line file, cached", ms: fileWarm, budget: "≤ 15 ms" });
const cold: number[] = [];
for (let i = 1; i <= O.cold; i++) cold.push((await page(`${P}/src/branch/main/cold/big-${i}.ts`)).ms);
results.push({ name: "5,000-line file, cold", ms: median(cold), budget: "≤ 400 ms", note: `median of ${O.cold} never-seen blobs, max ${Math.max(...cold).toFixed(0)} ms` });

const pullFiles = await timed(() => page(`${P}/pulls/${pull.number}/files`), Math.min(O.runs, 15));
results.push({ name: "pull request, 100 changed files", ms: pullFiles, budget: "≤ 200 ms" });

for (const [name, ours, theirs] of [
  ["tree (src/services)", `${P}/src/branch/main/src/services`, "/site/tree/src/services"],
  ["file (5,000 lines)", `${P}/src/branch/main/big.ts`, "/site/tree/big.ts"],
  ["log", `${P}/commits/branch/main`, "/site/log/"],
] as const) {
  const floor = await timed(() => cgit(theirs));
  const ms = await timed(() => page(ours));
  results.push({ name: `${name} vs cgit`, ms, floor, budget: "≤ 2× cgit" });
}

// ---- report

const rows = results.map((r) => {
  const ratio = r.floor ? `${(r.ms / r.floor).toFixed(2)}×` : "";
  return `| ${r.name} | ${r.ms.toFixed(1)} ms | ${r.floor ? `${r.floor.toFixed(1)} ms` : ""} | ${ratio} | ${r.budget ?? ""} | ${r.note ?? ""} |`;
});
const section = [
  "<!-- web:begin -->",
  "## Web pages (`bun bench/web.ts`)",
  "",
  `Run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, ${O.runs} sequential requests per page after 3 warm-up ones, median response time on 127.0.0.1 (${O.binary ? "the executable" : "`bun src/main.ts web`"}). The repository is hearth's own history pushed into a fresh instance, plus a 5,000-line TypeScript file and a branch changing 100 files; cgit ${(await run(["dpkg-query", "-W", "-f", "${Version}", "cgit"]).catch(() => "?")).trim()} runs as CGI (a process per request, cache off) on the same bare repository.`,
  "",
  "| page | hearth | cgit | ratio | budget | note |",
  "|---|---|---|---|---|---|",
  ...rows,
  "<!-- web:end -->",
].join("\n");
console.log(section);
if (O.write) writeResultsSection("web", section);

// The server child keeps the event loop alive: leave now (Cleanup stops it on exit).
process.exit(0);
