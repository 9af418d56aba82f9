import { afterAll, describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { HookDelivery, HookDeliveryDetail } from "../../src/shapes/hook.ts";
import { getHookTask, listHookTasks } from "../../src/models/webhook.ts";

// The receiver is on loopback, which deliveries may reach only when allowed; retries come quickly.
const t = makeTestApp("[webhook]\nALLOWED_HOST_LIST = loopback\nRETRY_BACKOFF = 20ms\n");
const alice = await t.user("alice");
const bob = await t.user("bob");
const root = await t.user("root", { admin: true });
const aliceToken = t.token(alice);
const bobToken = t.token(bob);
const rootToken = t.token(root);

/** A receiver that fails the first request with a 500 and accepts the rest. */
const received: { auth: string | null; body: string }[] = [];
const receiver = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    received.push({ auth: req.headers.get("authorization"), body: await req.text() });
    return received.length === 1 ? new Response("busy", { status: 500 }) : new Response("thanks", { status: 200, headers: { "X-Receiver": "yes" } });
  },
});
afterAll(() => receiver.stop(true));
const url = `http://127.0.0.1:${receiver.port}/hook`;

await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "dr", auto_init: true }, 201);
await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "dr2", auto_init: true }, 201);
await t.ok("PUT", "/api/v1/repos/alice/dr/collaborators/bob", aliceToken, { permission: "write" }, 204);
const hooks = (rest = "", r = "alice/dr") => `/api/v1/repos/${r}/hooks${rest}`;
const hook = await t.ok(
  "POST",
  hooks(),
  aliceToken,
  { type: "gitea", active: true, authorization_header: "Bearer delivery-check", config: { url, content_type: "json" } },
  201,
);

// Two deliveries, one after the other, through the queue's own workers: the test endpoint records a
// push task each time; the first is refused once (500) and retried.
await t.ok("POST", hooks(`/${hook.id}/tests`), aliceToken, undefined, 204);
await t.env.queue.idle();
await t.ok("POST", hooks(`/${hook.id}/tests`), aliceToken, undefined, 204);
await t.env.queue.idle();
const tasks = listHookTasks(t.env.db, hook.id, { offset: 0, limit: 10 }).rows;
const [newest, oldest] = tasks as [(typeof tasks)[number], (typeof tasks)[number]];

