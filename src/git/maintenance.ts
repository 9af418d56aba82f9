import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { git } from "./exec.ts";

/**
 * Repacks into one pack with a reachability bitmap: a repository received by push has none, and
 * without it every clone walks the whole history (STACK-NOTES: 1.2-1.4x slower, 5x the memory).
 */
export async function repackWithBitmaps(gitDir: string): Promise<void> {
  await git(["repack", "-a", "-d", "-b", "-q", "--write-bitmap-index"], { gitDir, timeoutMs: 30 * 60_000 });
  await git(["pack-refs", "--all"], { gitDir });
}

/** Whether the repository is still there: it may have been deleted between a push and its housekeeping. */
export const repoExists = (gitDir: string): boolean => existsSync(join(gitDir, "objects"));

/** The moved refs are packed again, which a skipped repack would otherwise have done. */
export async function packRefs(gitDir: string): Promise<void> {
  await git(["pack-refs", "--all"], { gitDir });
}

interface PackFile {
  name: string;
  bytes: number;
  mtimeMs: number;
}

function packDirFiles(gitDir: string): PackFile[] {
  const dir = join(gitDir, "objects", "pack");
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: PackFile[] = [];
  for (const name of names) {
    try {
      const st = statSync(join(dir, name));
      out.push({ name, bytes: st.size, mtimeMs: st.mtimeMs });
    } catch {
      // Removed by a concurrent repack between the listing and the stat.
    }
  }
  return out;
}

/**
 * Bytes of the packs written after the newest reachability bitmap (a pack's own or a
 * multi-pack-index's): what a clone would enumerate object by object. Judged by modification time,
 * so a pack that lands while a bitmap is being written counts as covered and waits for the repack.
 */
export function unbitmappedPackBytes(gitDir: string): number {
  const files = packDirFiles(gitDir);
  const newestBitmap = Math.max(-Infinity, ...files.filter((f) => f.name.endsWith(".bitmap")).map((f) => f.mtimeMs));
  return files.filter((f) => f.name.endsWith(".pack") && f.mtimeMs > newestBitmap).reduce((sum, f) => sum + f.bytes, 0);
}

/**
 * A reachability bitmap over the packs as they are, through a multi-pack-index: no pack is
 * rewritten, so it costs one walk of the objects (0.7 s of CPU for the 200 MiB benchmark
 * repository) where a repack costs 1.8 s and rewrites the pack (bench/RESULTS.md, transport
 * levers). A later `repack -a -d` replaces it with a pack bitmap.
 * The delta base cache is held to 16 MiB (git's default is 96): the walk ran no slower, and the
 * writer's heap dropped from ~110 to ~60 MiB (bench/README.md).
 */
export async function writeMultiPackBitmap(gitDir: string): Promise<void> {
  await git(["-c", "core.deltaBaseCacheLimit=16m", "multi-pack-index", "write", "--bitmap", "--no-progress"], {
    gitDir,
    timeoutMs: 30 * 60_000,
  });
}

/**
 * Whether `repackWithBitmaps` would change anything: it would not for a single pack already
 * covered by a bitmap with no loose objects beside it (a first push whose bitmap was written
 * right after it).
 */
export async function needsRepack(gitDir: string): Promise<boolean> {
  const files = packDirFiles(gitDir);
  const packs = files.filter((f) => f.name.endsWith(".pack"));
  if (packs.length !== 1 || unbitmappedPackBytes(gitDir) > 0 || !files.some((f) => f.name.endsWith(".bitmap"))) return true;
  const counts = await git(["count-objects", "-v"], { gitDir });
  return !/^count: 0$/m.test(counts) || !/^packs: 1$/m.test(counts);
}

/** Bytes the repository's objects take on disk (git count-objects). */
export async function repoSizeBytes(gitDir: string): Promise<number> {
  const out = await git(["count-objects", "-v"], { gitDir });
  let kib = 0;
  for (const line of out.split("\n")) {
    const [key, value] = line.split(": ");
    if (key === "size" || key === "size-pack") kib += Number(value) || 0;
  }
  return kib * 1024;
}
