import { writesCommitted } from "../../src/services/commits.ts";
import { beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { makeTestApp } from "../support/app.ts";
import { openDatabase } from "../../src/db/client.ts";
import { composeEnv } from "../../src/compose.ts";
import { createLogger } from "../../src/lib/log.ts";
import { HookContentType, hookTasks, queueItems, webhooks, type RepoRow, type UserRow } from "../../src/db/schema/index.ts";
import { getHookTask, listHookTasks, listTaskAttempts } from "../../src/models/webhook.ts";
import { claimQueueItems } from "../../src/models/queue.ts";
import { enqueueForHook, fireEvent, redeliver, WEBHOOK_QUEUE } from "../../src/services/webhook/enqueue.ts";
import { eventHeader } from "../../src/services/webhook/deliver.ts";
import { addHook, hmac, repoRow, startReceiver } from "./receiver.ts";

const FAST = "[webhook]\nALLOWED_HOST_LIST = loopback\nRETRY_BACKOFF = 40ms\nMAX_ATTEMPTS = 3\nDELIVER_TIMEOUT = 2\n";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An issue event's payload, as the notifier would build it (only what the tests look at). */
const issuePayload = (n: number) => ({ action: "opened", number: n, issue: { number: n, title: `issue ${n}` }, repository: { id: 1 } });

const t = makeTestApp(FAST);
const receiver = startReceiver();
let owner: UserRow;
let repo: RepoRow;

beforeAll(async () => {
  owner = await t.user("hookowner");
  await t.ok("POST", "/api/v1/user/repos", t.token(owner), { name: "hooked" }, 201);
  // The repository's own creation event goes by the event bus: done before any hook is added.
  await t.env.queue.idle();
  repo = repoRow(t.env, owner, "hooked");
});

/** Fires an issue event for `repo` and waits until every delivery, retries included, is done. */
async function fire(n: number, r = repo) {
  fireEvent(t.env, { event: "issues", payload: issuePayload(n), repo: r, owner });
  await t.env.queue.idle();
}

function tasksOf(hookId: number) {
  return listHookTasks(t.env.db, hookId, { offset: 0, limit: 100 }).rows;
}

function deactivate(hookId: number) {
  t.env.db.update(webhooks).set({ isActive: false }).where(eq(webhooks.id, hookId)).run();
}

describe("delivering a webhook", () => {
  test("Gitea's headers, signatures over the exact body, and the Authorization header", async () => {
    const secret = "s3cr3t-value";
    const hook = addHook(t.env, { repoId: repo.id }, { url: `${receiver.url}/hook`, secret, authorization: "Bearer first-token" });
    const before = receiver.got.length;
    await fire(1);
    deactivate(hook.id);
    const got = receiver.got.slice(before);
    expect(got).toHaveLength(1);
    const r = got[0]!;
    const [task] = tasksOf(hook.id);
    expect(r.method).toBe("POST");
    expect(r.path).toBe("/hook");
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(r.body)).toEqual(issuePayload(1));
    // The body is the stored payload, byte for byte (Gitea's indented JSON).
    expect(r.body).toBe(task!.payloadContent);
    expect(r.body).toBe(JSON.stringify(issuePayload(1), null, 2));
    const sha256 = hmac("sha256", secret, r.body);
    expect(r.headers.get("x-gitea-signature")).toBe(sha256);
    expect(r.headers.get("x-gogs-signature")).toBe(sha256);
    expect(r.headers.get("x-hub-signature-256")).toBe(`sha256=${sha256}`);
    expect(r.headers.get("x-hub-signature")).toBe(`sha1=${hmac("sha1", secret, r.body)}`);
    for (const h of ["x-gitea-delivery", "x-gogs-delivery", "x-github-delivery"]) expect(r.headers.get(h)).toBe(task!.uuid);
    for (const h of ["x-gitea-event", "x-gogs-event", "x-github-event"]) expect(r.headers.get(h)).toBe("issues");
    for (const h of ["x-gitea-event-type", "x-gogs-event-type", "x-github-event-type"]) expect(r.headers.get(h)).toBe("issues");
    expect(r.headers.get("x-gitea-hook-installation-target-type")).toBe("repository");
    expect(r.headers.get("x-github-hook-installation-target-type")).toBe("repository");
    expect(r.headers.get("authorization")).toBe("Bearer first-token");

    // Recorded: the task, one attempt, the hook's last status; the Authorization value masked.
    expect(task).toMatchObject({ isDelivered: true, isSucceed: true, attempts: 1, eventType: "issues" });
    expect(task!.delivered).toBeGreaterThan((Date.now() - 60_000) * 1e6);
    const request = JSON.parse(task!.requestContent);
    expect(request).toMatchObject({ url: `${receiver.url}/hook`, http_method: "POST", body: r.body });
    expect(request.headers.Authorization).toBe("******");
    expect(request.headers["X-Gitea-Signature"]).toBe(sha256);
    expect(JSON.parse(task!.responseContent)).toMatchObject({ status: 200, body: "ok" });
    const attempts = listTaskAttempts(t.env.db, task!.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.isSucceed).toBe(true);
    expect(attempts[0]!.durationMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(attempts)).not.toContain("first-token");
    expect(t.env.db.select().from(webhooks).where(eq(webhooks.id, hook.id)).get()!.lastStatus).toBe(1);
  });

  test("a 500 is retried with backoff, the Authorization header sent again; every attempt is recorded", async () => {
    const hook = addHook(t.env, { repoId: repo.id }, { url: `${receiver.url}/flaky`, authorization: "token retry-me" });
    let calls = 0;
    receiver.state.respond = (r) => (r.path === "/flaky" && ++calls === 1 ? new Response("boom", { status: 500 }) : new Response("ok"));
    const before = receiver.got.length;
    await fire(2);
    deactivate(hook.id);
    receiver.state.respond = () => new Response("ok");
    const got = receiver.got.slice(before);
    expect(got).toHaveLength(2);
    expect(got.map((r) => r.headers.get("authorization"))).toEqual(["token retry-me", "token retry-me"]);
    // Same delivery, same id, same signature-free body both times.
    expect(got[1]!.headers.get("x-gitea-delivery")).toBe(got[0]!.headers.get("x-gitea-delivery")!);
    expect(got[1]!.body).toBe(got[0]!.body);
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(35);
    const [task] = tasksOf(hook.id);
    expect(task).toMatchObject({ isSucceed: true, attempts: 2 });
    const attempts = listTaskAttempts(t.env.db, task!.id);
    expect(attempts.map((a) => [a.isSucceed, JSON.parse(a.response).status])).toEqual([
      [false, 500],
      [true, 200],
    ]);
    expect(JSON.parse(attempts[0]!.response).body).toBe("boom");
  });

  test("retries stop at MAX_ATTEMPTS; a 4xx is final at once", async () => {
    const down = addHook(t.env, { repoId: repo.id }, { url: `${receiver.url}/down` });
    const gone = addHook(t.env, { repoId: repo.id }, { url: `${receiver.url}/gone` });
    receiver.state.respond = (r) => new Response("no", { status: r.path === "/down" ? 503 : 404 });
    const before = receiver.got.length;
    await fire(3);
    deactivate(down.id);
    deactivate(gone.id);
    receiver.state.respond = () => new Response("ok");
    const got = receiver.got.slice(before);
    expect(got.filter((r) => r.path === "/down")).toHaveLength(3);
    expect(got.filter((r) => r.path === "/gone")).toHaveLength(1);
    expect(tasksOf(down.id)[0]).toMatchObject({ isDelivered: true, isSucceed: false, attempts: 3 });
    expect(tasksOf(gone.id)[0]).toMatchObject({ isDelivered: true, isSucceed: false, attempts: 1 });
    expect(t.env.db.select().from(webhooks).where(eq(webhooks.id, gone.id)).get()!.lastStatus).toBe(2);
  });

  test("a network error (nothing listening) is retried and recorded with its message", async () => {
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = closed.port;
    closed.stop(true);
    const hook = addHook(t.env, { repoId: repo.id }, { url: `http://127.0.0.1:${port}/` });
    await fire(4);
    deactivate(hook.id);
    const [task] = tasksOf(hook.id);
    expect(task).toMatchObject({ isSucceed: false, attempts: 3 });
    const response = JSON.parse(task!.responseContent);
    expect(response.status).toBe(0);
    expect(response.body).toStartWith("Delivery: ");
  });

  test("a URL that cannot be requested fails once, with the reason, and is not retried", async () => {
    const hook = addHook(t.env, { repoId: repo.id }, { url: "ftp://127.0.0.1/hook" });
    await fire(41);
    deactivate(hook.id);
    const [task] = tasksOf(hook.id);
    expect(task).toMatchObject({ isDelivered: true, isSucceed: false, attempts: 1 });
    expect(JSON.parse(task!.responseContent).body).toBe('Delivery: unsupported protocol scheme "ftp"');
  });

  test("form content: the payload in a `payload` field, signed over the payload JSON as Gitea does; GET puts it in the query", async () => {
    const form = addHook(t.env, { repoId: repo.id }, { url: `${receiver.url}/form`, secret: "k", contentType: HookContentType.Form });
    const get = addHook(t.env, { repoId: repo.id }, { url: `${receiver.url}/get?x=1`, secret: "k", httpMethod: "GET" });
    const before = receiver.got.length;
    await fire(5);
    deactivate(form.id);
    deactivate(get.id);
    const got = receiver.got.slice(before);
    const f = got.find((r) => r.path === "/form")!;
    const json = JSON.stringify(issuePayload(5), null, 2);
    expect(f.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(new URLSearchParams(f.body).get("payload")).toBe(json);
    expect(f.headers.get("x-gitea-signature")).toBe(hmac("sha256", "k", json));
    const g = got.find((r) => r.path === "/get")!;
    expect(g.method).toBe("GET");
    expect(g.query.get("x")).toBe("1");
    expect(g.query.get("payload")).toBe(json);
    expect(g.headers.get("x-gitea-signature")).toBe(hmac("sha256", "k", json));
  });

  test("owner and system hooks fire too, with their installation target; inactive hooks and unwanted events do not", async () => {
    const ownerHook = addHook(t.env, { ownerId: owner.id }, { url: `${receiver.url}/owner` });
    const systemHook = addHook(t.env, { system: true }, { url: `${receiver.url}/system` });
    const inactive = addHook(t.env, { repoId: repo.id }, { url: `${receiver.url}/inactive`, active: false });
    const pushOnly = addHook(t.env, { repoId: repo.id }, {
      url: `${receiver.url}/push-only`,
      events: JSON.stringify({ push_only: true, send_everything: false, choose_events: false, branch_filter: "", events: {} }),
    });
    const before = receiver.got.length;
    await fire(6);
    for (const h of [ownerHook, systemHook, inactive, pushOnly]) deactivate(h.id);
    const got = receiver.got.slice(before);
    expect(got.map((r) => [r.path, r.headers.get("x-gitea-hook-installation-target-type")]).sort()).toEqual([
      ["/owner", "user"],
      ["/system", "system"],
    ]);
    expect(tasksOf(inactive.id)).toEqual([]);
    expect(tasksOf(pushOnly.id)).toEqual([]);
  });

  test("sub-events are announced under their group, as Gitea's HookEventType.Event()", () => {
    expect(eventHeader("issue_assign")).toBe("issues");
    expect(eventHeader("pull_request_sync")).toBe("pull_request");
    expect(eventHeader("pull_request_review_request")).toBe("pull_request");
    expect(eventHeader("pull_request_comment")).toBe("issue_comment");
    expect(eventHeader("pull_request_review_approved")).toBe("pull_request_approved");
    expect(eventHeader("pull_request_review_rejected")).toBe("pull_request_rejected");
    expect(eventHeader("pull_request_review_comment")).toBe("pull_request_comment");
    expect(eventHeader("release")).toBe("release");
    expect(eventHeader("status")).toBe("status");
  });

  test("a test delivery and a redelivery: the same task attempted again, every attempt kept", async () => {
    const hook = addHook(t.env, { repoId: repo.id }, { url: `${receiver.url}/test`, authorization: "Basic abc" });
    const before = receiver.got.length;
    const task = enqueueForHook(t.env, hook, "push", { ref: "refs/heads/main", commits: [] });
    await t.env.queue.idle();
    redeliver(t.env, getHookTask(t.env.db, task.id)!);
    await t.env.queue.idle();
    deactivate(hook.id);
    const got = receiver.got.slice(before);
    expect(got).toHaveLength(2);
    expect(got.map((r) => r.headers.get("x-gitea-delivery"))).toEqual([task.uuid, task.uuid]);
    expect(got.map((r) => r.headers.get("x-gitea-event"))).toEqual(["push", "push"]);
    expect(got.map((r) => r.headers.get("authorization"))).toEqual(["Basic abc", "Basic abc"]);
    expect(getHookTask(t.env.db, task.id)!.attempts).toBe(2);
    expect(listTaskAttempts(t.env.db, task.id)).toHaveLength(2);
  });

  test("redirects are followed as Go does: 307 keeps the method and body, the Authorization stays on the same host", async () => {
    const hook = addHook(t.env, { repoId: repo.id }, { url: `${receiver.url}/moved`, authorization: "token same-host" });
    receiver.state.respond = (r) => (r.path === "/moved" ? new Response("", { status: 307, headers: { Location: "/new-home" } }) : new Response("ok"));
    const before = receiver.got.length;
    await fire(7);
    deactivate(hook.id);
    receiver.state.respond = () => new Response("ok");
    const got = receiver.got.slice(before);
    expect(got.map((r) => [r.path, r.method, r.headers.get("authorization")])).toEqual([
      ["/moved", "POST", "token same-host"],
      ["/new-home", "POST", "token same-host"],
    ]);
    expect(got[1]!.body).toBe(got[0]!.body);
    expect(tasksOf(hook.id)[0]).toMatchObject({ isSucceed: true, attempts: 1 });
  });

  test("a host name is resolved, checked and connected to by address (localhost under `loopback`)", async () => {
    const hook = addHook(t.env, { repoId: repo.id }, { url: `http://localhost:${receiver.port}/by-name` });
    const before = receiver.got.length;
    await fire(8);
    deactivate(hook.id);
    const got = receiver.got.slice(before);
    expect(got.map((r) => [r.path, r.headers.get("host")])).toEqual([["/by-name", `localhost:${receiver.port}`]]);
  });

  test("the request that fires an event does not wait for a slow receiver", async () => {
    const hook = addHook(t.env, { repoId: repo.id }, { url: `${receiver.url}/slow` });
    // The receiver holds the delivery until the test lets it go: no clock decides the outcome.
    const { promise: released, resolve: release } = Promise.withResolvers<void>();
    let answered = false;
    receiver.state.respond = async (r) => {
      if (r.path === "/slow") await released;
      answered = true;
      return new Response("ok");
    };
    const before = receiver.got.length;
    fireEvent(t.env, { event: "issues", payload: issuePayload(9), repo, owner });
    // Firing only recorded the task: nothing has reached the receiver when it returns.
    expect(receiver.got.length).toBe(before);
    await receiver.waitFor(before + 1);
    // The receiver is holding the delivery now; an API request answers meanwhile.
    await t.ok("GET", `/api/v1/repos/hookowner/hooked`, t.token(owner));
    expect(answered).toBe(false);
    release();
    await t.env.queue.idle();
    expect(answered).toBe(true);
    deactivate(hook.id);
    receiver.state.respond = () => new Response("ok");
    expect(tasksOf(hook.id)[0]!.isSucceed).toBe(true);
  });
});

describe("ALLOWED_HOST_LIST", () => {
  const strict = makeTestApp("[webhook]\nMAX_ATTEMPTS = 3\nRETRY_BACKOFF = 10ms\n");

  test("by default (`external`) a loopback receiver is refused: recorded as failed, not retried, nothing sent", async () => {
    const user = await strict.user("strictowner");
    await strict.ok("POST", "/api/v1/user/repos", strict.token(user), { name: "r" }, 201);
    const r = repoRow(strict.env, user, "r");
    const hook = addHook(strict.env, { repoId: r.id }, { url: `${receiver.url}/refused`, authorization: "token never-sent" });
    const before = receiver.got.length;
    fireEvent(strict.env, { event: "issues", payload: issuePayload(1), repo: r, owner: user });
    await strict.env.queue.idle();
    expect(receiver.got.length).toBe(before);
    const [task] = listHookTasks(strict.env.db, hook.id, { offset: 0, limit: 10 }).rows;
    expect(task).toMatchObject({ isDelivered: true, isSucceed: false, attempts: 1 });
    const response = JSON.parse(task!.responseContent);
    expect(response.body).toContain("webhook can only call allowed HTTP servers (check your webhook.ALLOWED_HOST_LIST setting)");
    expect(response.body).toContain(`127.0.0.1:${receiver.port}`);
  });
});

describe("surviving a restart", () => {
  test("events recorded by a process that stopped before delivering arrive after the next start", async () => {
    const app = makeTestApp(FAST);
    const user = await app.user("restartowner");
    await app.ok("POST", "/api/v1/user/repos", app.token(user), { name: "r" }, 201);
    await app.env.queue.idle();
    const r = repoRow(app.env, user, "r");
    const hook = addHook(app.env, { repoId: r.id }, { url: `${receiver.url}/after-restart`, authorization: "token kept" });
    // The first process shuts down its workers, then events happen: they are only in the database.
    await app.env.queue.stop();
    const before = receiver.got.length;
    for (let i = 1; i <= 3; i++) fireEvent(app.env, { event: "issues", payload: issuePayload(i), repo: r, owner: user });
    await sleep(100);
    expect(receiver.got.length).toBe(before);
    expect(app.env.db.select().from(queueItems).all()).toHaveLength(3);

    // A new process on the same data directory.
    const database = openDatabase(app.settings.database.path);
    const env2 = composeEnv(app.settings, database.db, createLogger("none"));
    env2.queue.start();
    await env2.queue.idle();
    await env2.queue.stop();
    database.close();
    const got = receiver.got.slice(before);
    expect(got.map((g) => JSON.parse(g.body).number).sort()).toEqual([1, 2, 3]);
    expect(got.every((g) => g.headers.get("authorization") === "token kept")).toBe(true);
    expect(listHookTasks(app.env.db, hook.id, { offset: 0, limit: 10 }).rows.every((task) => task.isSucceed)).toBe(true);
  });

  test("a delivery cut short by a crash (its lease left behind) is sent again once the lease expires", async () => {
    const app = makeTestApp(FAST);
    const user = await app.user("crashowner");
    await app.ok("POST", "/api/v1/user/repos", app.token(user), { name: "r" }, 201);
    await app.env.queue.idle();
    const r = repoRow(app.env, user, "r");
    const hook = addHook(app.env, { repoId: r.id }, { url: `${receiver.url}/after-crash` });
    await app.env.queue.stop();
    const task = enqueueForHook(app.env, hook, "issues", issuePayload(1));
    // The crashed process had claimed it (a 300 ms lease) and died before recording anything.
    const claimedAt = Date.now();
    expect(claimQueueItems(app.env.db, WEBHOOK_QUEUE, claimedAt, claimedAt + 300, 10)).toHaveLength(1);

    const database = openDatabase(app.settings.database.path);
    const env2 = composeEnv(app.settings, database.db, createLogger("none"));
    const before = receiver.got.length;
    env2.queue.start();
    await sleep(150);
    expect(receiver.got.length).toBe(before);
    await env2.queue.idle();
    await env2.queue.stop();
    database.close();
    const got = receiver.got.slice(before);
    expect(got.map((g) => g.headers.get("x-gitea-delivery"))).toEqual([task.uuid]);
    expect(got[0]!.at - claimedAt).toBeGreaterThanOrEqual(295);
  });

  test("beyond QUEUE_LENGTH deliveries are recorded but wait in the database, then all arrive", async () => {
    const app = makeTestApp(FAST.replace("[webhook]\n", "[webhook]\nQUEUE_LENGTH = 2\n"));
    const user = await app.user("floodowner");
    await app.ok("POST", "/api/v1/user/repos", app.token(user), { name: "r" }, 201);
    await app.env.queue.idle();
    const r = repoRow(app.env, user, "r");
    const hook = addHook(app.env, { repoId: r.id }, { url: `${receiver.url}/flood` });
    await app.env.queue.stop();
    for (let i = 1; i <= 7; i++) fireEvent(app.env, { event: "issues", payload: issuePayload(i), repo: r, owner: user });
    expect(app.env.db.select().from(queueItems).all()).toHaveLength(2);
    expect(app.env.db.select().from(hookTasks).where(eq(hookTasks.hookId, hook.id)).all()).toHaveLength(7);
    // A second connection sees only what is committed (writes are group-committed per event-loop turn).
    await writesCommitted(app.env);

    const database = openDatabase(app.settings.database.path);
    const env2 = composeEnv(app.settings, database.db, createLogger("none"));
    const before = receiver.got.length;
    env2.queue.start();
    await receiver.waitFor(before + 7);
    await env2.queue.idle();
    await env2.queue.stop();
    database.close();
    expect(receiver.got.slice(before).map((g) => JSON.parse(g.body).number).sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});


