import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, writeTx, type Database_ } from "../../src/db/client.ts";
import { createLogger } from "../../src/lib/log.ts";
import { WorkQueue, type Job } from "../../src/queue/work-queue.ts";
import { claimQueueItems, countQueueItems } from "../../src/models/queue.ts";
import { queueItems } from "../../src/db/schema/index.ts";

const dir = mkdtempSync(join(tmpdir(), "hearth-queue-"));
const opened: Database_[] = [];
const queues: WorkQueue[] = [];
afterAll(async () => {
  for (const q of queues) await q.stop();
  for (const d of opened) d.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
/** A fresh database file (or the one given) and a queue over it. */
function setup(path = join(dir, `q${++n}.db`)) {
  const database = openDatabase(path);
  opened.push(database);
  const queue = new WorkQueue(database.db, createLogger("none"));
  queues.push(queue);
  return { path, db: database.db, queue };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("persistent work queue", () => {
  test("an item put in a committed transaction runs at once (woken, not polled); a rolled-back one never", async () => {
    const { db, queue } = setup();
    const seen: { v: number; at: number }[] = [];
    queue.register<{ v: number }>("t", async (p) => {
      seen.push({ v: p.v, at: Date.now() });
    });
    queue.start();
    expect(() =>
      writeTx(db, (tx) => {
        queue.put(tx, "t", { v: 1 });
        throw new Error("rollback");
      }),
    ).toThrow("rollback");
    writeTx(db, (tx) => queue.put(tx, "t", { v: 2 }));
    await queue.idle();
    expect(seen.map((s) => s.v)).toEqual([2]);
    expect(countQueueItems(db, "t")).toBe(0);
  });

  test("a failing run is retried after its backoff, with the attempt count, and dropped after maxAttempts", async () => {
    const { db, queue } = setup();
    const runs: { attempts: number; at: number }[] = [];
    queue.register<object>(
      "t",
      async (_p, job: Job) => {
        runs.push({ attempts: job.attempts, at: Date.now() });
        throw new Error("receiver down");
      },
      { maxAttempts: 3, backoffMs: (k) => 40 * k },
    );
    queue.start();
    writeTx(db, (tx) => queue.put(tx, "t", {}));
    await queue.idle();
    expect(runs.map((r) => r.attempts)).toEqual([1, 2, 3]);
    // Waits of 40 ms then 80 ms (timers may fire a little early or late; never much earlier).
    expect(runs[1]!.at - runs[0]!.at).toBeGreaterThanOrEqual(35);
    expect(runs[2]!.at - runs[1]!.at).toBeGreaterThanOrEqual(75);
    expect(countQueueItems(db, "t")).toBe(0);
  });

  test("the handler decides: `retryInMs` reschedules, a plain return finishes", async () => {
    const { db, queue } = setup();
    const runs: number[] = [];
    queue.register<object>("t", async (_p, job) => {
      runs.push(job.attempts);
      return job.attempts < 4 ? { retryInMs: 5 } : undefined;
    });
    queue.start();
    writeTx(db, (tx) => queue.put(tx, "t", {}));
    await queue.idle();
    expect(runs).toEqual([1, 2, 3, 4]);
  });

  test("a delayed item waits for its time", async () => {
    const { db, queue } = setup();
    let ranAt = 0;
    queue.register<object>("t", async () => {
      ranAt = Date.now();
    });
    queue.start();
    const putAt = Date.now();
    writeTx(db, (tx) => queue.put(tx, "t", {}, { delayMs: 120 }));
    await queue.idle();
    expect(ranAt - putAt).toBeGreaterThanOrEqual(115);
  });

  test("concurrency is bounded per queue", async () => {
    const { db, queue } = setup();
    let running = 0;
    let most = 0;
    let done = 0;
    queue.register<object>(
      "t",
      async () => {
        running++;
        most = Math.max(most, running);
        await sleep(15);
        running--;
        done++;
      },
      { concurrency: 3 },
    );
    queue.start();
    writeTx(db, (tx) => {
      for (let i = 0; i < 10; i++) queue.put(tx, "t", { i });
    });
    await queue.idle();
    expect(done).toBe(10);
    expect(most).toBe(3);
  });

  test("a batch runs its items one after another in order; each is settled by its own outcome; a crash mid-batch runs them all again", async () => {
    const { db, queue } = setup();
    const seen: number[] = [];
    let running = 0;
    let most = 0;
    queue.register<{ i: number }>(
      "t",
      async ({ i }, job) => {
        running++;
        most = Math.max(most, running);
        await sleep(1);
        running--;
        seen.push(i);
        if (i === 2 && job.attempts === 1) throw new Error("once");
        if (i === 3 && job.attempts === 1) return { retryInMs: 30 };
        if (i === 4) writeTx(db, (tx) => job.complete(tx));
      },
      { concurrency: 1, batch: 4, backoffMs: () => 20 },
    );
    writeTx(db, (tx) => {
      for (let i = 0; i < 7; i++) queue.put(tx, "t", { i });
    });
    queue.start();
    await queue.idle();
    expect(most).toBe(1);
    // 0..6 in order, then the failed 2 after its backoff and the rescheduled 3 after its delay; the
    // others (4 settled in its own transaction) ran once.
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 2, 3]);
    expect(countQueueItems(db, "t")).toBe(0);
  }, 5000);

  test("with gatherMs, items put one by one within the wait are claimed together (one lease)", async () => {
    const { db, queue } = setup();
    const leases: number[] = [];
    queue.register<{ i: number }>(
      "t",
      async (_p, job) => {
        const row = db.select().from(queueItems).all().find((r) => r.id === job.id)!;
        leases.push(row.leasedUntilMs);
      },
      { concurrency: 1, batch: 8, gatherMs: 40 },
    );
    queue.start();
    for (let i = 0; i < 3; i++) {
      writeTx(db, (tx) => queue.put(tx, "t", { i }));
      await sleep(2);
    }
    await queue.idle();
    expect(leases).toHaveLength(3);
    expect(new Set(leases).size).toBe(1);
  });

  test("items claimed in one batch by a worker that died all run again when the lease runs out", async () => {
    const { path, db } = setup();
    writeTx(db, (tx) => {
      const dead = new WorkQueue(db, createLogger("none"));
      for (let i = 0; i < 3; i++) dead.put(tx, "t", { i });
    });
    // The dead worker's claim: three items leased until a moment from now, none settled.
    expect(claimQueueItems(db, "t", Date.now(), Date.now() + 50, 3)).toHaveLength(3);
    const { queue } = setup(path);
    const seen: number[] = [];
    queue.register<{ i: number }>("t", async ({ i }) => void seen.push(i), { concurrency: 1, batch: 8, pollMs: 20 });
    queue.start();
    await sleep(150);
    await queue.idle();
    expect(seen).toEqual([0, 1, 2]);
  });

  test("a queue with pollMs runs items another process put (which cannot wake it) without a restart", async () => {
    const server = setup();
    const ran: number[] = [];
    server.queue.register<{ i: number }>(
      "t",
      async (p) => {
        ran.push(p.i);
      },
      { pollMs: 20 },
    );
    server.queue.start();
    await server.queue.idle();
    // An admin command: its own connection and queue over the same file, workers never started.
    const admin = setup(server.path);
    admin.queue.register("t", async () => {});
    writeTx(admin.db, (tx) => admin.queue.put(tx, "t", { i: 7 }));
    await server.queue.idle("t");
    expect(ran).toEqual([7]);
  });

  test("stop() waits for the run under way; items not run stay and run at the next start (a restart)", async () => {
    const first = setup();
    const ran: number[] = [];
    let release!: () => void;
    first.queue.register<{ i: number }>(
      "t",
      async (p) => {
        if (p.i === 0) await new Promise<void>((r) => (release = r));
        ran.push(p.i);
      },
      { concurrency: 1 },
    );
    first.queue.start();
    writeTx(first.db, (tx) => {
      for (let i = 0; i < 3; i++) first.queue.put(tx, "t", { i });
    });
    await sleep(20);
    const stopped = first.queue.stop();
    let stopDone = false;
    void stopped.then(() => (stopDone = true));
    await sleep(20);
    expect(stopDone).toBe(false);
    release();
    await stopped;
    expect(ran).toEqual([0]);
    expect(countQueueItems(first.db, "t")).toBe(2);

    const second = setup(first.path);
    second.queue.register<{ i: number }>("t", async (p) => {
      ran.push(p.i);
    });
    second.queue.start();
    await second.queue.idle();
    expect(ran.sort()).toEqual([0, 1, 2]);
  });

  test("an item leased by a worker that died runs again once the lease expires, not before", async () => {
    const { db, queue, path } = setup();
    writeTx(db, (tx) => queue.put(tx, "t", { x: 1 }));
    // A process claims it with a 250 ms lease, then crashes mid-run.
    const claimedAt = Date.now();
    expect(claimQueueItems(db, "t", claimedAt, claimedAt + 250, 10)).toHaveLength(1);

    const restarted = setup(path);
    const runs: { at: number; attempts: number }[] = [];
    restarted.queue.register<object>("t", async (_p, job) => {
      runs.push({ at: Date.now(), attempts: job.attempts });
    });
    restarted.queue.start();
    await sleep(100);
    expect(runs).toEqual([]);
    await restarted.queue.idle();
    expect(runs).toHaveLength(1);
    expect(runs[0]!.at - claimedAt).toBeGreaterThanOrEqual(245);
    // The crashed run counts as an attempt.
    expect(runs[0]!.attempts).toBe(2);
  });

  test("items of a queue nobody registered are left alone", async () => {
    const { db, queue } = setup();
    queue.register<object>("mine", async () => {});
    queue.start();
    writeTx(db, (tx) => {
      queue.put(tx, "mine", {});
      queue.put(tx, "theirs", {});
    });
    await queue.idle();
    expect(countQueueItems(db, "mine")).toBe(0);
    expect(db.select().from(queueItems).all().map((r) => r.queue)).toEqual(["theirs"]);
  });
});
