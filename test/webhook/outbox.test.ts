import { describe, expect, test } from "bun:test";
import { and, eq, sql } from "drizzle-orm";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { openDatabase, writeTx } from "../../src/db/client.ts";
import { hookTasks, issues, queueItems, type RepoRow, type UserRow } from "../../src/db/schema/index.ts";
import { createLogger } from "../../src/lib/log.ts";
import type { Env } from "../../src/services/env.ts";
import { composeEnv } from "../../src/compose.ts";
import { claimQueueItems } from "../../src/models/queue.ts";
import { EVENTS_QUEUE, HOLD_MS, releaseEvent } from "../../src/services/events/bus.ts";
import { issueEvents } from "../../src/services/events/issue-events.ts";
import { repoEvents } from "../../src/services/events/repo-events.ts";
import { addHook, repoRow, startReceiver } from "./receiver.ts";

/**
 * No webhook event is lost on a crash: an event is recorded in the transaction of its change (an
 * events-queue item), so it exists exactly when the change committed, and reaches the hooks from
 * whichever process runs the queue next. The faults are injected at the exact point between the
 * change's commit and the hook task's record, not hoped for.
 */

const INI = "[webhook]\nALLOWED_HOST_LIST = loopback\n";
const receiver = startReceiver();

interface Setup {
  t: ReturnType<typeof makeTestApp>;
  owner: UserRow;
  token: string;
  repo: RepoRow;
  hookId: number;
}

/** A test instance with a repository and a hook that wants every event, its own events settled. */
async function setup(name: string): Promise<Setup> {
  const t = makeTestApp(INI);
  const owner = await t.user(name);
  const token = t.token(owner);
  await t.ok("POST", "/api/v1/user/repos", token, { name: "r" }, 201);
  await t.env.queue.idle();
  const repo = repoRow(t.env, owner, "r");
  const hookId = addHook(t.env, { repoId: repo.id }, { url: `${receiver.url}/outbox` }).id;
  return { t, owner, token, repo, hookId };
}

/** The hook's tasks in the order they were recorded: event type and the payload's action and number. */
function tasksOf(env: Env, hookId: number): [string, string, number][] {
  return env.db
    .select()
    .from(hookTasks)
    .where(eq(hookTasks.hookId, hookId))
    .orderBy(hookTasks.id)
    .all()
    .map((task) => {
      const payload = JSON.parse(task.payloadContent);
      return [task.eventType, payload.action, payload.issue?.number ?? payload.number];
    });
}

const eventItems = (env: Env) => env.db.select().from(queueItems).where(eq(queueItems.queue, EVENTS_QUEUE)).all();

/** The server started again on the same database: its workers run what the last one left, then stop. */
async function nextProcess(s: Setup): Promise<Env> {
  const database = openDatabase(s.t.settings.database.path);
  const env = composeEnv(s.t.settings, database.db, createLogger("none"));
  env.queue.start();
  await env.queue.idle();
  await env.queue.stop();
  database.close();
  return env;
}

describe("an event survives the process that recorded it", () => {
  test("killed (SIGKILL) right after an issue was created through the API, before its hook task: the next process records it", async () => {
    const s = await setup("killed");
    // This process's workers must not pick up what the child records: only the restarted server does.
    await s.t.env.queue.stop();
    const child = Bun.spawn([process.execPath, join(import.meta.dir, "crash-child.ts"), s.t.dir, INI, `${s.owner.name}/r`, s.token], {
      stdout: "pipe",
      stderr: "pipe",
    });
    const code = await child.exited;
    const answered = (await new Response(child.stdout).text()).trim();
    expect({ signal: child.signalCode, code, stderr: code === 3 ? await new Response(child.stderr).text() : "" }).toEqual({
      signal: "SIGKILL",
      code: 137,
      stderr: "",
    });
    // What the old code lost: the issue committed (and the client may have been told 201), no hook task.
    expect(["", "201"]).toContain(answered);
    const created = s.t.env.db.select().from(issues).where(eq(issues.repoId, s.repo.id)).all();
    expect(created.map((i) => i.title)).toEqual(["created just before the crash"]);
    expect(tasksOf(s.t.env, s.hookId)).toEqual([]);
    // The dead worker's lease on the event is left behind; it is claimable again once it runs out.
    const [item] = eventItems(s.t.env);
    expect(item!.leasedUntilMs).toBeGreaterThan(Date.now());
    s.t.env.db.update(queueItems).set({ leasedUntilMs: 0 }).where(eq(queueItems.id, item!.id)).run();

    const before = receiver.got.length;
    await nextProcess(s);
    expect(tasksOf(s.t.env, s.hookId)).toEqual([["issues", "opened", created[0]!.index]]);
    expect(eventItems(s.t.env)).toEqual([]);
    expect(receiver.got.slice(before).map((r) => JSON.parse(r.body).issue.title)).toEqual(["created just before the crash"]);
  });

  test("stopped before its workers ran: every event it recorded reaches the hook after the next start, in commit order", async () => {
    const s = await setup("stopped");
    await s.t.env.queue.stop();
    const api = `/api/v1/repos/${s.owner.name}/r/issues`;
    const one = await s.t.ok("POST", api, s.token, { title: "one" }, 201);
    await s.t.ok("POST", `${api}/${one.number}/comments`, s.token, { body: "first comment" }, 201);
    const two = await s.t.ok("POST", api, s.token, { title: "two" }, 201);
    await s.t.ok("PATCH", `${api}/${one.number}`, s.token, { state: "closed" }, 201);
    // Committed, recorded, not yet told to anyone.
    expect(eventItems(s.t.env)).toHaveLength(4);
    expect(tasksOf(s.t.env, s.hookId)).toEqual([]);

    await nextProcess(s);
    expect(tasksOf(s.t.env, s.hookId)).toEqual([
      ["issues", "opened", one.number],
      ["issue_comment", "created", one.number],
      ["issues", "opened", two.number],
      ["issues", "closed", one.number],
    ]);
  });
});