describe("deliveries of a repository hook", () => {
  test("listed newest first, paged, in the HookDelivery shape", async () => {
    const r = await t.json("GET", hooks(`/${hook.id}/deliveries`), { token: aliceToken });
    expect(r.status).toBe(200);
    expect(r.headers.get("X-Total-Count")).toBe("2");
    expect(r.body.map((d: { uuid: string }) => d.uuid)).toEqual([newest.uuid, oldest.uuid]);
    for (const d of r.body) expectShape(d, HookDelivery);
    expect(r.body[0]).toMatchObject({ id: newest.id, event: "push", is_delivered: true, is_succeed: true, attempts: 1, status_code: 200 });
    expect(r.body[1]).toMatchObject({ id: oldest.id, is_succeed: true, attempts: 2, status_code: 200 });
    const page2 = await t.ok("GET", hooks(`/${hook.id}/deliveries?limit=1&page=2`), aliceToken);
    expect(page2.map((d: { uuid: string }) => d.uuid)).toEqual([oldest.uuid]);
  });

  test("a delivery with every attempt: status, headers, body, duration; the Authorization value is masked", async () => {
    // Every attempt carried the Authorization header, the retry after the 500 included.
    expect(received.map((r) => r.auth)).toEqual(["Bearer delivery-check", "Bearer delivery-check", "Bearer delivery-check"]);

    const r = await t.json("GET", hooks(`/${hook.id}/deliveries/${oldest.uuid}`), { token: aliceToken });
    expect(r.status).toBe(200);
    expectShape(r.body, HookDeliveryDetail);
    const d = r.body;
    expect(d).toMatchObject({ uuid: oldest.uuid, event: "push", is_delivered: true, is_succeed: true, status_code: 200, attempts: 2 });
    expect(Date.parse(d.delivered_at)).toBeGreaterThan(0);
    expect(d.payload).toMatchObject({ ref: "refs/heads/main", repository: { full_name: "alice/dr" } });
    expect(d.request).toMatchObject({ url, http_method: "POST" });
    expect(d.request.headers.Authorization).toBe("******");
    expect(d.response).toMatchObject({ status: 200, body: "thanks" });
    expect(d.attempt_list.map((a: { status_code: number; is_succeed: boolean }) => [a.status_code, a.is_succeed])).toEqual([
      [500, false],
      [200, true],
    ]);
    expect(d.attempt_list[0].response.body).toBe("busy");
    expect(d.attempt_list[1].response.headers["X-Receiver"] ?? d.attempt_list[1].response.headers["x-receiver"]).toBe("yes");
    for (const a of d.attempt_list) {
      expect(a.duration_ms).toBeGreaterThanOrEqual(0);
      expect(Date.parse(a.started_at)).toBeGreaterThan(0);
    }
    expect(JSON.stringify(d)).not.toContain("delivery-check");

    const list = await t.ok("GET", hooks(`/${hook.id}/deliveries`), aliceToken);
    expect(list.find((x: { uuid: string }) => x.uuid === oldest.uuid)).toMatchObject({ is_succeed: true, status_code: 200, attempts: 2 });
  });

  test("redelivery queues the same task again, and its next attempt joins the same delivery", async () => {
    const r = await t.json("POST", hooks(`/${hook.id}/deliveries/${oldest.uuid}/attempts`), { token: aliceToken });
    expect(r.status).toBe(202);
    expectShape(r.body, HookDelivery);
    expect(r.body.uuid).toBe(oldest.uuid);
    await t.env.queue.idle();
    expect(received.length).toBe(4);
    expect(received.at(-1)!.body).toBe(received[0]!.body); // the same payload again
    const d = await t.ok("GET", hooks(`/${hook.id}/deliveries/${oldest.uuid}`), aliceToken);
    expect(d.attempts).toBe(3);
    expect(d.attempt_list).toHaveLength(3);
  });

  test("404 for an unknown uuid or another hook's delivery; the hook's own permissions apply", async () => {
    expect((await t.json("GET", hooks(`/${hook.id}/deliveries/nope`), { token: aliceToken })).status).toBe(404);
    expect((await t.json("POST", hooks(`/${hook.id}/deliveries/nope/attempts`), { token: aliceToken })).status).toBe(404);
    const other = await t.ok("POST", hooks("", "alice/dr2"), aliceToken, { type: "gitea", config: { url, content_type: "json" } }, 201);
    expect((await t.json("GET", hooks(`/${other.id}/deliveries/${oldest.uuid}`, "alice/dr2"), { token: aliceToken })).status).toBe(404);
    expect((await t.json("GET", hooks(`/${hook.id}/deliveries`, "alice/dr2"), { token: aliceToken })).status).toBe(404);
    expect((await t.json("GET", hooks(`/${hook.id}/deliveries`))).status).toBe(401);
    // A writer is not a repository admin.
    expect((await t.json("GET", hooks(`/${hook.id}/deliveries`), { token: bobToken })).status).toBe(403);
    expect((await t.json("POST", hooks(`/${hook.id}/deliveries/${oldest.uuid}/attempts`), { token: bobToken })).status).toBe(403);
    expect((await t.json("GET", hooks("/999999/deliveries"), { token: aliceToken })).status).toBe(404);
  });

  test("deleting the hook deletes its deliveries", async () => {
    const h = await t.ok("POST", hooks(), aliceToken, { type: "gitea", active: true, config: { url, content_type: "json" } }, 201);
    await t.ok("POST", hooks(`/${h.id}/tests`), aliceToken, undefined, 204);
    const task = listHookTasks(t.env.db, h.id, { offset: 0, limit: 1 }).rows[0]!;
    await t.ok("DELETE", hooks(`/${h.id}`), aliceToken, undefined, 204);
    expect(getHookTask(t.env.db, task.id)).toBeUndefined();
  });
});

describe("deliveries at the other levels", () => {
  test("user, organization and system hooks list their own deliveries", async () => {
    await t.ok("POST", "/api/v1/orgs", aliceToken, { username: "dorg" }, 201);
    for (const [base, token] of [
      ["/api/v1/user/hooks", aliceToken],
      ["/api/v1/orgs/dorg/hooks", aliceToken],
      ["/api/v1/admin/hooks", rootToken],
    ] as const) {
      const h = await t.ok("POST", base, token, { type: "gitea", active: true, config: { url, content_type: "json" } }, 201);
      const list = await t.json("GET", `${base}/${h.id}/deliveries`, { token });
      expect({ base, status: list.status, body: list.body, total: list.headers.get("X-Total-Count") }).toEqual({ base, status: 200, body: [], total: "0" });
      expect((await t.json("GET", `${base}/${h.id}/deliveries/${oldest.uuid}`, { token })).status).toBe(404);
      // Someone else's: the hook is not theirs (user), not an owner (org), not an admin.
      expect((await t.json("GET", `${base}/${h.id}/deliveries`, { token: bobToken })).status).toBe(base.startsWith("/api/v1/user") ? 404 : 403);
    }
  });
});
