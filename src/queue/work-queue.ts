import { sqliteOf, writeTx, type DB, type Tx } from "../db/client.ts";
import { committed } from "../db/group-commit.ts";
import type { Logger } from "../lib/log.ts";
import {
  advanceQueueItem,
  advanceQueueItems,
  claimQueueItems,
  countQueueItems,
  countQueueItemsIn,
  deleteQueueItem,
  insertQueueItem,
  nextQueueItemDueMs,
  rescheduleQueueItem,
  withdrawQueueItem,
} from "../models/queue.ts";
import type { QueueItemRow } from "../db/schema/index.ts";

/** The item being run, as its handler sees it. */
export interface Job {
  id: number;
  /** Runs started for this item, this one included (a run cut short by a crash counts too). */
  attempts: number;
  /**
   * Settles the item inside the handler's own transaction (done, or `retryInMs`), so its outcome
   * and its writes commit together, in one commit instead of two; what the handler then returns
   * is ignored. Without it the queue settles the item after the handler returns.
   */
  complete(tx: Tx, result?: JobResult): void;
}

/**
 * What a handler answers: nothing (done, the item is deleted) or "run me again in `retryInMs`".
 * Giving up is the handler's call: it answers done. A handler that throws is retried by the
 * queue's own policy (backoff, then dropped after `maxAttempts`).
 */
export type JobResult = void | { retryInMs: number };

export type JobHandler<T> = (payload: T, job: Job) => Promise<JobResult>;

export interface QueueOptions {
  /** Items of this queue run at the same time, at most. */
  concurrency: number;
  /**
   * Items one worker claims at once and runs one after another, settling those done together in
   * one commit after the last: claiming and settling cost a commit each, more than a short run
   * itself. For a busy queue of short runs (the event bus's); a crash mid-batch runs every item of
   * the batch again, the finished ones too (still at least once).
   */
  batch: number;
  /**
   * With `batch`: how long a put waits before it wakes the workers, so the items put meanwhile
   * (by other requests) are claimed and settled together. The delay each item may add to its run.
   */
  gatherMs: number;
  /**
   * How long a claimed item stays reserved for its worker. Longer than any run can take: when it
   * runs out the item is claimable again (that is how a crash mid-run is recovered).
   */
  leaseMs: number;
  /** For a handler that throws: attempts after which the item is dropped (and logged). */
  maxAttempts: number;
  /** For a handler that throws: the wait before attempt `attempts + 1`. */
  backoffMs: (attempts: number) => number;
  /** Runs when the workers start, before the first claim (e.g. to queue work recorded elsewhere). */
  onStart?: () => void;
  /**
   * Looks for items at least this often while idle: for a queue that other processes put items on
   * (admin commands open the database themselves), whose puts cannot wake this process's workers.
   */
  pollMs?: number;
}

const DEFAULTS: QueueOptions = {
  concurrency: 4,
  batch: 1,
  gatherMs: 0,
  leaseMs: 5 * 60_000,
  maxAttempts: 10,
  backoffMs: (n) => Math.min(10_000 * 2 ** (n - 1), 3_600_000),
};

/** Timers are capped so a far-away item never overflows setTimeout (and a clock change is caught up). */
const MAX_TIMER_MS = 60 * 60_000;

interface Registered {
  name: string;
  handler: JobHandler<unknown>;
  options: QueueOptions;
  running: number;
}

/**
 * A persistent work queue over the queue_item table with in-process workers. Items are put inside
 * the caller's transaction, so a change and the work it calls for commit together or not at all.
 * A put wakes the workers (no polling); a timer waits for the next retry. Delivery is at least
 * once: an item is deleted only after its handler finished, so a crash leaves it leased until the
 * lease expires, then it runs again.
 */
export class WorkQueue {
  private readonly queues = new Map<string, Registered>();
  private started = false;
  private stopped = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Infinity;
  private wakeScheduled = false;
  /**
   * The queues that may have an item to claim: one that came up short of items is left out of the
   * next pumps until something is put on it, one of its runs ends, or a timer fires. A busy queue
   * (the event bus's, one run at a time) then pumps alone instead of every queue claiming in vain.
   */
  private readonly maybeDue = new Set<string>();
  private readonly inFlight = new Set<Promise<void>>();
  /** The queues whose puts wait out `gatherMs` before waking the workers, with that wait's timer. */
  private readonly gathering = new Map<string, ReturnType<typeof setTimeout>>();
  private idleWaiters: { queue?: string; resolve: () => void }[] = [];

  constructor(
    private readonly db: DB,
    private readonly log: Logger,
  ) {}

  /** Declares a queue and its handler; items of unregistered queues stay in the table untouched. */
  register<T>(name: string, handler: JobHandler<T>, options: Partial<QueueOptions> = {}): void {
    if (this.queues.has(name)) throw new Error(`queue ${name} is already registered`);
    const q: Registered = { name, handler: handler as JobHandler<unknown>, options: { ...DEFAULTS, ...options }, running: 0 };
    this.queues.set(name, q);
    if (this.started) {
      this.runOnStart(q);
      this.wake();
    }
  }

