import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { authUrl, gitClient, gitOk, localRepo } from "../support/git.ts";
import { putCollaboration } from "../../src/models/collaboration.ts";
import { enrollTotp } from "../../src/services/user/twofactor.ts";
import { AccessMode } from "../../src/db/schema/index.ts";
import { getRepoByOwner } from "../../src/models/repo.ts";
import { getUserByName } from "../../src/models/user.ts";
import { listBranches } from "../../src/models/branch.ts";

const t = makeTestApp("", { listen: true });
const alice = await t.user("alice", { password: "alice-pass" });
const bob = await t.user("bob", { password: "bob-pass" });
const aliceToken = t.token(alice);
const scratch = () => mkdtempSync(join(tmpdir(), "hearth-clone-"));

async function createRepo(name: string, body: Record<string, unknown> = {}) {
  const r = await t.json("POST", "/api/v1/user/repos", { token: aliceToken, body: { name, ...body } });
  expect(r.status).toBe(201);
  return r.body;
}

function branchNames(repo: string): string[] {
  const owner = getUserByName(t.env.db, "alice")!;
  const row = getRepoByOwner(t.env.db, owner.id, repo)!;
  return listBranches(t.env.db, row.id, 0, 100).rows.map((b) => b.name);
}

describe("clone and fetch", () => {
  test("anyone clones a public repository, with and without .git, protocol v0 and v2", async () => {
    await createRepo("pub", { auto_init: true, description: "public one" });
    const dir = scratch();
    for (const [i, path, proto] of [
      [1, "alice/pub.git", "0"],
      [2, "alice/pub", "2"],
    ] as const) {
      await gitOk(["-c", `protocol.version=${proto}`, "clone", "-q", new URL(path, t.baseUrl).href, join(dir, `c${i}`)]);
      expect(await Bun.file(join(dir, `c${i}`, "README.md")).text()).toBe("# pub\n\npublic one");
    }
    const log = await gitOk(["log", "--format=%s|%an"], { cwd: join(dir, "c1") });
    expect(log.trim()).toBe("Initial commit|alice");
  });

  test("the advertisement carries Gitea's headers", async () => {
    const res = await fetch(new URL("alice/pub.git/info/refs?service=git-upload-pack", t.baseUrl));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-git-upload-pack-advertisement");
    expect(res.headers.get("cache-control")).toBe("no-cache, max-age=0, must-revalidate");
    expect((await res.text()).startsWith("001e# service=git-upload-pack\n0000")).toBe(true);
  });

  test("a private repository asks for credentials, then lets the owner in and keeps others out", async () => {
    await createRepo("secret", { auto_init: true, private: true });
    const anon = await fetch(new URL("alice/secret.git/info/refs?service=git-upload-pack", t.baseUrl));
    expect(anon.status).toBe(401);
    expect(anon.headers.get("www-authenticate")).toBe('Basic realm="Gitea"');
    const dir = scratch();
    const denied = await gitClient(["clone", "-q", new URL("alice/secret.git", t.baseUrl).href, join(dir, "x")]);
    expect(denied.code).not.toBe(0);
    await gitOk(["clone", "-q", authUrl(t.baseUrl, "alice/secret.git", "alice", "alice-pass"), join(dir, "pw")]);
    await gitOk(["clone", "-q", authUrl(t.baseUrl, "alice/secret.git", "alice", aliceToken), join(dir, "tok")]);
    const stranger = await fetch(new URL("alice/secret.git/info/refs?service=git-upload-pack", t.baseUrl), {
      headers: { Authorization: `Basic ${btoa("bob:bob-pass")}` },
    });
    expect(stranger.status).toBe(404);
    expect(await stranger.text()).toBe("Repository not found\n");
    const wrong = await fetch(new URL("alice/secret.git/info/refs?service=git-upload-pack", t.baseUrl), {
      headers: { Authorization: `Basic ${btoa("alice:nope-nope")}` },
    });
    expect(wrong.status).toBe(401);
  });

  test("unknown repositories and owners do not reveal anything", async () => {
    const anon = await fetch(new URL("alice/nothing.git/info/refs?service=git-upload-pack", t.baseUrl));
    expect(anon.status).toBe(401);
    const signed = await fetch(new URL("nobody/nothing.git/info/refs?service=git-upload-pack", t.baseUrl), {
      headers: { Authorization: `token ${aliceToken}` },
    });
    expect(signed.status).toBe(404);
  });

  test("bad requests are 400, not 500", async () => {
    const noService = await fetch(new URL("alice/pub.git/info/refs?service=git-evil", t.baseUrl));
    expect(noService.status).toBe(400);
    const wrongType = await fetch(new URL("alice/pub.git/git-upload-pack", t.baseUrl), { method: "POST", body: "x" });
    expect(wrongType.status).toBe(400);
  });
});

