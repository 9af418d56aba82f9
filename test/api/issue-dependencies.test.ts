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
await ok("POST", "/api/v1/user/repos", aliceToken, { name: "other" }, 201);
await ok("PUT", "/api/v1/repos/alice/proj/collaborators/carol", aliceToken, { permission: "write" }, 204);
const repo = "/api/v1/repos/alice/proj";
for (let i = 1; i <= 4; i++) await ok("POST", `${repo}/issues`, bobToken, { title: `issue ${i}` }, 201);
await ok("POST", "/api/v1/repos/alice/secret/issues", aliceToken, { title: "secret plan" }, 201);
await ok("POST", "/api/v1/repos/alice/other/issues", aliceToken, { title: "elsewhere" }, 201);

const meta = (index: number, name = "proj", owner = "alice") => ({ owner, repo: name, index });
const numbers = (list: { number: number }[]) => list.map((i) => i.number);

describe("dependencies", () => {
  test("a writer makes #1 depend on #2: 201 with #1, listed both ways, events on both", async () => {
    const r = await t.json("POST", `${repo}/issues/1/dependencies`, { token: carolToken, body: meta(2) });
    expect(r.status).toBe(201);
    expectShape(r.body, Issue);
    expect(r.body.number).toBe(1);
    const deps = await ok("GET", `${repo}/issues/1/dependencies`, undefined);
    expect(numbers(deps)).toEqual([2]);
    expectShape(deps[0], Issue);
    expect(numbers(await ok("GET", `${repo}/issues/2/blocks`, undefined))).toEqual([1]);
    expect(await ok("GET", `${repo}/issues/2/dependencies`, undefined)).toEqual([]);
    for (const [n, other] of [
      [1, 2],
      [2, 1],
    ]) {
      const events = await ok("GET", `${repo}/issues/${n}/timeline`, carolToken);
      expect(events.map((e: { type: string; dependent_issue: { number: number } }) => [e.type, e.dependent_issue.number])).toEqual([
        ["add_dependency", other],
      ]);
    }
  });

  test("an issue with an open dependency cannot be closed", async () => {
    const r = await t.json("PATCH", `${repo}/issues/1`, { token: carolToken, body: { state: "closed" } });
    expect(r.status).toBe(412);
  });

  test("duplicates and cycles are 409, an issue on itself 422", async () => {
    const dup = await t.json("POST", `${repo}/issues/1/dependencies`, { token: carolToken, body: meta(2) });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toMatch(/^issue dependency does already exist/);
    const cycle = await t.json("POST", `${repo}/issues/2/dependencies`, { token: carolToken, body: meta(1) });
    expect(cycle.status).toBe(409);
    expect(cycle.body.message).toMatch(/^circular dependencies exists/);
    const self = await t.json("POST", `${repo}/issues/3/dependencies`, { token: carolToken, body: meta(3) });
    expect(self.status).toBe(422);
  });

  test("readers get 404, anonymous 401, unknown issues and repositories 404", async () => {
    expect((await t.json("POST", `${repo}/issues/3/dependencies`, { token: bobToken, body: meta(4) })).status).toBe(404);
    expect((await t.json("POST", `${repo}/issues/3/dependencies`, { body: meta(4) })).status).toBe(401);
    expect((await t.json("POST", `${repo}/issues/3/dependencies`, { token: carolToken, body: meta(99) })).status).toBe(404);
    expect((await t.json("POST", `${repo}/issues/99/dependencies`, { token: carolToken, body: meta(4) })).status).toBe(404);
    expect((await t.json("POST", `${repo}/issues/3/dependencies`, { token: carolToken, body: meta(1, "nope") })).status).toBe(404);
    expect((await t.json("POST", `${repo}/issues/3/dependencies`, { token: carolToken, body: {} })).status).toBe(404);
    // A private repository the writer cannot read is reported like a missing one.
    expect((await t.json("POST", `${repo}/issues/3/dependencies`, { token: carolToken, body: meta(1, "secret") })).status).toBe(404);
  });

  test("a blocker in a repository the doer cannot read: writers see it confidentially, readers as HIDDEN", async () => {
    expect((await t.json("POST", `${repo}/issues/3/dependencies`, { token: aliceToken, body: meta(1, "secret") })).status).toBe(201);
    const full = await ok("GET", `${repo}/issues/3/dependencies`, aliceToken);
    expect(full.map((i: { title: string; repository: { full_name: string } }) => [i.title, i.repository.full_name])).toEqual([
      ["secret plan", "alice/secret"],
    ]);
    const confidential = await ok("GET", `${repo}/issues/3/dependencies`, carolToken);
    expect(confidential).toHaveLength(1);
    expect(confidential[0]).toMatchObject({ id: 0, number: 1, title: "secret plan", body: "", repository: { full_name: "alice/secret" } });
    expect(confidential[0].user.login).toBe("Ghost");
    const hidden = await ok("GET", `${repo}/issues/3/dependencies`, bobToken);
    expect(hidden).toHaveLength(1);
    expect(hidden[0]).toMatchObject({ id: 0, number: 0, title: "HIDDEN", url: "" });
    expect((await ok("GET", `${repo}/issues/3/dependencies`, undefined))[0].title).toBe("HIDDEN");
    // The blocked issue is listed under the secret one only for those who read proj, and the
    // secret issue's own lists stay private.
    expect(numbers(await ok("GET", "/api/v1/repos/alice/secret/issues/1/blocks", aliceToken))).toEqual([3]);
    expect((await t.json("GET", "/api/v1/repos/alice/secret/issues/1/blocks", { token: bobToken })).status).toBe(404);
    // Events in the blocked issue do not show an unreadable dependent issue.
    const events = await ok("GET", `${repo}/issues/3/timeline`, bobToken);
    expect(events.map((e: { type: string; dependent_issue: unknown }) => [e.type, e.dependent_issue])).toEqual([["add_dependency", null]]);
  });

  test("/blocks: the path issue blocks the body's, answers with the path issue; removal undoes it", async () => {
    const r = await t.json("POST", `${repo}/issues/4/blocks`, { token: carolToken, body: meta(2) });
    expect(r.status).toBe(201);
    expect(r.body.number).toBe(4);
    expect(numbers(await ok("GET", `${repo}/issues/2/dependencies`, undefined))).toEqual([4]);
    expect(numbers(await ok("GET", `${repo}/issues/4/blocks`, undefined))).toEqual([2]);
    const removed = await t.json("DELETE", `${repo}/issues/4/blocks`, { token: carolToken, body: meta(2) });
    expect(removed.status).toBe(201);
    expect(removed.body.number).toBe(4);
    expect(await ok("GET", `${repo}/issues/4/blocks`, undefined)).toEqual([]);
    expect((await t.json("POST", `${repo}/issues/4/blocks`, { token: bobToken, body: meta(2) })).status).toBe(404);
  });

  test("removing a dependency: 201 with the blocked issue, events on both, a missing one 404", async () => {
    const r = await t.json("DELETE", `${repo}/issues/1/dependencies`, { token: carolToken, body: meta(2) });
    expect(r.status).toBe(201);
    expect(r.body.number).toBe(1);
    expect(await ok("GET", `${repo}/issues/1/dependencies`, undefined)).toEqual([]);
    const types = (await ok("GET", `${repo}/issues/2/timeline`, undefined)).map((e: { type: string }) => e.type);
    expect(types).toEqual(["add_dependency", "add_dependency", "remove_dependency", "remove_dependency"]);
    const again = await t.json("DELETE", `${repo}/issues/1/dependencies`, { token: carolToken, body: meta(2) });
    expect(again.status).toBe(404);
    expect(again.body.message).toMatch(/^issue dependency does not exist/);
    // Now #1 can be closed.
    expect((await t.json("PATCH", `${repo}/issues/1`, { token: carolToken, body: { state: "closed" } })).status).toBe(201);
  });

  test("cross-repository dependencies between readable repositories work", async () => {
    expect((await t.json("POST", `${repo}/issues/2/dependencies`, { token: aliceToken, body: meta(1, "other") })).status).toBe(201);
    const deps = await ok("GET", `${repo}/issues/2/dependencies`, bobToken);
    expect(deps.map((i: { repository: { full_name: string } }) => i.repository.full_name)).toEqual(["alice/other"]);
    expect(numbers(await ok("GET", "/api/v1/repos/alice/other/issues/1/blocks", bobToken))).toEqual([2]);
  });

  test("with dependencies switched off the list is 404 and changes are refused; archived repositories are 423", async () => {
    await ok("PATCH", repo, aliceToken, { has_issues: true, internal_tracker: { enable_issue_dependencies: false } });
    expect((await t.json("GET", `${repo}/issues/2/dependencies`)).status).toBe(404);
    expect((await t.json("POST", `${repo}/issues/3/dependencies`, { token: aliceToken, body: meta(4) })).status).toBe(404);
    await ok("PATCH", repo, aliceToken, { has_issues: true, internal_tracker: { enable_issue_dependencies: true } });
    await ok("PATCH", repo, aliceToken, { archived: true });
    expect((await t.json("POST", `${repo}/issues/3/dependencies`, { token: aliceToken, body: meta(4) })).status).toBe(423);
    expect((await t.json("GET", `${repo}/issues/2/dependencies`)).status).toBe(200);
  });
});
