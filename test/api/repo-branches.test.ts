import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { authUrl, gitOk } from "../support/git.ts";
import { expectShape } from "../support/shape.ts";
import { Branch } from "../../src/shapes/branch.ts";
import { getRepoByOwner } from "../../src/models/repo.ts";
import { getUserByName } from "../../src/models/user.ts";
import { deleteBranches, getBranch, listBranches, upsertBranch } from "../../src/models/branch.ts";
import { putCollaboration } from "../../src/models/collaboration.ts";
import { AccessMode } from "../../src/db/schema/index.ts";
import { gitDirOf } from "../../src/services/repo/lookup.ts";

const t = makeTestApp("", { listen: true });
const alice = await t.user("alice", { password: "alice-pass" });
const bob = await t.user("bob");
const aliceToken = t.token(alice);
const bobToken = t.token(bob);
const api = (repo: string, rest = "") => `/api/v1/repos/alice/${repo}${rest}`;

async function createRepo(name: string, body: Record<string, unknown> = { auto_init: true }) {
  const r = await t.json("POST", "/api/v1/user/repos", { token: aliceToken, body: { name, ...body } });
  expect(r.status).toBe(201);
  return r.body;
}

function repoRow(name: string) {
  return getRepoByOwner(t.env.db, getUserByName(t.env.db, "alice")!.id, name)!;
}

const gitDir = (name: string) => gitDirOf(t.env, { name: "alice" }, { name });
const rev = (name: string, r: string) => gitOk(["--git-dir", gitDir(name), "rev-parse", "--verify", r]).then((s) => s.trim());

/** Clones over HTTP, runs `work` in the clone, pushes the given refspecs. */
async function pushFrom(repo: string, refspecs: string[], work: (dir: string) => Promise<void>) {
  const dir = join(mkdtempSync(join(tmpdir(), "hearth-br-")), "w");
  await gitOk(["clone", "-q", authUrl(t.baseUrl, `alice/${repo}.git`, "alice", "alice-pass"), dir]);
  await work(dir);
  await gitOk(["push", "-q", "origin", ...refspecs], { cwd: dir });
}

async function commitIn(dir: string, file: string, date: string) {
  await Bun.write(join(dir, file), `${file}\n`);
  await gitOk(["add", file], { cwd: dir });
  await gitOk(["commit", "-q", "-m", `add ${file}`], {
    cwd: dir,
    env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
  });
}

await createRepo("r1");
await pushFrom("r1", ["a-same:a-same", "feature/x:feature/x", "dev:dev"], async (dir) => {
  await gitOk(["branch", "a-same"], { cwd: dir });
  await gitOk(["checkout", "-q", "-b", "feature/x"], { cwd: dir });
  await commitIn(dir, "x.txt", "2030-01-02T03:04:05+02:00");
  await gitOk(["checkout", "-q", "-b", "dev", "main"], { cwd: dir });
  await commitIn(dir, "dev.txt", "2001-01-01T00:00:00Z");
});

