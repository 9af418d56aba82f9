import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { Issue } from "../../src/shapes/issue.ts";

const t = makeTestApp();
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);
const carol = await t.user("carol");
const carolToken = t.token(carol);

async function ok(method: string, path: string, token: string | undefined, body?: unknown, status = 200) {
  const r = await t.json(method, path, { token, body });
  expect({ path, status: r.status, body: r.status === status ? undefined : r.body }).toEqual({ path, status, body: undefined });
  return r.body;
}

await ok("POST", "/api/v1/user/repos", aliceToken, { name: "proj" }, 201);
await ok("POST", "/api/v1/user/repos", aliceToken, { name: "secret", private: true }, 201);
await ok("POST", "/api/v1/user/repos", bobToken, { name: "tools" }, 201);
await ok("POST", "/api/v1/orgs", aliceToken, { username: "acme" }, 201);
await ok("POST", "/api/v1/orgs/acme/repos", aliceToken, { name: "web" }, 201);
await ok("POST", "/api/v1/orgs/acme/repos", aliceToken, { name: "api" }, 201);
const team = await ok("POST", "/api/v1/orgs/acme/teams", aliceToken, { name: "webdev", permission: "write", units: ["repo.issues"] }, 201);
await ok("PUT", `/api/v1/teams/${team.id}/repos/acme/web`, aliceToken, undefined, 204);

const bug = await ok("POST", "/api/v1/repos/alice/proj/labels", aliceToken, { name: "bug", color: "#ff0000" }, 201);
const v1 = await ok("POST", "/api/v1/repos/alice/proj/milestones", aliceToken, { title: "v1" }, 201);
// In creation order (the search answers newest first).
await ok("POST", "/api/v1/repos/alice/proj/issues", bobToken, { title: "crash on start" }, 201); // proj#1
await ok("POST", "/api/v1/repos/alice/proj/issues", aliceToken, { title: "docs", labels: [bug.id], milestone: v1.id, assignees: ["alice"] }, 201); // proj#2
await ok("POST", "/api/v1/repos/alice/secret/issues", aliceToken, { title: "secret crash" }, 201);
await ok("POST", "/api/v1/repos/bob/tools/issues", bobToken, { title: "tools issue", closed: true }, 201);
await ok("POST", "/api/v1/repos/acme/web/issues", aliceToken, { title: "web issue" }, 201);
await ok("POST", "/api/v1/repos/acme/api/issues", carolToken, { title: "api issue mentions @bob", body: "@bob please look" }, 201);

const titles = async (query: string, token?: string) =>
  ((await ok("GET", `/api/v1/repos/issues/search${query}`, token)) as { title: string }[]).map((i) => i.title);

