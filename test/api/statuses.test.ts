import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { CombinedStatus, CommitStatus } from "../../src/shapes/status.ts";
import { commitStatuses } from "../../src/db/schema/index.ts";
import { commitStatusEvents, type CommitStatusEvent } from "../../src/services/status/events.ts";
import { EVENTS_QUEUE } from "../../src/services/events/bus.ts";
import { combineStates, latestStatuses, requiredContextsPass } from "../../src/services/status/combine.ts";

const t = makeTestApp();
const alice = await t.user("alice");
const bob = await t.user("bob");
const aliceToken = t.token(alice);
const bobToken = t.token(bob);
const api = (rest = "") => `/api/v1/repos/alice/st${rest}`;

await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "st", auto_init: true }, 201);
const main = (await t.ok("GET", api("/branches/main"), aliceToken)).commit.id as string;
// A second commit on another branch, so that refs and shas name different commits.
await t.ok("POST", api("/contents/second.txt"), aliceToken, { content: btoa("2\n"), new_branch: "feature/x", message: "second" }, 201);
const second = (await t.ok("GET", api("/branches/feature%2Fx"), aliceToken)).commit.id as string;
await t.ok("POST", api("/tags"), aliceToken, { tag_name: "v1", target: main }, 201);
const repoId = (await t.ok("GET", api(), aliceToken)).id as number;

const post = (sha: string, body: Record<string, unknown>, token = aliceToken) => t.json("POST", api(`/statuses/${sha}`), { token, body });

describe("create a commit status", () => {
  test("stores against the full sha, with Gitea's fields", async () => {
    const r = await post(main, { state: "pending", context: "ci/build", target_url: " https://ci.example/1 ", description: " building " });
    expect(r.status).toBe(201);
    expectShape(r.body, CommitStatus);
    expect(r.body).toMatchObject({
      id: 1,
      status: "pending",
      context: "ci/build",
      target_url: "https://ci.example/1",
      description: "building",
      url: `${t.baseUrl}api/v1/repos/alice/st/statuses/${main}`,
    });
    expect(r.body.creator.login).toBe("alice");
    expect(r.body.created_at).toBe(r.body.updated_at);
  });

  test("an abbreviated sha or a ref is resolved to the full sha (seed 14)", async () => {
    const short = await post(main.slice(0, 7), { state: "success", context: "ci/build" });
    expect(short.status).toBe(201);
    expect(short.body.url.endsWith(`/statuses/${main}`)).toBe(true);
    expect(short.body.id).toBe(2);
    const byBranch = await post("feature%2Fx", { state: "failure", context: "lint" });
    expect(byBranch.status).toBe(201);
    expect(byBranch.body.url.endsWith(`/statuses/${second}`)).toBe(true);
    const rows = t.env.db.select().from(commitStatuses).all();
    expect(rows.every((r) => r.sha.length === 40)).toBe(true);
    expect(rows.filter((r) => r.sha === main).map((r) => r.index)).toEqual([1, 2]);
    // Listing by the full sha finds the status created through the abbreviation.
    const list = await t.ok("GET", api(`/statuses/${main}`), aliceToken);
    expect(list.map((s: any) => s.id).sort()).toEqual([1, 2]);
  });

  test("context defaults to 'default' and context_hash is sha1(context)", async () => {
    const r = await post(second, { state: "success" });
    expect(r.status).toBe(201);
    expect(r.body.context).toBe("default");
    const row = t.env.db.select().from(commitStatuses).all().find((x) => x.sha === second && x.context === "default")!;
    expect(row.contextHash).toBe(createHash("sha1").update("default").digest("hex"));
  });

  test("bad input and permissions", async () => {
    expect((await post("0123456789abcdef0123456789abcdef01234567", { state: "success" })).status).toBe(404);
    expect((await post("no-such-ref", { state: "success" })).status).toBe(404);
    expect((await post(main, { state: "bogus" })).status).toBe(422);
    expect((await post(main, {})).status).toBe(422);
    expect((await post(main, { state: "success" }, bobToken)).status).toBe(403);
    expect((await t.json("POST", api(`/statuses/${main}`), { body: { state: "success" } })).status).toBe(401);
    expect((await t.json("POST", "/api/v1/repos/alice/nope/statuses/abc", { token: aliceToken, body: { state: "success" } })).status).toBe(404);
  });

  test("listeners hear about stored statuses; a failing one does not fail the request", async () => {
    // Statuses stored by the tests before are announced first, before these listeners are added.
    await t.env.queue.idle(EVENTS_QUEUE);
    const seen: CommitStatusEvent[] = [];
    const offBad = t.env.bus.subscribe(commitStatusEvents, () => {
      throw new Error("boom");
    });
    const off = t.env.bus.subscribe(commitStatusEvents, (_env, e) => {
      seen.push(e);
    });
    const r = await post(main.slice(0, 10), { state: "warning", context: "listen" });
    expect(r.status).toBe(201);
    await t.env.queue.idle(EVENTS_QUEUE);
    off();
    offBad();
    expect(seen.length).toBe(1);
    expect(seen[0]!.sha).toBe(main);
    expect(seen[0]!.repoId).toBe(repoId);
    expect(seen[0]!.status.context).toBe("listen");
  });
});

