/**
 * The git-level levers behind hearth's push and clone handling (see bench/README.md), each against
 * its alternative on the same data in the same run, without HTTP:
 *
 *   1. a reachability bitmap for a freshly pushed pack: `git multi-pack-index write --bitmap`
 *      (no pack rewritten) against `git repack -adb --write-bitmap-index`, and the multi-pack-index
 *      write with git's 96 MiB delta base cache against 16 MiB;
 *   2. packing a clone's pack from that bitmap-less pack (`git pack-objects`, as upload-pack runs
 *      it) with a 96 MiB and a 16 MiB delta base cache, and from the same pack with the bitmap;
 *   3. starting `hearth hook pre-receive` (what git runs twice per push) against `hearth --version`.
 *
 *   bun bench/transport-levers.ts [--commits 20000] [--mb 200] [--rounds 3] [--binary dist/hearth]
 *                                 [--no-write | --write] [--quick]
 *
 * Each figure is the median over --rounds rounds, variants alternating within a round: CPU time
 * (user + system of the process and its children) and the peak of the summed RssAnon of the
 * process tree, sampled every 10 ms. The pushed pack is what `git push` into an empty repository
 * over file:// leaves, made once per run from the repository bench/gen-repo.ts caches.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, release, tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { cacheName, generateRepo, isGenerated, type GenParams } from "./gen-repo.ts";
import { RESULTS_PATH, writeResultsSection } from "./lib/results.ts";

const ROOT = resolve(import.meta.dir, "..");
const argv = process.argv.slice(2);
const flag = (n: string) => argv.includes(`--${n}`);
const opt = (n: string, def: number) => (argv.includes(`--${n}`) ? Number(argv[argv.indexOf(`--${n}`) + 1]) : def);
if (flag("help")) {
  console.log(readFileSync(import.meta.path, "utf8").split("*/")[0]);
  process.exit(0);
}
const QUICK = flag("quick");
const O = {
  commits: opt("commits", QUICK ? 2000 : 20000),
  mib: opt("mb", QUICK ? 20 : 200),
  rounds: opt("rounds", QUICK ? 1 : 3),
  binary: resolve(argv.includes("--binary") ? argv[argv.indexOf("--binary") + 1]! : join(ROOT, "dist", "hearth")),
  write: flag("write") || (!QUICK && !flag("no-write")),
};
const GIT_ENV = { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", LC_ALL: "C", GIT_TERMINAL_PROMPT: "0" };

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const s = readFileSync(`/proc/${e}/stat`, "latin1");
      if (Number(s.slice(s.lastIndexOf(")") + 2).split(" ")[1]) === pid) out.push(Number(e));
    } catch {}
  }
  return out;
}
function anonKiB(pid: number): number {
  try {
    return Number(/^RssAnon:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "latin1"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}
function treeAnonKiB(root: number): number {
  let sum = anonKiB(root);
  const stack = [root];
  while (stack.length) for (const c of childrenOf(stack.pop()!)) (sum += anonKiB(c)), stack.push(c);
  return sum;
}

interface Run {
  cpuMs: number;
  wallMs: number;
  anonPeakMiB: number;
}

/** Runs a command to the end (stdin from a file if given), measuring CPU and peak anonymous memory of its tree. */
async function measure(cmd: string[], opts: { stdinFile?: string; cwd?: string } = {}): Promise<Run> {
  const t0 = performance.now();
  const p = Bun.spawn(cmd, {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...GIT_ENV },
    stdin: opts.stdinFile ? Bun.file(opts.stdinFile) : "ignore",
    stdout: "ignore",
    stderr: "pipe",
  });
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, treeAnonKiB(p.pid))), 10);
  const [err, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
  clearInterval(timer);
  if (code !== 0 && !cmd.includes("hook")) throw new Error(`${cmd.join(" ")} exited ${code}: ${err}`);
  return { cpuMs: Number(p.resourceUsage()!.cpuTime.total) / 1000, wallMs: performance.now() - t0, anonPeakMiB: peak / 1024 };
}

