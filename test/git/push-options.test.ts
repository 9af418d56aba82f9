import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { authUrl, gitClient, gitOk, localRepo } from "../support/git.ts";
import { putCollaboration } from "../../src/models/collaboration.ts";
import { AccessMode } from "../../src/db/schema/index.ts";

const t = makeTestApp("", { listen: true });
const alice = await t.user("alice", { password: "alice-pass" });
const bob = await t.user("bob", { password: "bob-pass" });
const aliceToken = t.token(alice);
const bobToken = t.token(bob);

const repo = await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "proj" }, 201);
const work = await localRepo();
await gitOk(["push", "-q", authUrl(t.baseUrl, "alice/proj.git", "alice", "alice-pass"), "main"], { cwd: work });

let n = 0;
/** Pushes a new branch (so there is always a ref to update and the hooks run) with `-o` options. */
function pushWith(user: string, password: string, ...options: string[]) {
  const args = ["push", ...options.flatMap((o) => ["-o", o]), authUrl(t.baseUrl, "alice/proj.git", user, password), `main:refs/heads/b${++n}`];
  return gitClient(args, { cwd: work });
}
const settings = async () => {
  const r = await t.ok("GET", "/api/v1/repos/alice/proj", aliceToken);
  return { private: r.private, template: r.template };
};

describe("git push -o repo.private / repo.template", () => {
  test("the owner's options change the repository after the push", async () => {
    expect((await pushWith("alice", "alice-pass", "repo.private=true")).code).toBe(0);
    expect(await settings()).toEqual({ private: true, template: false });
    expect((await pushWith("alice", "alice-pass", "repo.private=false", "repo.template=true")).code).toBe(0);
    expect(await settings()).toEqual({ private: false, template: true });
    // a bare option is true, Go's ParseBool spellings count, and the last of a key wins
    expect((await pushWith("alice", "alice-pass", "repo.template=F", "repo.private")).code).toBe(0);
    expect(await settings()).toEqual({ private: true, template: false });
    expect((await pushWith("alice", "alice-pass", "repo.private=true", "repo.private=0")).code).toBe(0);
    expect(await settings()).toEqual({ private: false, template: false });
  });

  test("values that are not booleans and unknown options change nothing", async () => {
    const r = await pushWith("alice", "alice-pass", "repo.private=yes", "repo.template=1=1", "ci.skip");
    expect(r.code).toBe(0);
    expect(await settings()).toEqual({ private: false, template: false });
  });

  test("a writer's push lands, but its options are refused with Gitea's message", async () => {
    putCollaboration(t.env.db, repo.id, bob.id, AccessMode.Write);
    const before = n;
    const r = await pushWith("bob", "bob-pass", "repo.private=true");
    // post-receive runs after the refs moved: git reports the failure, not a rejected push
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("Permissions denied");
    expect(await settings()).toEqual({ private: false, template: false });
    expect((await t.json("GET", `/api/v1/repos/alice/proj/branches/b${before + 1}`, { token: bobToken })).status).toBe(200);
  });

  test("a repository administrator may set them; turning private drops the stars as the API edit does", async () => {
    await t.ok("PUT", "/api/v1/user/starred/alice/proj", bobToken, undefined, 204);
    putCollaboration(t.env.db, repo.id, bob.id, AccessMode.Admin);
    expect((await pushWith("bob", "bob-pass", "repo.private=true", "repo.template=true")).code).toBe(0);
    expect(await settings()).toEqual({ private: true, template: true });
    expect((await t.ok("GET", "/api/v1/repos/alice/proj", aliceToken)).stars_count).toBe(0);
  });
});