describe("GET /branches", () => {
  test("lists the branch table newest commit first, then by name, in Gitea's shape", async () => {
    const r = await t.json("GET", api("r1", "/branches"), { token: aliceToken });
    expect(r.status).toBe(200);
    expect(r.body.map((b: { name: string }) => b.name)).toEqual(["feature/x", "a-same", "main", "dev"]);
    expect(r.headers.get("x-total-count")).toBe("4");
    for (const b of r.body) expectShape(b, Branch);
    const fx = r.body[0];
    expect(fx.commit.id).toBe(await rev("r1", "feature/x"));
    expect(fx.commit.message).toBe("add x.txt\n");
    expect(fx.commit.timestamp).toBe("2030-01-02T03:04:05+02:00");
    expect(fx.commit.url).toBe(`${t.baseUrl}alice/r1/commit/${fx.commit.id}`);
    expect(fx.commit.author).toEqual({ name: "Test", email: "test@example.com", username: "" });
    expect(fx.commit.verification).toEqual({
      verified: false,
      reason: "gpg.error.not_signed_commit",
      signature: "",
      signer: null,
      payload: "",
    });
    expect(fx.commit.added).toBeNull();
    expect(fx).toMatchObject({
      protected: false,
      required_approvals: 0,
      enable_status_check: false,
      status_check_contexts: [],
      user_can_push: true,
      user_can_merge: true,
      effective_branch_protection_name: "",
    });
    // The initial commit was made by alice: her username comes from her email.
    const main = r.body.find((b: { name: string }) => b.name === "main");
    expect(main.commit.author.username).toBe("alice");
    expect(r.body[3].commit.timestamp).toBe("2001-01-01T00:00:00Z");
  });

  test("pages with Link and X-Total-Count", async () => {
    const r = await t.json("GET", api("r1", "/branches?limit=2&page=2"));
    expect(r.body.map((b: { name: string }) => b.name)).toEqual(["main", "dev"]);
    expect(r.headers.get("x-total-count")).toBe("4");
    expect(r.headers.get("link")).toContain('rel="first"');
  });

  test("anonymous and read-only callers see user_can_push false", async () => {
    const anon = await t.json("GET", api("r1", "/branches"));
    expect(anon.status).toBe(200);
    expect(anon.body[0].user_can_push).toBe(false);
    const reader = await t.json("GET", api("r1", "/branches"), { token: bobToken });
    expect(reader.body[0]).toMatchObject({ user_can_push: false, user_can_merge: false });
  });

  test("an empty table is rebuilt from git first (Gitea's full sync)", async () => {
    deleteBranches(t.env.db, repoRow("r1").id, ["main", "dev", "feature/x", "a-same"]);
    expect(listBranches(t.env.db, repoRow("r1").id, 0, 10).total).toBe(0);
    const r = await t.json("GET", api("r1", "/branches"));
    expect(r.body.map((b: { name: string }) => b.name)).toEqual(["feature/x", "a-same", "main", "dev"]);
    expect(listBranches(t.env.db, repoRow("r1").id, 0, 10).total).toBe(4);
  });

  test("a row whose ref is gone from git is skipped and not counted", async () => {
    await gitOk(["--git-dir", gitDir("r1"), "branch", "ghost", "main"]);
    upsertBranch(t.env.db, repoRow("r1").id, { name: "ghost", commitId: await rev("r1", "main"), commitMessage: "", commitUnix: 1, pusherId: 0 }, 1);
    expect((await t.json("GET", api("r1", "/branches"))).headers.get("x-total-count")).toBe("5");
    await gitOk(["--git-dir", gitDir("r1"), "update-ref", "-d", "refs/heads/ghost"]);
    const r = await t.json("GET", api("r1", "/branches"));
    expect(r.body.map((b: { name: string }) => b.name)).not.toContain("ghost");
    expect(r.headers.get("x-total-count")).toBe("4");
    expect((await t.json("GET", api("r1", "/branches/ghost"))).status).toBe(404);
    deleteBranches(t.env.db, repoRow("r1").id, ["ghost"]);
  });

  test("an empty repository has no branches", async () => {
    await createRepo("empty", {});
    const r = await t.json("GET", api("empty", "/branches"));
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
    expect(r.headers.get("x-total-count")).toBe("0");
  });

  test("a private repository is 404 to strangers, and the code unit must be readable", async () => {
    await createRepo("priv", { auto_init: true, private: true });
    expect((await t.json("GET", api("priv", "/branches"))).status).toBe(404);
    expect((await t.json("GET", api("priv", "/branches/main"), { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", api("priv", "/branches/main"), { token: aliceToken })).status).toBe(200);
  });
});

describe("GET /branches/{branch}", () => {
  test("names with slashes work, escaped or not", async () => {
    for (const path of ["/branches/feature/x", "/branches/feature%2Fx"]) {
      const r = await t.json("GET", api("r1", path));
      expect(r.status).toBe(200);
      expectShape(r.body, Branch);
      expect(r.body.name).toBe("feature/x");
    }
  });

  test("unknown, traversing, malformed and huge names are 404", async () => {
    for (const path of ["nope", "feature", "..%2F..%2Fconfig", "%ZZ", "main%00", "-main", "a".repeat(5000), "main%2F..%2Fmain"]) {
      const r = await t.json("GET", api("r1", `/branches/${path}`));
      expect([path, r.status]).toEqual([path, 404]);
      expect(r.body.message).toBe("The target couldn't be found.");
    }
  });
});

describe("POST /branches", () => {
  const create = (body: unknown, token: string | null = aliceToken, repo = "r1") =>
    t.json("POST", api(repo, "/branches"), { token: token ?? undefined, body });

  test("creates from the default branch, a branch, a tag or a commit, and records it", async () => {
    const fromDefault = await create({ new_branch_name: "topic/one" });
    expect(fromDefault.status).toBe(201);
    expectShape(fromDefault.body, Branch);
    expect(fromDefault.body.name).toBe("topic/one");
    expect(fromDefault.body.commit.id).toBe(await rev("r1", "main"));
    expect(await rev("r1", "refs/heads/topic/one")).toBe(await rev("r1", "main"));
    expect(getBranch(t.env.db, repoRow("r1").id, "topic/one")?.commitId).toBe(await rev("r1", "main"));

    const fromBranch = await create({ new_branch_name: "topic/two", old_branch_name: "feature/x" });
    expect(fromBranch.body.commit.id).toBe(await rev("r1", "feature/x"));
    const fromSha = await create({ new_branch_name: "topic/three", old_ref_name: await rev("r1", "dev") });
    expect(fromSha.status).toBe(201);
    expect(fromSha.body.commit.id).toBe(await rev("r1", "dev"));
    const fromExpr = await create({ new_branch_name: "topic/four", old_ref_name: "feature/x~1" });
    expect(fromExpr.body.commit.id).toBe(await rev("r1", "main"));

    const listed = await t.json("GET", api("r1", "/branches?limit=50"));
    expect(listed.body.map((b: { name: string }) => b.name)).toContain("topic/two");
  });

  test("clashes are 409 with Gitea's messages", async () => {
    await gitOk(["--git-dir", gitDir("r1"), "tag", "v-clash", "main"]);
    const cases: [string, string][] = [
      ["main", "The branch already exists."],
      ["feature", "The branch with the same name already exists."],
      ["main/sub", "The branch with the same name already exists."],
      ["v-clash", "The branch with the same tag already exists."],
    ];
    for (const [name, message] of cases) {
      const r = await create({ new_branch_name: name });
      expect([name, r.status, r.body.message]).toEqual([name, 409, message]);
    }
  });

  test("bad names are 422 binding errors, never 500, and nothing is created", async () => {
    const before = await gitOk(["--git-dir", gitDir("r1"), "for-each-ref"]);
    const cases: [unknown, string][] = [
      [{}, "[BranchName]: Required"],
      [{ new_branch_name: "" }, "[BranchName]: Required"],
      [{ new_branch_name: "bad..name" }, "[BranchName]: GitRefName"],
      [{ new_branch_name: "-delete" }, "[BranchName]: GitRefName"],
      [{ new_branch_name: "--force" }, "[BranchName]: GitRefName"],
      [{ new_branch_name: "a b" }, "[BranchName]: GitRefName"],
      [{ new_branch_name: "x.lock" }, "[BranchName]: GitRefName"],
      [{ new_branch_name: "tab\there" }, "[BranchName]: GitRefName"],
      [{ new_branch_name: "trailing/" }, "[BranchName]: GitRefName"],
      [{ new_branch_name: "a@{1}" }, "[BranchName]: GitRefName"],
      [{ new_branch_name: "x".repeat(101) }, "[BranchName]: MaxSize"],
      [{ new_branch_name: "y".repeat(200_000) }, "[BranchName]: MaxSize"],
      [{ new_branch_name: 42 }, ""],
    ];
    for (const [body, message] of cases) {
      const r = await create(body);
      expect(r.status).toBe(422);
      if (message) expect(r.body.message).toBe(message);
    }
    expect(await gitOk(["--git-dir", gitDir("r1"), "for-each-ref"])).toBe(before);
  });

  test("an unknown source is 404; option-like sources are never read as options", async () => {
    for (const body of [
      { new_branch_name: "n1", old_branch_name: "nope" },
      { new_branch_name: "n1", old_branch_name: "--all" },
      { new_branch_name: "n1", old_ref_name: "deadbeefdeadbeef" },
      { new_branch_name: "n1", old_ref_name: "--output=/tmp/pwned" },
      { new_branch_name: "n1", old_ref_name: "main\nHEAD" },
      { new_branch_name: "n1", old_ref_name: "z".repeat(100_000) },
    ]) {
      const r = await create(body);
      expect(r.status).toBe(404);
      expect(r.body.message).toBe("The old branch does not exist");
    }
    expect((await t.json("GET", api("r1", "/branches/n1"))).status).toBe(404);
  });

  test("needs a signed-in writer, and an empty repository has nothing to branch from", async () => {
    const anon = await create({ new_branch_name: "n2" }, null);
    expect([anon.status, anon.body.message]).toEqual([401, "token is required"]);
    const reader = await create({ new_branch_name: "n2" }, bobToken);
    expect([reader.status, reader.body.message]).toEqual([403, "user should have a permission to write to a repo"]);
    const empty = await create({ new_branch_name: "n2" }, aliceToken, "empty");
    expect([empty.status, empty.body.message]).toEqual([404, "Git Repository is empty."]);
  });

  test("a collaborator with write access may create branches", async () => {
    putCollaboration(t.env.db, repoRow("r1").id, bob.id, AccessMode.Write);
    try {
      const r = await create({ new_branch_name: "bobs" }, bobToken);
      expect(r.status).toBe(201);
      expect(r.body.user_can_push).toBe(true);
    } finally {
      putCollaboration(t.env.db, repoRow("r1").id, bob.id, AccessMode.Read);
    }
  });
});

describe("DELETE /branches/{branch}", () => {
  test("refuses the default branch, removes others from git and the table", async () => {
    const def = await t.json("DELETE", api("r1", "/branches/main"), { token: aliceToken });
    expect([def.status, def.body.message]).toEqual([403, "can not delete default branch"]);
    const r = await t.request("DELETE", api("r1", "/branches/topic/one"), { token: aliceToken });
    expect(r.status).toBe(204);
    expect(getBranch(t.env.db, repoRow("r1").id, "topic/one")).toBeUndefined();
    expect((await t.json("GET", api("r1", "/branches/topic/one"))).status).toBe(404);
    const again = await t.json("DELETE", api("r1", "/branches/topic/one"), { token: aliceToken });
    expect(again.status).toBe(404);
    for (const name of ["..%2Fconfig", "-d", "%ZZ"]) {
      expect((await t.json("DELETE", api("r1", `/branches/${name}`), { token: aliceToken })).status).toBe(404);
    }
    expect((await t.json("DELETE", api("r1", "/branches/dev"), { token: bobToken })).status).toBe(403);
    expect((await t.json("DELETE", api("empty", "/branches/main"), { token: aliceToken })).body.message).toBe(
      "Git Repository is empty.",
    );
  });
});

describe("PATCH /branches/{branch} (rename)", () => {
  const rename = (from: string, name: unknown, token = aliceToken, repo = "r1") =>
    t.json("PATCH", api(repo, `/branches/${from}`), { token, body: name === undefined ? {} : { name } });

  test("renames a branch in git and in the table", async () => {
    const sha = await rev("r1", "dev");
    const r = await rename("dev", "dev2");
    expect(r.status).toBe(204);
    expect(await rev("r1", "refs/heads/dev2")).toBe(sha);
    expect((await t.json("GET", api("r1", "/branches/dev"))).status).toBe(404);
    expect((await t.json("GET", api("r1", "/branches/dev2"))).body.commit.id).toBe(sha);
    expect(getBranch(t.env.db, repoRow("r1").id, "dev")).toBeUndefined();
  });

  test("renames into and out of its own directory (a -> a/b)", async () => {
    expect((await rename("topic/two", "topic/two/deeper")).status).toBe(204);
    expect((await t.json("GET", api("r1", "/branches/topic/two/deeper"))).status).toBe(200);
    expect((await rename("topic/two/deeper", "topic/two")).status).toBe(204);
    expect((await t.json("GET", api("r1", "/branches/topic/two"))).status).toBe(200);
  });

  test("errors follow Gitea", async () => {
    const same = "Cannot rename a branch using the same name or rename to a branch that already exists.";
    expect((await rename("dev2", "dev2")).body).toMatchObject({ message: same });
    expect((await rename("dev2", "main")).status).toBe(422);
    // `feature` would clash with `feature/x` in git: refused the same way, nothing moves.
    expect((await rename("dev2", "feature")).body).toMatchObject({ message: same });
    expect((await t.json("GET", api("r1", "/branches/dev2"))).status).toBe(200);
    expect((await rename("nope", "fresh")).body).toMatchObject({ message: "Branch doesn't exist." });
    expect((await rename("nope", "fresh")).status).toBe(404);
    expect((await rename("dev2", undefined)).body.message).toBe("[Name]: Required");
    expect((await rename("dev2", "bad..name")).body.message).toBe("[Name]: GitRefName");
    expect((await rename("dev2", "--upload-pack=x")).body.message).toBe("[Name]: GitRefName");
    expect((await rename("dev2", "n".repeat(101))).body.message).toBe("[Name]: MaxSize");
    expect((await rename("dev2", "x", bobToken)).status).toBe(403);
  });

  test("renaming the default branch needs an admin and moves default_branch and HEAD", async () => {
    putCollaboration(t.env.db, repoRow("r1").id, bob.id, AccessMode.Write);
    try {
      const denied = await rename("main", "trunk", bobToken);
      expect([denied.status, denied.body.message]).toEqual([
        403,
        "User must be a repo or site admin to rename default or protected branches.",
      ]);
    } finally {
      putCollaboration(t.env.db, repoRow("r1").id, bob.id, AccessMode.Read);
    }
    expect((await rename("main", "trunk")).status).toBe(204);
    const repo = await t.json("GET", api("r1"));
    expect(repo.body.default_branch).toBe("trunk");
    expect(readFileSync(join(gitDir("r1"), "HEAD"), "utf8")).toBe("ref: refs/heads/trunk\n");
    const del = await t.json("DELETE", api("r1", "/branches/trunk"), { token: aliceToken });
    expect(del.status).toBe(403);
  });
});

describe("PUT /branches/{branch} (move to a commit)", () => {
  const put = (branch: string, body: unknown) => t.json("PUT", api("r1", `/branches/${branch}`), { token: aliceToken, body });

  test("fast-forwards, refuses a rewind without force and a stale old_commit_id", async () => {
    const base = await rev("r1", "trunk");
    const ahead = await rev("r1", "feature/x");
    expect((await create("mover", base)).status).toBe(201);
    expect((await put("mover", { new_commit_id: ahead })).status).toBe(204);
    expect(await rev("r1", "refs/heads/mover")).toBe(ahead);
    expect(getBranch(t.env.db, repoRow("r1").id, "mover")?.commitId).toBe(ahead);

    const back = await put("mover", { new_commit_id: base });
    expect(back.status).toBe(409);
    const stale = await put("mover", { new_commit_id: base, old_commit_id: base, force: true });
    expect(stale.status).toBe(409);
    expect((await put("mover", { new_commit_id: base, old_commit_id: ahead, force: true })).status).toBe(204);
    expect(await rev("r1", "refs/heads/mover")).toBe(base);
  });

  test("bad input is 4xx", async () => {
    expect((await put("mover", {})).body.message).toBe("[NewCommitID]: Required");
    expect((await put("nope", { new_commit_id: "trunk" })).status).toBe(404);
    expect((await put("mover", { new_commit_id: "--all" })).status).toBe(404);
    expect((await put("mover", { new_commit_id: "0".repeat(40) })).status).toBe(404);
  });

  async function create(name: string, sha: string) {
    return t.json("POST", api("r1", "/branches"), { token: aliceToken, body: { new_branch_name: name, old_ref_name: sha } });
  }
});

describe("archived repositories", () => {
  test("refuse branch changes with 423 but still list", async () => {
    await createRepo("old");
    const edit = await t.json("PATCH", api("old"), { token: aliceToken, body: { archived: true } });
    expect(edit.status).toBe(200);
    const r = await t.json("POST", api("old", "/branches"), { token: aliceToken, body: { new_branch_name: "x" } });
    expect([r.status, r.body.message]).toEqual([423, "alice/old is archived"]);
    expect((await t.json("DELETE", api("old", "/branches/x"), { token: aliceToken })).status).toBe(423);
    expect((await t.json("PATCH", api("old", "/branches/main"), { token: aliceToken, body: { name: "y" } })).status).toBe(423);
    expect((await t.json("GET", api("old", "/branches"))).status).toBe(200);
  });
});
