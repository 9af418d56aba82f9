import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { makeTestApp, type TestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { gitOk } from "../support/git.ts";
import { MergeUpstreamResponse } from "../../src/shapes/merge-upstream.ts";
import { getBranch } from "../../src/models/branch.ts";

const t = makeTestApp("", { listen: true });
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);
const carol = await t.user("carol");
const carolToken = t.token(carol);

const dirOf = (app: TestApp, owner: string, name: string) => join(app.settings.repository.root, owner, `${name}.git`);
const tipOf = async (owner: string, repo: string, branch: string) =>
  (await gitOk(["--git-dir", dirOf(t, owner, repo), "rev-parse", `refs/heads/${branch}`])).trim();

async function createRepo(token: string, name: string, extra: Record<string, unknown> = {}) {
  const r = await t.json("POST", "/api/v1/user/repos", { token, body: { name, auto_init: true, ...extra } });
  expect(r.status).toBe(201);
  return r.body;
}

async function fork(owner: string, repo: string, token: string) {
  const r = await t.json("POST", `/api/v1/repos/${owner}/${repo}/forks`, { token, body: {} });
  expect(r.status).toBe(202);
  return r.body;
}

/** A commit made through the contents API, so it is a push like any other. */
async function addFile(owner: string, repo: string, token: string, path: string, text: string, branch = "main") {
  const r = await t.json("POST", `/api/v1/repos/${owner}/${repo}/contents/${path}`, {
    token,
    body: { content: Buffer.from(text).toString("base64"), message: `add ${path}`, branch },
  });
  expect(r.status).toBe(201);
}

const mergeUpstream = (owner: string, repo: string, token: string | undefined, body: Record<string, unknown>) =>
  t.json("POST", `/api/v1/repos/${owner}/${repo}/merge-upstream`, { token, body });

