import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { redactServerPaths } from "../../src/http/respond.ts";

// Answers to input crafted to reach git: paths that climb out of the repository or carry pathspec
// magic, and NUL bytes in names. None may be a 500, and nothing may show where the server keeps
// its files.

const t = makeTestApp();
const root = await t.user("root", { admin: true });
const token = t.token(root);
await t.ok("POST", "/api/v1/user/repos", token, { name: "r", auto_init: true }, 201);
await t.ok("POST", "/api/v1/repos/root/r/branches", token, { new_branch_name: "feat", old_branch_name: "main" }, 201);
await t.ok("POST", "/api/v1/repos/root/r/contents/sub/x.txt", token, { content: btoa("x\n"), branch: "feat" }, 201);
await t.ok("POST", "/api/v1/orgs", token, { username: "acme" }, 201);

const commits = (query: string) => t.json("GET", `/api/v1/repos/root/r/commits?${query}`, { token });
const total = (await commits("")).body.length;

describe("GET /repos/{owner}/{repo}/commits?path=", () => {
  test("a path climbing out of the repository is cleaned as Gitea's PathJoinRelX, never run by git", async () => {
    // `..` cleans to the root: the whole history.
    const up = await commits("path=..");
    expect(up.status).toBe(200);
    expect(up.body).toHaveLength(total);
    for (const path of ["../x", "/etc/passwd", "../../../../etc/passwd"]) {
      const r = await commits(`path=${encodeURIComponent(path)}`);
      expect({ path, status: r.status, body: r.body }).toEqual({ path, status: 404, body: { message: "FileCommitsCount", url: "http://hearth.test/api/swagger" } });
    }
    // Cleaned, `/README.md` and `./README.md` name the file itself.
    for (const path of ["/README.md", "./README.md", "sub/../README.md"]) {
      const r = await commits(`path=${encodeURIComponent(path)}`);
      expect({ path, status: r.status }).toEqual({ path, status: 200 });
    }
  });

  test("pathspec magic is a file name like any other", async () => {
    for (const path of [":(top)", ":(glob)*", ":!x", ":/", "*", "READ*"]) {
      const r = await commits(`path=${encodeURIComponent(path)}`);
      expect({ path, status: r.status }).toEqual({ path, status: 404 });
    }
    const onBranch = await commits(`sha=feat&path=${encodeURIComponent("sub/x.txt")}`);
    expect(onBranch.status).toBe(200);
    expect(onBranch.body).toHaveLength(1);
    expect((await commits(`sha=feat&path=${encodeURIComponent("sub/*.txt")}`)).status).toBe(404);
  });
});

describe("POST /repos/{owner}/{repo}/pulls", () => {
  test("a NUL in head or base names no branch: 404 as for any missing branch (Gitea's answer), not 500", async () => {
    for (const body of [
      { head: "feat\0", base: "main", title: "t" },
      { head: "feat", base: "ma\0in", title: "t" },
      { head: "root:feat\0", base: "main", title: "t" },
    ]) {
      const r = await t.json("POST", "/api/v1/repos/root/r/pulls", { token, body });
      expect({ body, status: r.status, message: typeof r.body?.message }).toEqual({ body, status: 404, message: "string" });
    }
    // The same request without the NUL goes through.
    await t.ok("POST", "/api/v1/repos/root/r/pulls", token, { head: "feat", base: "main", title: "t" }, 201);
  });
});

describe("NUL in a branch name given in a body", () => {
  test("a new repository's default_branch: 422 GitRefName-style, not 500", async () => {
    const r = await t.json("POST", "/api/v1/user/repos", { token, body: { name: "nul", auto_init: true, default_branch: "a\0b" } });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe("invalid default branch name: a\0b");
  });

  test("a file change's new_branch: 422, not 500", async () => {
    const r = await t.json("POST", "/api/v1/repos/root/r/contents/n.txt", { token, body: { content: btoa("n"), new_branch: "a\0b" } });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe("[NewBranchName]: GitRefName");
  });
});

describe("search keywords longer than SQLite's LIKE pattern limit (50,000 bytes)", () => {
  const long = "y".repeat(60_000);
  test.each([
    "/api/v1/repos/root/r/issues?q=",
    "/api/v1/repos/issues/search?q=",
    "/api/v1/users/search?q=",
    "/api/v1/repos/search?q=",
    "/api/v1/topics/search?q=",
    "/api/v1/orgs/acme/teams/search?q=",
  ])("%s finds nothing, instead of failing", async (path) => {
    const r = await t.json("GET", `${path}${long}`, { token });
    expect(r.status).toBe(200);
    expect(JSON.stringify(r.body)).not.toContain("fuzz");
  });

  test("a short keyword still matches as before, case aside", async () => {
    const r = await t.json("GET", "/api/v1/repos/root/r/issues?state=all&q=T", { token });
    expect(r.status).toBe(200);
    expect(r.body.map((i: { title: string }) => i.title)).toEqual(["t"]);
    const users = await t.json("GET", "/api/v1/users/search?q=RO", { token });
    expect(users.body.data.map((u: { login: string }) => u.login)).toEqual(["root"]);
  });
});

