/**
 * Generates a large git repository deterministically with `git fast-import`, for bench/transport.ts.
 *
 * Shape: `main` plus a few feature branches forked from it and annotated tags along it. Every commit
 * rewrites one "binary" file with fresh pseudo-random bytes (AES-CTR keystream: incompressible,
 * no deltas possible, so these set the pack size) and edits one text file by a line or two (these
 * deltify well, as source files do). Paths are spread over two directory levels so each commit also
 * writes a few tree objects. Same parameters, same bytes, same object ids.
 *
 *   bun bench/gen-repo.ts OUT.git [--commits 20000] [--mb 200] [--branches 8] [--tags 20]
 */
import { createCipheriv, createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface GenParams {
  commits: number;
  /** Target size of the repacked pack, MiB. */
  mib: number;
  branches: number;
  tags: number;
  seed: number;
}

/** Bump when the generated content changes, so cached repositories are not reused. */
export const GEN_VERSION = 2;

export function cacheName(p: GenParams): string {
  return `repo-v${GEN_VERSION}-c${p.commits}-m${p.mib}-b${p.branches}-t${p.tags}-s${p.seed}.git`;
}

export interface GenInfo {
  params: GenParams;
  genVersion: number;
  commits: number;
  refs: number;
  packBytes: number;
  objects: number;
  generateSeconds: number;
  repackSeconds: number;
}

/** mulberry32: small deterministic PRNG for decisions (sizes, paths, words); the other bench scripts share it. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  LC_ALL: "C",
};

async function git(args: string[], gitDir?: string): Promise<string> {
  const p = Bun.spawn(gitDir ? ["git", `--git-dir=${gitDir}`, ...args] : ["git", ...args], {
    env: GIT_ENV,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`git ${args.join(" ")} exited ${code}: ${err}`);
  return out;
}

const WORDS = (
  "alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega config handler request response stream " +
  "buffer commit branch merge rebase index object packet header server client cache token parse render update " +
  "delete create list fetch push clone repo issue label milestone release archive mirror hook queue worker"
).split(" ");

const AUTHORS = [
  ["Ada Lovelace", "ada@example.com"],
  ["Grace Hopper", "grace@example.com"],
  ["Linus Torvalds", "linus@example.com"],
  ["Margaret Hamilton", "margaret@example.com"],
  ["Ken Thompson", "ken@example.com"],
] as const;

/**
 * Writes the repository to `out` (a bare repository; built beside it and renamed into place).
 * Returns what was generated.
 */
export async function generateRepo(out: string, p: GenParams, log: (s: string) => void = () => {}): Promise<GenInfo> {
  const tmp = `${out}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(dirname(out), { recursive: true });
  await git(["init", "--bare", "--quiet", "--initial-branch=main", tmp]);
  await git(["config", "gc.auto", "0"], tmp);

  const rnd = prng(p.seed);
  const key = createHash("sha256").update(`hearth-bench-${p.seed}`).digest();
  const keystream = createCipheriv("aes-128-ctr", key.subarray(0, 16), key.subarray(16, 32));
  const zeros = Buffer.alloc(1 << 20);
  const randomBytes = (n: number): Buffer => {
    const parts: Buffer[] = [];
    for (let left = n; left > 0; left -= zeros.length) parts.push(keystream.update(zeros.subarray(0, Math.min(left, zeros.length))));
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  };

  // Commits per branch: each feature branch gets a short run of commits forked off main.
  const perFeature = p.branches > 0 ? Math.max(1, Math.min(25, Math.floor(p.commits / (20 * p.branches)))) : 0;
  const mainCommits = p.commits - perFeature * p.branches;
  if (mainCommits < 1) throw new Error("too few commits for that many branches");
  // Random bytes per commit: the target size less what trees, commits and text deltas take
  // (measured: ~0.86 KB a commit at 2,000 commits, ~1.4 KB at 20,000, as the text files grow).
  const overhead = (800 + 0.03 * p.commits) * p.commits;
  const perCommit = Math.max(64, Math.floor((p.mib * 2 ** 20 - overhead) / p.commits));

  const binPaths: string[] = [];
  for (let d = 0; d < 40; d++) for (let f = 0; f < 25; f++) binPaths.push(`data/d${String(d).padStart(2, "0")}/blob-${String(f).padStart(3, "0")}.bin`);
  const textPaths: string[] = [];
  for (let d = 0; d < 16; d++) for (let f = 0; f < 16; f++) textPaths.push(`src/pkg${String(d).padStart(2, "0")}/mod${String(f).padStart(2, "0")}.txt`);
  const texts = new Map<string, string[]>();

  const proc = Bun.spawn(["git", `--git-dir=${tmp}`, "fast-import", "--quiet", "--done"], {
    env: GIT_ENV,
    stdin: "pipe",
    stdout: "ignore",
    stderr: "pipe",
  });
  const stderr = new Response(proc.stderr).text();
  const sink = proc.stdin;
  let pending = 0;
  const enc = new TextEncoder();
  const write = async (chunk: string | Uint8Array) => {
    const b = typeof chunk === "string" ? enc.encode(chunk) : chunk;
    sink.write(b);
    pending += b.length;
    if (pending > 4 << 20) {
      await sink.flush();
      pending = 0;
    }
  };
  const data = async (b: Uint8Array | string) => {
    const bytes = typeof b === "string" ? enc.encode(b) : b;
    await write(`data ${bytes.length}\n`);
    await write(bytes);
    await write("\n");
  };

  const t0 = performance.now();
  let mark = 0;
  let when = 1_600_000_000; // 2020-09-13, then ten minutes a commit
  const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(" ");

  async function commit(ref: string, from: number | undefined, binPath: string, textPath: string, n: number): Promise<number> {
    mark++;
    when += 600;
    const [name, email] = AUTHORS[Math.floor(rnd() * AUTHORS.length)]!;
    await write(`commit ${ref}\nmark :${mark}\n`);
    await write(`author ${name} <${email}> ${when} +0000\ncommitter ${name} <${email}> ${when} +0000\n`);
    await data(`${words(3 + Math.floor(rnd() * 6))} (#${n})\n\n${words(10 + Math.floor(rnd() * 30))}\n`);
    if (from !== undefined) await write(`from :${from}\n`);
    const size = Math.max(16, Math.floor(perCommit * (0.25 + 1.5 * rnd())));
    await write(`M 100644 inline ${binPath}\n`);
    await data(randomBytes(size));
    const lines = texts.get(textPath) ?? [];
    if (lines.length > 4 && rnd() < 0.5) lines[Math.floor(rnd() * lines.length)] = `${n}: ${words(8)}`;
    lines.push(`${n}: ${words(6 + Math.floor(rnd() * 8))}`);
    texts.set(textPath, lines);
    await write(`M 100644 inline ${textPath}\n`);
    await data(lines.join("\n") + "\n");
    return mark;
  }

  const forkEvery = Math.floor(mainCommits / (p.branches + 1));
  const tagEvery = Math.floor(mainCommits / (p.tags + 1));
  let forks = 0;
  let tags = 0;
  let n = 0;
  for (let i = 1; i <= mainCommits; i++) {
    const m = await commit("refs/heads/main", undefined, binPaths[Math.floor(rnd() * binPaths.length)]!, textPaths[Math.floor(rnd() * textPaths.length)]!, ++n);
    if (forks < p.branches && forkEvery > 0 && i % forkEvery === 0) {
      forks++;
      const ref = `refs/heads/feature/f${String(forks).padStart(2, "0")}`;
      let from: number | undefined = m;
      for (let k = 0; k < perFeature; k++) {
        await commit(ref, from, `feature/f${forks}/blob-${k % 5}.bin`, `feature/f${forks}/notes.txt`, ++n);
        from = undefined;
      }
    }
    if (tags < p.tags && tagEvery > 0 && i % tagEvery === 0) {
      tags++;
      await write(`tag v1.${tags}.0\nfrom :${m}\ntagger ${AUTHORS[0][0]} <${AUTHORS[0][1]}> ${when} +0000\n`);
      await data(`Release v1.${tags}.0\n\n${words(20)}\n`);
    }
    if (i % 2000 === 0) log(`  ${i}/${mainCommits} commits on main`);
  }
  await write("done\n");
  await sink.flush();
  sink.end();
  const code = await proc.exited;
  if (code !== 0) throw new Error(`git fast-import exited ${code}: ${await stderr}`);
  const generateSeconds = (performance.now() - t0) / 1000;
  log(`  fast-import: ${n} commits in ${generateSeconds.toFixed(1)} s; repacking with a bitmap ...`);

  const t1 = performance.now();
  await git(["repack", "-a", "-d", "-b", "-q", "--write-bitmap-index"], tmp);
  await git(["pack-refs", "--all"], tmp);
  const repackSeconds = (performance.now() - t1) / 1000;

  const packDir = join(tmp, "objects", "pack");
  const packBytes = readdirSync(packDir)
    .filter((f) => f.endsWith(".pack"))
    .reduce((a, f) => a + statSync(join(packDir, f)).size, 0);
  const objects = Number(/^in-pack: (\d+)/m.exec(await git(["count-objects", "-v"], tmp))?.[1] ?? NaN);
  const refs = (await git(["for-each-ref", "--format=%(refname)"], tmp)).trim().split("\n").length;
  const commits = Number((await git(["rev-list", "--all", "--count"], tmp)).trim());
  const info: GenInfo = { params: p, genVersion: GEN_VERSION, commits, refs, packBytes, objects, generateSeconds, repackSeconds };
  writeFileSync(join(tmp, "bench-gen.json"), JSON.stringify(info, null, 2) + "\n");
  rmSync(out, { recursive: true, force: true });
  renameSync(tmp, out);
  return info;
}

export function isGenerated(dir: string): boolean {
  return existsSync(join(dir, "bench-gen.json"));
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  const num = (name: string, def: number) => {
    const i = argv.indexOf(`--${name}`);
    return i < 0 ? def : Number(argv[i + 1]);
  };
  const out = argv.find((a, i) => !a.startsWith("--") && !(i > 0 && argv[i - 1]!.startsWith("--")));
  if (!out) {
    console.error("usage: bun bench/gen-repo.ts OUT.git [--commits N] [--mb N] [--branches N] [--tags N] [--seed N]");
    process.exit(2);
  }
  const params = { commits: num("commits", 20000), mib: num("mb", 200), branches: num("branches", 8), tags: num("tags", 20), seed: num("seed", 1) };
  const info = await generateRepo(out, params, console.log);
  console.log(JSON.stringify(info, null, 2));
}
