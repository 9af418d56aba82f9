/**
 * Package registry benchmark (issue 16): upload and download of a large generic package file
 * through hearth against `cp` of the same file on the same disk, and the server's peak memory
 * during both (it must stay bounded whatever the file's size: uploads stream to the blob store,
 * downloads stream from it).
 *
 *   bun bench/packages.ts [--mb 200] [--runs 3] [--binary PATH] [--no-write] [--keep]
 *
 * Uploads and downloads go through `curl` (a client process, as a user's would), on 127.0.0.1.
 * Peak memory is VmHWM-like: the highest VmRSS sampled every 20 ms during a transfer.
 */
import { mkdtempSync, readFileSync, copyFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { benchArgs } from "./lib/args.ts";
import { Cleanup } from "./lib/children.ts";
import { run, startHearth } from "./lib/hearth-server.ts";
import { median } from "./lib/measure.ts";
import { writeResultsSection } from "./lib/results.ts";

const args = benchArgs(process.argv.slice(2));
args.helpFrom(import.meta.path);
const O = {
  mb: args.integer("mb", 200),
  runs: args.integer("runs", 3),
  binary: args.flag("binary") ? resolve(args.string("binary", "")) : undefined,
  write: !args.flag("no-write"),
  keep: args.flag("keep"),
};
const cleanup = new Cleanup(O.keep);
const tmp = cleanup.dir(mkdtempSync(join(tmpdir(), "hearth-bench-packages-")));


const rssKiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);

/** Runs `f`, sampling the server's RSS every 20 ms; returns the wall time and the peak. */
async function watched(pid: number, f: () => Promise<unknown>): Promise<{ ms: number; peakMiB: number }> {
  let peak = rssKiB(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssKiB(pid))), 20);
  const t0 = performance.now();
  await f();
  const ms = performance.now() - t0;
  clearInterval(timer);
  return { ms, peakMiB: Math.max(peak, rssKiB(pid)) / 1024 };
}

// ---- hearth
const { base, token, server } = await startHearth(tmp, cleanup, O.binary);
await Bun.sleep(2000);
const idleMiB = rssKiB(server.pid) / 1024;

// ---- the file: random bytes, so nothing compresses or dedupes
const file = join(tmp, "payload.bin");
{
  const chunk = new Uint8Array(1024 * 1024);
  const sink = Bun.file(file).writer();
  for (let i = 0; i < O.mb; i++) {
    crypto.getRandomValues(chunk.subarray(0, 65536));
    for (let off = 65536; off < chunk.length; off += 65536) chunk.copyWithin(off, 0, 65536);
    chunk[0] = i & 255;
    sink.write(chunk);
  }
  await sink.end();
}

const cp: number[] = [];
const up: { ms: number; peakMiB: number }[] = [];
const down: { ms: number; peakMiB: number }[] = [];
for (let r = 0; r < O.runs; r++) {
  const t0 = performance.now();
  copyFileSync(file, join(tmp, "copy.bin"));
  cp.push(performance.now() - t0);
  rmSync(join(tmp, "copy.bin"));
  const url = `${base}/api/packages/bench/generic/payload/${r + 1}.0.0/payload.bin`;
  up.push(await watched(server.pid, () => run(["curl", "-sSf", "-o", "/dev/null", "-H", `Authorization: token ${token}`, "-T", file, url])));
  down.push(await watched(server.pid, () => run(["curl", "-sSf", "-o", join(tmp, "down.bin"), url])));
  rmSync(join(tmp, "down.bin"));
}

const mbps = (ms: number) => (O.mb / (ms / 1000)).toFixed(0);
const cpMs = median(cp);
const upMs = median(up.map((x) => x.ms));
const downMs = median(down.map((x) => x.ms));
const section = [
  "<!-- packages:begin -->",
  `## Package registries (\`bun bench/packages.ts${O.binary ? " --binary dist/hearth" : ""}\`)`,
  "",
  `Run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC: a ${O.mb} MB file of random bytes through the generic registry with curl on 127.0.0.1, medians of ${O.runs} runs, against \`cp\` of the same file on the same disk; the server's RSS sampled every 20 ms (idle before: ${idleMiB.toFixed(1)} MiB).`,
  "",
  "| | time | MB/s | ratio to cp | server peak RSS |",
  "|---|---|---|---|---|",
  `| cp | ${cpMs.toFixed(0)} ms | ${mbps(cpMs)} | 1.00× | |`,
  `| upload (PUT) | ${upMs.toFixed(0)} ms | ${mbps(upMs)} | ${(upMs / cpMs).toFixed(2)}× | ${Math.max(...up.map((x) => x.peakMiB)).toFixed(1)} MiB |`,
  `| download (GET) | ${downMs.toFixed(0)} ms | ${mbps(downMs)} | ${(downMs / cpMs).toFixed(2)}× | ${Math.max(...down.map((x) => x.peakMiB)).toFixed(1)} MiB |`,
  "<!-- packages:end -->",
].join("\n");
console.log(section);
if (O.write) writeResultsSection("packages", section);

// The server child keeps the event loop alive: leave now (Cleanup stops it on exit).
process.exit(0);