describe("issue search", () => {
  test("anonymous callers search public repositories only, newest first, open by default", async () => {
    const r = await t.json("GET", "/api/v1/repos/issues/search");
    expect(r.status).toBe(200);
    expectShape(r.body[0], Issue);
    expect(r.body.map((i: { title: string }) => i.title)).toEqual(["api issue mentions @bob", "web issue", "docs", "crash on start"]);
    expect(r.headers.get("x-total-count")).toBe("4");
    expect(await titles("?state=all")).toContain("tools issue");
  });

  test("signed-in callers also see what they may read; others' private repositories stay out", async () => {
    expect(await titles("?q=crash", aliceToken)).toEqual(["secret crash", "crash on start"]);
    expect(await titles("?q=crash", bobToken)).toEqual(["crash on start"]);
    // A public-only token narrows to public repositories.
    expect(await titles("?q=crash", t.token(alice, ["public-only", "read:issue"]))).toEqual(["crash on start"]);
  });

  test("state, type, labels, milestones, since/before", async () => {
    expect(await titles("?state=closed")).toEqual(["tools issue"]);
    expect(await titles("?type=pulls")).toEqual([]);
    expect(await titles("?type=issues&q=docs")).toEqual(["docs"]);
    expect(await titles("?labels=bug,nope")).toEqual(["docs"]);
    // Names that match no label are dropped; with none left there is no label filter (Gitea's rule).
    expect((await titles("?labels=nope")).length).toBe(4);
    expect(await titles("?milestones=v1")).toEqual(["docs"]);
    expect(await titles("?since=2999-01-01T00:00:00Z")).toEqual([]);
    expect((await titles("?before=2999-01-01T00:00:00Z")).length).toBe(4);
    expect((await t.json("GET", "/api/v1/repos/issues/search?since=later")).status).toBe(422);
  });

  test("created, assigned and mentioned narrow to the doer; without a doer they are ignored", async () => {
    expect(await titles("?created=true", bobToken)).toEqual(["crash on start"]);
    expect(await titles("?assigned=true", aliceToken)).toEqual(["docs"]);
    expect(await titles("?mentioned=true", bobToken)).toEqual(["api issue mentions @bob"]);
    expect((await titles("?created=true")).length).toBe(4);
    // No review exists, so nothing was requested or reviewed.
    expect(await titles("?review_requested=true", bobToken)).toEqual([]);
    expect(await titles("?reviewed=true", bobToken)).toEqual([]);
  });

  test("owner and team narrow the repositories; unknown ones are 400", async () => {
    expect(await titles("?owner=acme")).toEqual(["api issue mentions @bob", "web issue"]);
    expect(await titles("?owner=acme&team=webdev", aliceToken)).toEqual(["web issue"]);
    expect((await t.json("GET", "/api/v1/repos/issues/search?owner=nobody")).status).toBe(400);
    const noOwner = await t.json("GET", "/api/v1/repos/issues/search?team=webdev");
    expect(noOwner.status).toBe(400);
    expect(noOwner.body.message).toBe("Owner organisation is required for filtering on team");
    expect((await t.json("GET", "/api/v1/repos/issues/search?owner=acme&team=nope")).status).toBe(400);
  });

  test("paging: limit and page with X-Total-Count and Link", async () => {
    const r = await t.json("GET", "/api/v1/repos/issues/search?limit=1&page=2");
    expect(r.body.map((i: { title: string }) => i.title)).toEqual(["web issue"]);
    expect(r.headers.get("x-total-count")).toBe("4");
    expect(r.headers.get("link")).toContain('rel="next"');
  });

  test("issues of a repository whose issue tracker is switched off are not found", async () => {
    await ok("POST", "/api/v1/user/repos", aliceToken, { name: "old" }, 201);
    await ok("POST", "/api/v1/repos/alice/old/issues", aliceToken, { title: "old tracker" }, 201);
    expect(await titles("?q=old", aliceToken)).toEqual(["old tracker"]);
    await ok("PATCH", "/api/v1/repos/alice/old", aliceToken, { has_issues: false });
    expect(await titles("?q=old", aliceToken)).toEqual([]);
  });
});

// A second site whose only repository is private: a user who reads no repository must get nothing, not everything.
const t2 = makeTestApp();
const owner = await t2.user("owner");
const ownerToken = t2.token(owner);
const eve = await t2.user("eve");
const eveToken = t2.token(eve);
expect((await t2.json("POST", "/api/v1/user/repos", { token: ownerToken, body: { name: "private", private: true } })).status).toBe(201);
expect((await t2.json("POST", "/api/v1/repos/owner/private/issues", { token: ownerToken, body: { title: "hidden" } })).status).toBe(201);

describe("issue search with nothing in scope", () => {
  test("a user with no readable repository gets an empty list; so does an anonymous caller", async () => {
    for (const token of [eveToken, undefined]) {
      const r = await t2.json("GET", "/api/v1/repos/issues/search?state=all", { token });
      expect(r.status).toBe(200);
      expect(r.body).toEqual([]);
      expect(r.headers.get("x-total-count")).toBe("0");
    }
    const mine = await t2.json("GET", "/api/v1/repos/issues/search", { token: ownerToken });
    expect(mine.body.map((i: { title: string }) => i.title)).toEqual(["hidden"]);
  });
});