  /** Adds an item, in `tx` (the caller's transaction); it runs once that commits and it is due. */
  put(tx: Tx, queue: string, payload: unknown, opts: { delayMs?: number } = {}): number {
    const now = Date.now();
    const row = insertQueueItem(tx, queue, JSON.stringify(payload), now + (opts.delayMs ?? 0), now);
    // After the current synchronous work, so after the caller's transaction has committed.
    this.wakeAfterPut(queue);
    return row.id;
  }

  /**
   * Makes an item put with a delay due now, in `tx`: for work recorded early and held back until
   * the caller's later steps are done (if the caller dies first, the delay runs out instead).
   * Nothing happens to an item already running or gone.
   */
  release(tx: Tx, id: number): void {
    if (advanceQueueItem(tx, id, Date.now())) this.wake();
  }

  /** Withdraws an item not yet running, in `tx` (the work it stood for was undone). */
  withdraw(tx: Tx, id: number): void {
    withdrawQueueItem(tx, id, Date.now());
  }

  /** Starts the workers: items left from before (a restart, a crash) run now. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    for (const q of this.queues.values()) this.runOnStart(q);
    this.markAllDue();
    this.pump();
  }

  private runOnStart(q: Registered): void {
    try {
      q.options.onStart?.();
    } catch (err) {
      this.log.error(`work queue ${q.name}: start-up step failed`, { error: (err as Error).message });
    }
  }

  /** Stops claiming, and waits for the runs under way to finish. Items not yet run stay for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.gathering.values()) clearTimeout(t);
    this.gathering.clear();
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    this.resolveIdle();
    // The last runs' writes are stored before stop resolves, as a closing connection would.
    await this.stored();
  }

  /**
   * Resolves once nothing runs and no item is left, retries included, in `queue` (a registered
   * one), or in every registered queue without it (for tests and benchmarks; with long retry delays
   * this waits as long, see `hurry`). At once once stopped. What the work wrote is committed by then
   * (db/group-commit.ts), so other connections see it too.
   */
  async idle(queue?: string): Promise<void> {
    if (!this.stopped && !this.isIdle(queue)) await new Promise<void>((resolve) => this.idleWaiters.push({ queue, resolve }));
    // A failed commit is the failing writer's to report; idle only means nothing is left to wait for.
    await this.stored();
  }

  /**
   * Waits for the commit of the writes made so far (the server group-commits, db/group-commit.ts);
   * false if that commit failed and they are gone.
   */
  private stored(): Promise<boolean> {
    return committed(sqliteOf(this.db)).then(
      () => true,
      () => false,
    );
  }

  /**
   * Makes the items of `queue` that wait for a later run (a retry's delay) due now, and wakes the
   * workers: for a flush that should not wait out retry delays.
   */
  hurry(queue: string): void {
    advanceQueueItems(this.db, queue, Date.now());
    this.wake(queue);
  }

  private isIdle(queue?: string): boolean {
    if (queue !== undefined) return (this.queues.get(queue)?.running ?? 0) === 0 && countQueueItems(this.db, queue) === 0;
    return this.inFlight.size === 0 && countQueueItemsIn(this.db, [...this.queues.keys()]) === 0;
  }

  private resolveIdle(): void {
    if (this.idleWaiters.length === 0) return;
    const waiting: typeof this.idleWaiters = [];
    for (const w of this.idleWaiters) {
      if (this.stopped || this.isIdle(w.queue)) w.resolve();
      else waiting.push(w);
    }
    this.idleWaiters = waiting;
  }

  private markAllDue(): void {
    for (const name of this.queues.keys()) this.maybeDue.add(name);
  }

  /** Wakes the workers for a put: at once, or after the queue's `gatherMs` (one timer per queue at a time). */
  private wakeAfterPut(queue: string): void {
    const gatherMs = this.queues.get(queue)?.options.gatherMs ?? 0;
    if (gatherMs <= 0) return this.wake(queue);
    if (this.gathering.has(queue)) return;
    const timer = setTimeout(() => {
      this.gathering.delete(queue);
      this.wake(queue);
    }, gatherMs);
    timer.unref?.();
    this.gathering.set(queue, timer);
  }

  /**
   * Coalesces wake-ups: one pump per turn of the event loop, whatever the number of puts. `queue`:
   * only that queue may have gained an item; without it any may have.
   */
  private wake(queue?: string): void {
    if (queue === undefined) this.markAllDue();
    else this.maybeDue.add(queue);
    if (!this.started || this.stopped || this.wakeScheduled) return;
    this.wakeScheduled = true;
    setImmediate(() => {
      this.wakeScheduled = false;
      this.pump();
    });
  }