describe("an event commits with its change, or not at all", () => {
  test("a change whose transaction rolls back after announcing records no event; the same change committed does", async () => {
    const s = await setup("rollback");
    const api = `/api/v1/repos/${s.owner.name}/r/issues`;
    // The fault: the transaction fails right after the event was put in it.
    s.t.env.db.run(
      sql.raw(`CREATE TRIGGER fail_after_event AFTER INSERT ON queue_item WHEN NEW.queue = '${EVENTS_QUEUE}' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`),
    );
    const failed = await s.t.json("POST", api, { token: s.token, body: { title: "rolled back" } });
    s.t.env.db.run(sql.raw("DROP TRIGGER fail_after_event"));
    expect(failed.status).toBe(500);
    expect(s.t.env.db.select().from(issues).where(eq(issues.repoId, s.repo.id)).all()).toEqual([]);
    expect(eventItems(s.t.env)).toEqual([]);

    const saved = await s.t.ok("POST", api, s.token, { title: "committed" }, 201);
    await s.t.env.queue.idle();
    expect(tasksOf(s.t.env, s.hookId)).toEqual([["issues", "opened", saved.number]]);
  });

  test("an event announced in a transaction that then fails is never delivered", async () => {
    const s = await setup("thrown");
    const issue = await s.t.ok("POST", `/api/v1/repos/${s.owner.name}/r/issues`, s.token, { title: "x" }, 201);
    await s.t.env.queue.idle();
    const row = s.t.env.db.select().from(issues).where(and(eq(issues.repoId, s.repo.id), eq(issues.index, issue.number))).get()!;
    expect(() =>
      writeTx(s.t.env.db, (tx) => {
        issueEvents.emit(tx, s.t.env, { kind: "edited", issue: { ...row, title: "never" }, before: row, repo: s.repo, doer: s.owner });
        throw new Error("the change failed");
      }),
    ).toThrow("the change failed");
    await s.t.env.queue.idle();
    expect(eventItems(s.t.env)).toEqual([]);
    expect(tasksOf(s.t.env, s.hookId)).toEqual([["issues", "opened", issue.number]]);
  });

  test("a failing subscriber neither fails the request nor keeps the hooks from the event", async () => {
    const s = await setup("failing");
    const off = s.t.env.bus.subscribe(issueEvents, () => {
      throw new Error("subscriber failure");
    });
    try {
      const issue = await s.t.ok("POST", `/api/v1/repos/${s.owner.name}/r/issues`, s.token, { title: "still announced" }, 201);
      await s.t.env.queue.idle();
      expect(tasksOf(s.t.env, s.hookId)).toEqual([["issues", "opened", issue.number]]);
    } finally {
      off();
    }
  });
});

describe("held events", () => {
  test("a held event waits for its release; if the process dies first it becomes due when the hold runs out", async () => {
    const s = await setup("held");
    await s.t.env.queue.stop();
    const event = { kind: "created" as const, repo: s.repo, owner: s.owner, doer: s.owner };
    const [released, abandoned] = writeTx(s.t.env.db, (tx) => [repoEvents.hold(tx, s.t.env, event), repoEvents.hold(tx, s.t.env, event)]);
    const now = Date.now();
    const due = (at: number) => s.t.env.db.select().from(queueItems).all().filter((i) => i.queue === EVENTS_QUEUE && i.runAfterMs <= at).map((i) => i.id);
    expect(due(now)).toEqual([]);
    writeTx(s.t.env.db, (tx) => releaseEvent(tx, s.t.env, released!));
    expect(due(Date.now())).toEqual([released!.itemId]);
    // The abandoned one (its request died before the release) is claimable once the hold is over.
    expect(due(now + HOLD_MS)).toEqual([released!.itemId, abandoned!.itemId]);
    expect(claimQueueItems(s.t.env.db, EVENTS_QUEUE, now + HOLD_MS, now + HOLD_MS + 1000, 10).map((i) => i.id)).toEqual([
      released!.itemId,
      abandoned!.itemId,
    ]);
  });
});
