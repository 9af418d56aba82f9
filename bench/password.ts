/**
 * Password hashing cost: @node-rs/argon2 (what src/crypto/password.ts uses) against Bun.password,
 * both argon2id with 64 MiB memory, 2 passes, 1 lane (Gitea's defaults).
 *
 *   bun bench/password.ts [--iterations N] [--json]
 *
 * @node-rs/argon2 is looked up in the project's node_modules, then in /tmp/argon-bench
 * (`npm install --prefix /tmp/argon-bench @node-rs/argon2`); when neither has it, only Bun.password
 * is measured.
 */
import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";

const PARAMS = { memoryCost: 65536, timeCost: 2, parallelism: 1 } as const;
const PASSWORD = "benchpass123";

export interface HashImpl {
  name: string;
  version: string;
  hash(pw: string): Promise<string>;
  verify(hash: string, pw: string): Promise<boolean>;
}

export interface ImplResult {
  name: string;
  version: string;
  sample: string;
  hashMs: { median: number; min: number; max: number };
  verifyMs: { median: number; min: number; max: number };
  /** Hashes per second with `concurrency` hashes in flight. */
  concurrentHashesPerSec: number;
  concurrency: number;
  /** Peak RSS of this process after the implementation ran, MiB (cumulative). */
  rssMiB: number;
}

export interface PasswordReport {
  params: typeof PARAMS & { algorithm: "argon2id" };
  iterations: number;
  results: ImplResult[];
  crossVerify?: { bunVerifiesNodeRs: boolean; nodeRsVerifiesBun: boolean };
  nodeRsMissing?: string;
}

const bunImpl: HashImpl = {
  name: "Bun.password",
  version: `bun ${Bun.version}`,
  hash: (pw) => Bun.password.hash(pw, { algorithm: "argon2id", memoryCost: PARAMS.memoryCost, timeCost: PARAMS.timeCost }),
  verify: (hash, pw) => Bun.password.verify(pw, hash),
};

function loadNodeRs(): HashImpl | string {
  // Only directories that really hold the package: requiring a missing package from a directory
  // without node_modules would let Bun auto-install it from the registry.
  const candidates = [
    { dir: join(import.meta.dir, ".."), label: "project node_modules" },
    { dir: "/tmp/argon-bench", label: "/tmp/argon-bench" },
  ].filter((c) => existsSync(join(c.dir, "node_modules", "@node-rs", "argon2", "package.json")));
  const errors: string[] = [];
  for (const c of candidates) {
    try {
      const req = createRequire(join(c.dir, "node_modules", "@node-rs", "argon2", "package.json"));
      const mod = req("./") as {
        hash(pw: string, o: object): Promise<string>;
        verify(h: string, pw: string): Promise<boolean>;
      };
      const version = (req("./package.json") as { version: string }).version;
      return {
        name: "@node-rs/argon2",
        version: `${version}, from ${c.label}`,
        // Algorithm.Argon2id === 2 in @node-rs/argon2's const enum.
        hash: (pw) => mod.hash(pw, { algorithm: 2, ...PARAMS }),
        verify: (h, pw) => mod.verify(h, pw),
      };
    } catch (e) {
      errors.push(`${c.label}: ${(e as Error).message.split("\n")[0]}`);
    }
  }
  return (
    `@node-rs/argon2 not available${errors.length ? ` (${errors.join("; ")})` : ""}; ` +
    "install it outside the repository with: npm install --prefix /tmp/argon-bench @node-rs/argon2"
  );
}

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)]!, min: s[0]!, max: s[s.length - 1]! };
}

async function measure(impl: HashImpl, iterations: number): Promise<ImplResult> {
  // Warm-up: first call allocates the 64 MiB block and any thread pool.
  const sample = await impl.hash(PASSWORD);
  if (!(await impl.verify(sample, PASSWORD))) throw new Error(`${impl.name}: verify of its own hash failed`);
  if (await impl.verify(sample, PASSWORD + "x")) throw new Error(`${impl.name}: verify accepted a wrong password`);

  const hashTimes: number[] = [];
  const verifyTimes: number[] = [];
  for (let i = 0; i < iterations; i++) {
    let t = performance.now();
    const h = await impl.hash(PASSWORD);
    hashTimes.push(performance.now() - t);
    t = performance.now();
    await impl.verify(h, PASSWORD);
    verifyTimes.push(performance.now() - t);
  }
  const concurrency = Math.max(2, availableParallelism());
  const batch = concurrency * 2;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: batch }, () => impl.hash(PASSWORD)));
  const concurrentHashesPerSec = batch / ((performance.now() - t0) / 1000);
  return {
    name: impl.name,
    version: impl.version,
    sample,
    hashMs: stats(hashTimes),
    verifyMs: stats(verifyTimes),
    concurrentHashesPerSec,
    concurrency,
    rssMiB: process.memoryUsage().rss / 1048576,
  };
}

export async function runPasswordBench(iterations = 10): Promise<PasswordReport> {
  const report: PasswordReport = { params: { algorithm: "argon2id", ...PARAMS }, iterations, results: [] };
  const bunResult = await measure(bunImpl, iterations);
  report.results.push(bunResult);
  const nodeRs = loadNodeRs();
  if (typeof nodeRs === "string") {
    report.nodeRsMissing = nodeRs;
  } else {
    const r = await measure(nodeRs, iterations);
    report.results.push(r);
    report.crossVerify = {
      bunVerifiesNodeRs: await bunImpl.verify(r.sample, PASSWORD),
      nodeRsVerifiesBun: await nodeRs.verify(bunResult.sample, PASSWORD),
    };
  }
  return report;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const i = args.indexOf("--iterations");
  const iterations = i >= 0 ? Number(args[i + 1]) : 10;
  const report = await runPasswordBench(iterations);
  if (args.includes("--json")) {
    console.log(JSON.stringify(report));
  } else {
    for (const r of report.results) {
      console.log(
        `${r.name} ${r.version}: hash ${r.hashMs.median.toFixed(1)} ms (min ${r.hashMs.min.toFixed(1)}, max ${r.hashMs.max.toFixed(1)}), ` +
          `verify ${r.verifyMs.median.toFixed(1)} ms, ${r.concurrentHashesPerSec.toFixed(1)} hashes/s with ${r.concurrency * 2} in flight`,
      );
      console.log(`  ${r.sample.slice(0, r.sample.lastIndexOf("$"))}$…`);
    }
    if (report.crossVerify) console.log("cross-verify:", report.crossVerify);
    if (report.nodeRsMissing) console.log(report.nodeRsMissing);
  }
}