describe("push", () => {
  test("a push into an empty repository makes it non-empty and sets the default branch", async () => {
    await createRepo("empty");
    const work = await localRepo("trunk");
    await gitOk(["push", "-q", authUrl(t.baseUrl, "alice/empty.git", "alice", "alice-pass"), "trunk"], { cwd: work });
    const r = await t.json("GET", "/api/v1/repos/alice/empty");
    expect(r.body.empty).toBe(false);
    expect(r.body.default_branch).toBe("trunk");
    expect(branchNames("empty")).toEqual(["trunk"]);
    // HEAD follows, so a plain clone checks out trunk.
    const dir = scratch();
    await gitOk(["clone", "-q", new URL("alice/empty.git", t.baseUrl).href, join(dir, "c")]);
    expect((await gitOk(["rev-parse", "--abbrev-ref", "HEAD"], { cwd: join(dir, "c") })).trim()).toBe("trunk");
  });

  test("branches and tags, updates, force pushes and deletes keep the branch table in step", async () => {
    await createRepo("flow", { auto_init: true });
    const dir = scratch();
    const url = authUrl(t.baseUrl, "alice/flow.git", "alice", aliceToken);
    await gitOk(["clone", "-q", url, join(dir, "w")]);
    const w = join(dir, "w");
    await gitOk(["checkout", "-q", "-b", "feature/x"], { cwd: w });
    await Bun.write(join(w, "a.txt"), "a\n");
    await gitOk(["add", "."], { cwd: w });
    await gitOk(["commit", "-q", "-m", "add a"], { cwd: w });
    await gitOk(["tag", "-a", "v1", "-m", "release 1"], { cwd: w });
    await gitOk(["push", "-q", "origin", "feature/x", "v1"], { cwd: w });
    expect(branchNames("flow")).toEqual(["feature/x", "main"]);

    await gitOk(["commit", "-q", "--amend", "-m", "rewritten"], { cwd: w });
    await gitOk(["push", "-q", "--force", "origin", "feature/x"], { cwd: w });
    const head = (await gitOk(["rev-parse", "HEAD"], { cwd: w })).trim();
    const owner = getUserByName(t.env.db, "alice")!;
    const row = getRepoByOwner(t.env.db, owner.id, "flow")!;
    const feature = listBranches(t.env.db, row.id, 0, 10).rows.find((b) => b.name === "feature/x")!;
    expect(feature.commitId).toBe(head);
    expect(feature.commitMessage).toBe("rewritten");

    await gitOk(["push", "-q", "origin", "--delete", "feature/x"], { cwd: w });
    expect(branchNames("flow")).toEqual(["main"]);
    const tags = await gitOk(["ls-remote", "--tags", url]);
    expect(tags).toContain("refs/tags/v1");
  });

  test("pushing needs credentials, write access and the write:repository scope", async () => {
    await createRepo("guarded", { auto_init: true });
    const work = await localRepo("other");
    const anon = await gitClient(["push", new URL("alice/guarded.git", t.baseUrl).href, "other"], { cwd: work });
    expect(anon.code).not.toBe(0);
    const stranger = await gitClient(["push", authUrl(t.baseUrl, "alice/guarded.git", "bob", "bob-pass"), "other"], { cwd: work });
    expect(stranger.code).not.toBe(0);

    const owner = getUserByName(t.env.db, "alice")!;
    const repo = getRepoByOwner(t.env.db, owner.id, "guarded")!;
    putCollaboration(t.env.db, repo.id, bob.id, AccessMode.Read);
    const reader = await gitClient(["push", authUrl(t.baseUrl, "alice/guarded.git", "bob", "bob-pass"), "other"], { cwd: work });
    expect(reader.code).not.toBe(0);
    expect(reader.stderr).toContain("403");
    // A read-only collaborator can still clone.
    await gitOk(["clone", "-q", authUrl(t.baseUrl, "alice/guarded.git", "bob", "bob-pass"), join(scratch(), "c")]);

    const readToken = t.token(alice, ["read:repository"]);
    const scoped = await gitClient(["push", authUrl(t.baseUrl, "alice/guarded.git", "alice", readToken), "other"], { cwd: work });
    expect(scoped.code).not.toBe(0);
    expect(branchNames("guarded")).toEqual(["main"]);

    putCollaboration(t.env.db, repo.id, bob.id, AccessMode.Write);
    await gitOk(["push", "-q", authUrl(t.baseUrl, "alice/guarded.git", "bob", "bob-pass"), "other"], { cwd: work });
    expect(branchNames("guarded")).toEqual(["main", "other"]);
  });

  test("an archived repository can be cloned but not pushed to", async () => {
    await createRepo("attic", { auto_init: true });
    await t.json("PATCH", "/api/v1/repos/alice/attic", { token: aliceToken, body: { archived: true } });
    const work = await localRepo("more");
    const r = await gitClient(["push", authUrl(t.baseUrl, "alice/attic.git", "alice", "alice-pass"), "more"], { cwd: work });
    expect(r.code).not.toBe(0);
    await gitOk(["clone", "-q", new URL("alice/attic.git", t.baseUrl).href, join(scratch(), "c")]);
  });

  test("with two-factor enrolled, git needs a token instead of the password", async () => {
    const carol = await t.user("carol", { password: "carol-pass" });
    const token = t.token(carol);
    await t.json("POST", "/api/v1/user/repos", { token, body: { name: "mine", auto_init: true, private: true } });
    await enrollTotp(t.env, carol);
    const res = await fetch(new URL("carol/mine.git/info/refs?service=git-upload-pack", t.baseUrl), {
      headers: { Authorization: `Basic ${btoa("carol:carol-pass")}` },
    });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain("Users with two-factor authentication enabled cannot perform HTTP/HTTPS operations");
    await gitOk(["clone", "-q", authUrl(t.baseUrl, "carol/mine.git", "carol", token), join(scratch(), "c")]);
  });

  test("a renamed repository redirects git to its new name", async () => {
    await createRepo("before", { auto_init: true });
    await t.json("PATCH", "/api/v1/repos/alice/before", { token: aliceToken, body: { name: "after" } });
    const res = await fetch(new URL("alice/before.git/info/refs?service=git-upload-pack", t.baseUrl), { redirect: "manual" });
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/alice/after.git/info/refs?service=git-upload-pack");
    await gitOk(["clone", "-q", new URL("alice/before.git", t.baseUrl).href, join(scratch(), "c")]);
  });

  test("the hook endpoints refuse callers without the internal token", async () => {
    for (const name of ["pre-receive", "post-receive"]) {
      const res = await fetch(new URL(`api/internal/hook/${name}`, t.baseUrl), {
        method: "POST",
        headers: { Authorization: "Bearer wrong", "Content-Type": "application/json" },
        body: JSON.stringify({ repo_id: 1, pusher_id: 1, updates: [] }),
      });
      expect(res.status).toBe(403);
    }
  });
});
