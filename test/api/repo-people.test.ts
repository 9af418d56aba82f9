import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";

const t = makeTestApp();
const alice = await t.user("alice");
const bob = await t.user("bob");
const carol = await t.user("carol");
const dave = await t.user("dave");
const aliceToken = t.token(alice);
const daveToken = t.token(dave);
const names = (users: any[]) => users.map((u) => u.login);

await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "pub", auto_init: true }, 201);
await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "priv", private: true }, 201);
for (const repo of ["pub", "priv"]) {
  await t.ok("PUT", `/api/v1/repos/alice/${repo}/collaborators/bob`, aliceToken, { permission: "write" }, 204);
  await t.ok("PUT", `/api/v1/repos/alice/${repo}/collaborators/carol`, aliceToken, { permission: "read" }, 204);
}
// dave only watches the public repository.
await t.ok("PUT", "/api/v1/repos/alice/pub/subscription", daveToken);

describe("GET /repos/{owner}/{repo}/assignees and /reviewers", () => {
  test("assignees: writers by name, then the owner", async () => {
    expect(names(await t.ok("GET", "/api/v1/repos/alice/pub/assignees", aliceToken))).toEqual(["bob", "alice"]);
  });

  test("reviewers: readers; in a public repository also watchers", async () => {
    expect(names(await t.ok("GET", "/api/v1/repos/alice/pub/reviewers", aliceToken))).toEqual(["alice", "bob", "carol", "dave"]);
    expect(names(await t.ok("GET", "/api/v1/repos/alice/priv/reviewers", aliceToken))).toEqual(["alice", "bob", "carol"]);
  });

  test("a token is required; a private repository stays hidden from strangers", async () => {
    expect((await t.json("GET", "/api/v1/repos/alice/pub/assignees")).status).toBe(401);
    expect((await t.json("GET", "/api/v1/repos/alice/priv/reviewers", { token: daveToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/repos/alice/nope/assignees", { token: aliceToken })).status).toBe(404);
  });
});
