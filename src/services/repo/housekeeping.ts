import type { Env } from "../env.ts";
import { needsRepack, packRefs, repackWithBitmaps, repoExists, unbitmappedPackBytes, writeMultiPackBitmap } from "../../git/maintenance.ts";

/** How long after the last push a repository is repacked: bursts of pushes cost one repack. */
const DEBOUNCE_MS = 30_000;

/**
 * How long a clone waits for a bitmap being written after a push before it packs without one.
 * The wait costs little: the bitmap write is one walk of the objects, which is what the clone
 * would do first without it.
 */
const BITMAP_WAIT_MS = 60_000;

/**
 * Background repacking after pushes, one repository at a time, debounced per repository; and,
 * for a push that brings a large pack, a reachability bitmap at once.
 * In-process on purpose: if the process stops, the next push or the daily pass catches up.
 */
export class Housekeeper {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private chain: Promise<void> = Promise.resolve();
  /** Bitmaps written right after pushes, one at a time, apart from the repacks (which can take minutes). */
  private bitmapChain: Promise<void> = Promise.resolve();
  /** The pending or running bitmap write of each repository, which its clones wait for. */
  private readonly bitmaps = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(
    private readonly log: Env["log"],
    private readonly delayMs = DEBOUNCE_MS,
  ) {}

  schedule(gitDir: string): void {
    if (this.stopped) return;
    clearTimeout(this.timers.get(gitDir));
    const timer = setTimeout(() => {
      this.timers.delete(gitDir);
      this.chain = this.chain.then(() => this.run(gitDir));
    }, this.delayMs);
    timer.unref?.();
    this.timers.set(gitDir, timer);
  }

  /**
   * Writes a bitmap now when at least `minBytes` of the repository's packs have none (a first
   * push of a large repository): without it, each clone until the repack enumerates every object
   * (the 200 MiB benchmark repository: 1.2-1.3x the time, ~100 MiB more memory per clone).
   */
  bitmapIfUncovered(gitDir: string, minBytes: number): void {
    if (this.stopped || minBytes < 0 || this.bitmaps.has(gitDir)) return;
    const uncovered = unbitmappedPackBytes(gitDir);
    if (uncovered === 0 || uncovered < minBytes) return;
    const job = this.bitmapChain.then(async () => {
      try {
        await writeMultiPackBitmap(gitDir);
      } catch (err) {
        this.log.warn("bitmap after push failed", { repo: gitDir, error: (err as Error).message });
      } finally {
        this.bitmaps.delete(gitDir);
      }
    });
    this.bitmaps.set(gitDir, job);
    this.bitmapChain = job;
  }

  /** Resolves when no bitmap is being written for the repository (or after BITMAP_WAIT_MS). */
  bitmapSettled(gitDir: string): Promise<void> {
    const job = this.bitmaps.get(gitDir);
    if (!job) return Promise.resolve();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, BITMAP_WAIT_MS)));
    return Promise.race([job, timeout]).finally(() => clearTimeout(timer));
  }

  /** Runs now, in the same queue (the daily pass and tests). */
  runNow(gitDir: string): Promise<void> {
    this.chain = this.chain.then(() => this.run(gitDir));
    return this.chain;
  }

  private async run(gitDir: string): Promise<void> {
    try {
      // Never beside the bitmap write of the same repository: the repack deletes the packs it reads.
      await this.bitmaps.get(gitDir);
      if (!repoExists(gitDir)) return;
      if (await needsRepack(gitDir)) await repackWithBitmaps(gitDir);
      else await packRefs(gitDir);
    } catch (err) {
      this.log.warn("repack failed", { repo: gitDir, error: (err as Error).message });
    }
  }

  /** Cancels pending repacks and waits for a running one and for the bitmaps under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await Promise.all([this.chain, this.bitmapChain]);
  }
}

/** After a push: a bitmap at once if the push left a large pack without one, and a repack later. */
export function scheduleHousekeeping(env: Env, gitDir: string): void {
  const minMiB = env.settings.repository.bitmapAfterPushMinMiB;
  env.housekeeper.bitmapIfUncovered(gitDir, minMiB < 0 ? -1 : minMiB * 2 ** 20);
  env.housekeeper.schedule(gitDir);
}

/** For a clone or fetch: lets a bitmap being written after a push finish first (bounded wait). */
export function bitmapSettled(env: Env, gitDir: string): Promise<void> {
  return env.housekeeper.bitmapSettled(gitDir);
}