describe("list and combine", () => {
  test("sort and state filters", async () => {
    const all = await t.json("GET", api(`/statuses/${main}`), { token: bobToken });
    expect(all.status).toBe(200);
    expect(all.headers.get("x-total-count")).toBe("3");
    expect(all.body.map((s: any) => s.id)).toEqual([3, 2, 1]);
    expect((await t.ok("GET", api(`/statuses/${main}?sort=highestindex`), bobToken)).map((s: any) => s.id)).toEqual([1, 2, 3]);
    expect((await t.ok("GET", api(`/statuses/${main}?sort=leastindex`), bobToken)).map((s: any) => s.id)).toEqual([3, 2, 1]);
    expect((await t.ok("GET", api(`/statuses/${main}?state=pending`), bobToken)).map((s: any) => s.id)).toEqual([1]);
    expect((await t.ok("GET", api(`/statuses/${main}?state=nonsense`), bobToken)).length).toBe(3);
    const paged = await t.json("GET", api(`/statuses/${main}?limit=1&page=2`), { token: bobToken });
    expect(paged.body.length).toBe(1);
    expect(paged.headers.get("x-total-count")).toBe("3");
    // Listing matches the commit id exactly (Gitea 1.24+): an abbreviated id or a branch name lists
    // nothing, as does an unknown full id; /commits/{ref}/statuses resolves refs.
    expect(await t.ok("GET", api(`/statuses/${main.slice(0, 8)}`), bobToken)).toEqual([]);
    expect(await t.ok("GET", api("/statuses/main"), bobToken)).toEqual([]);
    expect(await t.ok("GET", api("/statuses/0123456789abcdef0123456789abcdef01234567"), bobToken)).toEqual([]);
  });

  test("by ref: branch, tag, short sha; unknown ref is 404", async () => {
    expect((await t.ok("GET", api("/commits/main/statuses"), bobToken)).length).toBe(3);
    expect((await t.ok("GET", api("/commits/v1/statuses"), bobToken)).length).toBe(3);
    expect((await t.ok("GET", api(`/commits/${second.slice(0, 7)}/statuses`), bobToken)).length).toBe(2);
    expect((await t.ok("GET", api("/commits/feature%2Fx/statuses?state=failure"), bobToken)).length).toBe(1);
    expect((await t.json("GET", api("/commits/nope/statuses"), { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", api("/commits/nope/status"), { token: bobToken })).status).toBe(404);
  });

  test("combined status: latest per context, Gitea's combination", async () => {
    const r = await t.json("GET", api("/commits/main/status"), { token: bobToken });
    expect(r.status).toBe(200);
    expectShape(r.body, CombinedStatus);
    // ci/build went pending -> success; listen is warning: success overall.
    expect(r.body.state).toBe("success");
    expect(r.body.sha).toBe(main);
    expect(r.body.total_count).toBe(2);
    expect(r.body.statuses.map((s: any) => `${s.context}:${s.status}`)).toEqual(["listen:warning", "ci/build:success"]);
    expect(r.body.repository.full_name).toBe("alice/st");
    expect(r.body.commit_url).toBe(`${t.baseUrl}api/v1/repos/alice/st/commits/${main}`);
    expect(r.body.url).toBe(`${t.baseUrl}api/v1/repos/alice/st/commits/${main}/status`);
    const feature = await t.ok("GET", api("/commits/feature%2Fx/status"), bobToken);
    expect(feature.state).toBe("failure");
    await post(second, { state: "success", context: "lint" });
    expect((await t.ok("GET", api("/commits/feature%2Fx/status"), bobToken)).state).toBe("success");
    await post(second, { state: "pending", context: "deploy" });
    expect((await t.ok("GET", api("/commits/feature%2Fx/status"), bobToken)).state).toBe("pending");
  });

  test("combined status of a commit without statuses", async () => {
    await t.ok("POST", api("/contents/third.txt"), aliceToken, { content: btoa("3\n"), new_branch: "bare", message: "third" }, 201);
    const r = await t.ok("GET", api("/commits/bare/status"), bobToken);
    expect(r.state).toBe("");
    expect(r.statuses).toBeNull();
    expect(r.total_count).toBe(0);
  });

  test("private repositories stay hidden", async () => {
    await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "hidden", auto_init: true, private: true }, 201);
    expect((await t.json("GET", "/api/v1/repos/alice/hidden/commits/main/status", { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/repos/alice/hidden/statuses/main")).status).toBe(404);
  });
});

describe("helpers for merge and automerge", () => {
  test("latestStatuses and requiredContextsPass (contexts are globs)", () => {
    const rows = latestStatuses(t.env, repoId, second);
    expect(rows.map((r) => r.context).sort()).toEqual(["default", "deploy", "lint"]);
    expect(requiredContextsPass(rows, ["lint"])).toBe("success");
    expect(requiredContextsPass(rows, ["lint", "deploy"])).toBe("pending");
    expect(requiredContextsPass(rows, ["missing"])).toBe("pending");
    expect(requiredContextsPass(rows, ["l*"])).toBe("success");
    expect(requiredContextsPass(rows, [])).toBe("pending");
    expect(requiredContextsPass([], ["lint"])).toBe("pending");
    expect(requiredContextsPass([{ state: "error", context: "ci/a" }, { state: "success", context: "ci/b" }], ["ci/*"])).toBe("failure");
    expect(requiredContextsPass([{ state: "success", context: "ci/a" }, { state: "error", context: "ci/b" }], ["ci/*"])).toBe("success");
    expect(combineStates(["success", "skipped", "warning"])).toBe("success");
    expect(combineStates([])).toBe("pending");
  });
});