  /** Claims what is due, up to each queue's free capacity, runs it, and sets the timer for what is not due yet. */
  private pump(): void {
    if (!this.started || this.stopped) return;
    try {
      // Only a queue with room left after claiming has nothing due: then the timer is needed for
      // what comes later. A full queue is pumped again as its runs finish, so its items (a backlog
      // of thousands under load) are left out of the search for the next due time.
      const drained: string[] = [];
      for (const q of this.queues.values()) {
        if (!this.maybeDue.has(q.name)) continue;
        const free = q.options.concurrency - q.running;
        if (free <= 0) continue;
        const now = Date.now();
        const leaseUntil = now + q.options.leaseMs;
        const batch = Math.max(1, q.options.batch);
        const claimed = claimQueueItems(this.db, q.name, now, leaseUntil, free * batch);
        for (let i = 0; i < claimed.length; i += batch) this.run(q, claimed.slice(i, i + batch), leaseUntil);
        if (claimed.length < free * batch) {
          drained.push(q.name);
          this.maybeDue.delete(q.name);
        }
      }
      if (drained.length) this.armTimer(drained);
    } catch (err) {
      // The database is busy or closing: try again shortly rather than stall.
      this.log.error("work queue: claiming failed", { error: (err as Error).message });
      this.armTimer([], Date.now() + 1000);
    }
    this.resolveIdle();
  }

  /** Sets the timer for the next item of `queues` to become due (or for `at`), and for the queues' polls. */
  private armTimer(queues: string[], at?: number): void {
    const next = at ?? nextQueueItemDueMs(this.db, queues);
    const now = Date.now();
    if (next !== undefined && next <= now) {
      // Due now: either a queue is at capacity (a finishing run pumps again) or it was claimed in between.
      const hasRoom = [...this.queues.values()].some((q) => q.running < q.options.concurrency);
      if (hasRoom && this.inFlight.size === 0) this.wake();
      return;
    }
    const polls = [...this.queues.values()].flatMap((q) => (q.options.pollMs ? [now + q.options.pollMs] : []));
    const target = Math.min(next ?? Infinity, ...polls, now + MAX_TIMER_MS);
    if (next === undefined && polls.length === 0) return;
    if (this.timer && this.timerAt <= target) return;
    clearTimeout(this.timer);
    this.timerAt = target;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.markAllDue();
      this.pump();
    }, target - now);
    this.timer.unref?.();
  }

  /** Deletes a finished item, or puts it back for later; only while `leaseUntil` is still its lease. */
  private settle(tx: Tx, id: number, leaseUntil: number, result: JobResult): void {
    if (result && typeof result.retryInMs === "number") {
      rescheduleQueueItem(tx, id, leaseUntil, Date.now() + Math.max(0, result.retryInMs));
    } else {
      deleteQueueItem(tx, id, leaseUntil);
    }
  }

  /** Runs claimed items one after another in one slot of `q`, then settles what their handlers did not, in one commit. */
  private run(q: Registered, items: QueueItemRow[], leaseUntil: number): void {
    q.running++;
    const p = (async () => {
      // Nothing is acted on before its claim, and the put it was claimed from, are committed: a
      // change whose commit failed sets nothing off. A failed commit undid the claim too; what still
      // exists is claimed again.
      if (!(await this.stored())) return;
      const outcomes: { id: number; result: JobResult }[] = [];
      for (const item of items) {
        const outcome = await this.runOne(q, item, leaseUntil);
        if (outcome) outcomes.push(outcome);
      }
      if (outcomes.length === 0) return;
      try {
        writeTx(this.db, (tx) => {
          for (const o of outcomes) this.settle(tx, o.id, leaseUntil, o.result);
        });
      } catch (err) {
        // The lease will run out and the items run again: at least once, never lost.
        this.log.error(`work queue ${q.name}: could not record a run`, { ids: outcomes.map((o) => o.id), error: (err as Error).message });
      }
    })().finally(() => {
      q.running--;
      this.inFlight.delete(p);
      // Coalesced: runs finishing in the same turn share one claim (one commit) for what follows.
      if (!this.stopped) this.wake(q.name);
      this.resolveIdle();
    });
    this.inFlight.add(p);
  }

  /** Runs one item's handler; what is left to settle afterwards, or nothing if the handler settled it itself. */
  private async runOne(q: Registered, item: QueueItemRow, leaseUntil: number): Promise<{ id: number; result: JobResult } | undefined> {
    const { id, attempts } = item;
    let settled = false;
    const job: Job = {
      id,
      attempts,
      complete: (tx, result) => {
        if (settled) return;
        this.settle(tx, id, leaseUntil, result);
        settled = true;
      },
    };
    let result: JobResult;
    try {
      result = await q.handler(JSON.parse(item.payload), job);
    } catch (err) {
      if (settled) {
        this.log.error(`work queue ${q.name}: a run failed after settling its item`, { id, error: (err as Error)?.message ?? String(err) });
        return undefined;
      }
      if (attempts >= q.options.maxAttempts) {
        this.log.error(`work queue ${q.name}: giving up on an item`, { id, attempts, error: (err as Error)?.message ?? String(err) });
        result = undefined;
      } else {
        this.log.warn(`work queue ${q.name}: run failed, retrying`, { id, attempts, error: (err as Error)?.message ?? String(err) });
        result = { retryInMs: q.options.backoffMs(attempts) };
      }
    }
    return settled ? undefined : { id, result };
  }
}