describe("text that git stores: messages and identities", () => {
  test("a NUL in a tag or commit message, or in an author's address: 422, not 500", async () => {
    const tag = await t.json("POST", "/api/v1/repos/root/r/tags", { token, body: { tag_name: "t-nul", target: "main", message: "a\0b" } });
    expect({ status: tag.status, message: tag.body.message }).toEqual({ status: 422, message: "a NUL byte in commit log message not allowed" });
    const commit = await t.json("POST", "/api/v1/repos/root/r/contents/m.txt", { token, body: { content: btoa("m"), message: "a\0b" } });
    expect({ status: commit.status, message: commit.body.message }).toEqual({ status: 422, message: "a NUL byte in commit log message not allowed" });
    const email = await t.json("POST", "/api/v1/repos/root/r/contents/e.txt", { token, body: { content: btoa("e"), author: { name: "x", email: "a\0@b.c" } } });
    expect({ status: email.status, message: email.body.message }).toEqual({ status: 422, message: "a NUL byte cannot be passed to git" });
  });

  test("a 256 KB tag message is stored whole (it is no argument of git's); a 256 KB branch name is no branch", async () => {
    // One argument over 128 KiB cannot be spawned at all (E2BIG): such text must travel by stdin.
    const message = `long ${"x".repeat(256 * 1024)}`;
    const tag = await t.json("POST", "/api/v1/repos/root/r/tags", { token, body: { tag_name: "t-long", target: "main", message } });
    expect(tag.status).toBe(201);
    expect(tag.body.message.trim()).toBe(message);
    const pull = await t.json("POST", "/api/v1/repos/root/r/pulls", { token, body: { head: "x".repeat(256 * 1024), base: "main", title: "t" } });
    expect(pull.status).toBe(404);
  });

  test("an author name git would strip to nothing falls back to the address, a NUL in it is dropped", async () => {
    const dots = await t.json("POST", "/api/v1/repos/root/r/contents/n1.txt", { token, body: { content: btoa("1"), author: { name: "..", email: "writer@example.com" } } });
    expect(dots.status).toBe(201);
    expect(dots.body.commit.author.name).toBe("writer");
    const nul = await t.json("POST", "/api/v1/repos/root/r/contents/n2.txt", { token, body: { content: btoa("2"), author: { name: "a\0b", email: "writer@example.com" } } });
    expect(nul.status).toBe(201);
    expect(nul.body.commit.author.name).toBe("ab");
  });

  test("a doer whose full name git refuses (`..`) still gets commits and tags written, under their username", async () => {
    await t.ok("PATCH", "/api/v1/user/settings", token, { full_name: ".." });
    const file = await t.json("POST", "/api/v1/repos/root/r/contents/n3.txt", { token, body: { content: btoa("3") } });
    expect(file.status).toBe(201);
    expect(file.body.commit.author.name).toBe("root");
    const tag = await t.json("POST", "/api/v1/repos/root/r/tags", { token, body: { tag_name: "t-dots", target: "main", message: "m" } });
    expect(tag.status).toBe(201);
    await t.ok("PATCH", "/api/v1/user/settings", token, { full_name: "" });
  });
});

describe("an array where Gitea expects a JSON object", () => {
  test("is refused as Gitea's JSON decoding refuses it, at the top or inside", async () => {
    for (const body of [[], [{}], [{ title: "x" }]]) {
      const r = await t.json("PATCH", "/api/v1/repos/root/r/issues/1", { token, body });
      expect({ body, status: r.status, message: r.body.message }).toEqual({ body, status: 422, message: "[]: cannot unmarshal array into an object" });
    }
    const hook = await t.json("POST", "/api/v1/repos/root/r/hooks", { token, body: { type: "gitea", config: [] } });
    expect(hook.status).toBe(422);
    expect(hook.body.message).toBe("[Config]: cannot unmarshal array into an object");
  });
});

describe("internal errors", () => {
  test("the message an admin sees has the server's paths cut out", () => {
    const repoDir = `${t.settings.repository.root}/root/r.git`;
    const message = `git rev-list failed (128): fatal: ..: '..' is outside repository at '${repoDir}' / also ${t.dir}/tmp/x`;
    const shown = redactServerPaths(t.env, message);
    expect(shown).toBe("git rev-list failed (128): fatal: ..: '..' is outside repository at '[server path]' / also [server path]");
  });
});