async function git(args: string[], cwd = ROOT): Promise<string> {
  const p = Bun.spawn(["git", ...args], { cwd, env: { ...process.env, ...GIT_ENV }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`git ${args.join(" ")}: ${err}`);
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const tmp = mkdtempSync(join(tmpdir(), "hearth-levers-"));
process.on("exit", () => rmSync(tmp, { recursive: true, force: true }));

async function main() {
  const params: GenParams = { commits: O.commits, mib: O.mib, branches: 8, tags: 20, seed: 1 };
  const SRC = join(import.meta.dir, ".work", cacheName(params));
  if (!isGenerated(SRC)) await generateRepo(SRC, params, console.log);
  const pushed = join(tmp, "pushed.git");
  await git(["init", "-q", "--bare", pushed]);
  await git(["--git-dir", SRC, "push", "-q", `file://${pushed}`, "refs/heads/*:refs/heads/*", "refs/tags/*:refs/tags/*"]);
  const packDir = join(pushed, "objects", "pack");
  const tips = join(tmp, "tips");
  writeFileSync(tips, await git(["--git-dir", pushed, "for-each-ref", "--format=%(objectname)"]));
  /** A copy of the pushed repository sharing its pack files (hard links), for a step that writes beside them. */
  const fresh = async (name: string) => {
    const d = join(tmp, name);
    rmSync(d, { recursive: true, force: true });
    await Bun.spawn(["cp", "-al", pushed, d]).exited;
    return d;
  };
  const bitmapped = await fresh("bitmapped.git");
  await git(["--git-dir", bitmapped, "multi-pack-index", "write", "--bitmap", "--no-progress"]);
  const packObjects = (dir: string, dbc: string) => [
    "git", "-c", `core.deltaBaseCacheLimit=${dbc}`, "--git-dir", dir, "pack-objects", "--revs", "--thin", "--stdout", "--delta-base-offset", "-q",
  ];

  const variants: Record<string, () => Promise<Run>> = {
    "multi-pack-index write --bitmap, delta base cache 96 MiB (git's default)": async () =>
      measure(["git", "-c", "core.deltaBaseCacheLimit=96m", "--git-dir", await fresh("m96.git"), "multi-pack-index", "write", "--bitmap", "--no-progress"]),
    "multi-pack-index write --bitmap, delta base cache 16 MiB (hearth)": async () =>
      measure(["git", "-c", "core.deltaBaseCacheLimit=16m", "--git-dir", await fresh("m16.git"), "multi-pack-index", "write", "--bitmap", "--no-progress"]),
    "repack -adb --write-bitmap-index (hearth's repack)": async () =>
      measure(["git", "--git-dir", await fresh("rp.git"), "repack", "-a", "-d", "-b", "-q", "--write-bitmap-index"]),
    "pack-objects for a clone, no bitmap, delta base cache 96 MiB (git's default)": () => measure(packObjects(pushed, "96m"), { stdinFile: tips }),
    "pack-objects for a clone, no bitmap, delta base cache 16 MiB (hearth's upload-pack)": () => measure(packObjects(pushed, "16m"), { stdinFile: tips }),
    "pack-objects for a clone, with the multi-pack-index bitmap": () => measure(packObjects(bitmapped, "16m"), { stdinFile: tips }),
    "hearth hook pre-receive (not in a push: starts, prints a line, exits)": () => measure([O.binary, "hook", "pre-receive"]),
    "hearth --version": () => measure([O.binary, "--version"]),
  };
  const results = new Map<string, Run[]>(Object.keys(variants).map((k) => [k, []]));
  for (let r = 0; r < O.rounds; r++) {
    for (const [name, fn] of Object.entries(variants)) {
      const x = await fn();
      results.get(name)!.push(x);
      console.log(`  ${name}: ${x.wallMs.toFixed(0)} ms wall, ${x.cpuMs.toFixed(0)} ms CPU, ${x.anonPeakMiB.toFixed(0)} MiB anon`);
    }
  }
  const packMiB = readdirSync(packDir).filter((f) => f.endsWith(".pack")).reduce((a, f) => a + Bun.file(join(packDir, f)).size, 0) / 2 ** 20;
  const rows = [...results].map(([name, xs]) =>
    `| ${name} | ${median(xs.map((x) => x.wallMs)).toFixed(0)} ms | ${median(xs.map((x) => x.cpuMs)).toFixed(0)} ms | ${median(xs.map((x) => x.anonPeakMiB)).toFixed(0)} MiB |`,
  );
  const section = `<!-- transport-levers:begin (written by bench/transport-levers.ts; rerunning it replaces this section) -->
## Git transport levers (\`bench/transport-levers.ts\`)

- **Date:** ${new Date().toISOString()}; **command:** \`bun bench/transport-levers.ts${argv.length ? " " + argv.join(" ") : ""}\`
- **Machine:** ${availableParallelism()} CPUs, Linux ${release()}; ${(await git(["--version"])).trim()}; hearth: \`${relative(ROOT, O.binary)}\`
- **Data:** \`bench/.work/${cacheName(params)}\` pushed over \`file://\` into an empty repository: one pack of ${packMiB.toFixed(1)} MiB without a bitmap, as a push leaves it
- **Method:** median of ${O.rounds} round(s), variants alternating; CPU is user + system of the process and its children; anon is the peak of RssAnon summed over the process tree, sampled every 10 ms. Wall time is shown but the machine is shared: compare CPU.

| Step | Wall | CPU | Peak anon |
|---|---:|---:|---:|
${rows.join("\n")}
<!-- transport-levers:end -->
`;
  if (O.write) {
    writeResultsSection("transport-levers", section);
    console.log(`wrote the "Git transport levers" section of ${relative(ROOT, RESULTS_PATH)}`);
  } else console.log("\n" + section);
}

await main();