describe("POST /repos/{owner}/{repo}/merge-upstream", () => {
  test("a fork behind its base is fast-forwarded; the branch table follows", async () => {
    await createRepo(aliceToken, "ff");
    const f = await fork("alice", "ff", bobToken);
    await addFile("alice", "ff", aliceToken, "new.txt", "upstream\n");
    const upstream = await tipOf("alice", "ff", "main");
    expect(await tipOf("bob", "ff", "main")).not.toBe(upstream);

    const r = await mergeUpstream("bob", "ff", bobToken, { branch: "main" });
    expect(r.status).toBe(200);
    expectShape(r.body, MergeUpstreamResponse);
    expect(r.body).toEqual({ merge_type: "fast-forward" });
    expect(await tipOf("bob", "ff", "main")).toBe(upstream);
    expect(getBranch(t.env.db, f.id, "main")?.commitId).toBe(upstream);
    // no scratch ref is left in the fork
    expect((await gitOk(["--git-dir", dirOf(t, "bob", "ff"), "for-each-ref", "refs/hearth/"])).trim()).toBe("");

    // again: nothing to bring in
    const again = await mergeUpstream("bob", "ff", bobToken, { branch: "main" });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ merge_type: "up-to-date" });
    expect(await tipOf("bob", "ff", "main")).toBe(upstream);
  });

  test("a diverged fork gets a merge commit by the doer; ff_only refuses it with 400 and leaves the branch", async () => {
    await createRepo(aliceToken, "dv");
    const f = await fork("alice", "dv", bobToken);
    await addFile("alice", "dv", aliceToken, "up.txt", "upstream\n");
    await addFile("bob", "dv", bobToken, "mine.txt", "fork\n");
    const upstream = await tipOf("alice", "dv", "main");
    const mine = await tipOf("bob", "dv", "main");

    const refused = await mergeUpstream("bob", "dv", bobToken, { branch: "main", ff_only: true });
    expect(refused.status).toBe(400);
    expect(await tipOf("bob", "dv", "main")).toBe(mine);

    const r = await mergeUpstream("bob", "dv", bobToken, { branch: "main" });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ merge_type: "merge" });
    const tip = await tipOf("bob", "dv", "main");
    const dir = dirOf(t, "bob", "dv");
    expect((await gitOk(["--git-dir", dir, "rev-list", "--parents", "-n1", tip])).trim().split(" ").slice(1)).toEqual([mine, upstream]);
    expect(await gitOk(["--git-dir", dir, "log", "-1", "--format=%an|%cn|%B", tip])).toBe("bob|bob|merge upstream\n\n");
    expect((await gitOk(["--git-dir", dir, "ls-tree", "--name-only", tip])).trim().split("\n")).toEqual(expect.arrayContaining(["up.txt", "mine.txt"]));
    expect(getBranch(t.env.db, f.id, "main")?.commitId).toBe(tip);

    // the fork now contains upstream: up to date
    expect((await mergeUpstream("bob", "dv", bobToken, { branch: "main" })).body).toEqual({ merge_type: "up-to-date" });
  });

  test("conflicting changes: 409 and the branch stays", async () => {
    await createRepo(aliceToken, "cf");
    await fork("alice", "cf", bobToken);
    await addFile("alice", "cf", aliceToken, "same.txt", "upstream\n");
    await addFile("bob", "cf", bobToken, "same.txt", "fork\n");
    const mine = await tipOf("bob", "cf", "main");
    const r = await mergeUpstream("bob", "cf", bobToken, { branch: "main" });
    expect(r.status).toBe(409);
    expect(r.body.message).toContain("same.txt");
    expect(await tipOf("bob", "cf", "main")).toBe(mine);
  });

  test("not a fork: 400; a branch missing on either side: 404", async () => {
    await createRepo(aliceToken, "plain");
    const notFork = await mergeUpstream("alice", "plain", aliceToken, { branch: "main" });
    expect(notFork.status).toBe(400);
    expect(notFork.body.message).toBe("repo is not a fork");

    await createRepo(aliceToken, "nb");
    await fork("alice", "nb", bobToken);
    expect((await mergeUpstream("bob", "nb", bobToken, { branch: "nope" })).status).toBe(404);
    expect((await mergeUpstream("bob", "nb", bobToken, {})).status).toBe(404);
    // a branch only the fork has
    const b = await t.json("POST", "/api/v1/repos/bob/nb/branches", { token: bobToken, body: { new_branch_name: "only-fork" } });
    expect(b.status).toBe(201);
    expect((await mergeUpstream("bob", "nb", bobToken, { branch: "only-fork" })).status).toBe(404);
  });

  test("access: writers of the fork only, with a write:repository token", async () => {
    await createRepo(aliceToken, "acc");
    await fork("alice", "acc", bobToken);
    await addFile("alice", "acc", aliceToken, "x.txt", "x\n");
    const before = await tipOf("bob", "acc", "main");
    // carol can read bob's public fork but not write it
    expect((await mergeUpstream("bob", "acc", carolToken, { branch: "main" })).status).toBe(403);
    // alice owns the base, not the fork
    expect((await mergeUpstream("bob", "acc", aliceToken, { branch: "main" })).status).toBe(403);
    expect((await mergeUpstream("bob", "acc", undefined, { branch: "main" })).status).toBe(401);
    const readOnly = t.token(bob, ["read:repository"], "ro");
    expect((await mergeUpstream("bob", "acc", readOnly, { branch: "main" })).status).toBe(403);
    expect(await tipOf("bob", "acc", "main")).toBe(before);
    const writeToken = t.token(bob, ["write:repository"], "rw");
    expect((await mergeUpstream("bob", "acc", writeToken, { branch: "main" })).body).toEqual({ merge_type: "fast-forward" });
  });

  test("a base the doer can no longer read is not there for them: 404", async () => {
    await createRepo(aliceToken, "secret", { private: true });
    const add = await t.json("PUT", "/api/v1/repos/alice/secret/collaborators/bob", { token: aliceToken, body: { permission: "read" } });
    expect(add.status).toBe(204);
    await fork("alice", "secret", bobToken);
    await addFile("alice", "secret", aliceToken, "s.txt", "s\n");
    const gone = await t.json("DELETE", "/api/v1/repos/alice/secret/collaborators/bob", { token: aliceToken });
    expect(gone.status).toBe(204);
    const before = await tipOf("bob", "secret", "main");
    expect((await mergeUpstream("bob", "secret", bobToken, { branch: "main" })).status).toBe(404);
    expect(await tipOf("bob", "secret", "main")).toBe(before);
  });

  test("an archived fork: 423 (Gitea's mustNotBeArchived)", async () => {
    await createRepo(aliceToken, "arc");
    await fork("alice", "arc", bobToken);
    expect((await t.json("PATCH", "/api/v1/repos/bob/arc", { token: bobToken, body: { archived: true } })).status).toBe(200);
    expect((await mergeUpstream("bob", "arc", bobToken, { branch: "main" })).status).toBe(423);
  });

  test("the fork's branch protection applies as to a push: 403 and the branch stays", async () => {
    await createRepo(aliceToken, "prot");
    await fork("alice", "prot", bobToken);
    await addFile("alice", "prot", aliceToken, "p.txt", "p\n");
    const rule = await t.json("POST", "/api/v1/repos/bob/prot/branch_protections", { token: bobToken, body: { rule_name: "main", enable_push: false } });
    expect(rule.status).toBe(201);
    const before = await tipOf("bob", "prot", "main");
    expect((await mergeUpstream("bob", "prot", bobToken, { branch: "main" })).status).toBe(403);
    expect(await tipOf("bob", "prot", "main")).toBe(before);
  });
});
