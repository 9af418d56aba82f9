import { describe, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { authUrl, gitOk } from "../support/git.ts";
import { Repository } from "../../src/shapes/repo.ts";
import { listBranches } from "../../src/models/branch.ts";
import { listLabels } from "../../src/models/label.ts";
import { listWebhooks } from "../../src/models/webhook.ts";

const t = makeTestApp("", { listen: true });
const root = await t.user("root", { admin: true });
const rootToken = t.token(root);
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);

const dirOf = (owner: string, name: string) => join(t.settings.repository.root, owner, `${name}.git`);

// alice's template: files with variables, rules, an excluded directory, a symlink
await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "tmpl", auto_init: true, template: true, description: "the template" }, 201);
const work = join(t.dir, "work-tmpl");
await gitOk(["clone", "-q", authUrl(t.baseUrl, "alice/tmpl.git", "alice", "password123"), work]);
await Bun.write(join(work, ".gitea/template"), "# rules\n*.md\nsrc/**\n[exclude]\nsecret\n");
await Bun.write(join(work, "README.md"), "# ${REPO_NAME} by $REPO_OWNER\nFrom $TEMPLATE_OWNER/${TEMPLATE_NAME}: ${TEMPLATE_DESCRIPTION}\nPkg ${REPO_NAME_PASCAL} ${REPO_NAME_SNAKE}\nclone ${REPO_HTTPS_URL}\n");
await Bun.write(join(work, "src/${REPO_NAME_KEBAB}.txt"), "name=$REPO_NAME\n");
await Bun.write(join(work, "plain.txt"), "not expanded: $REPO_NAME\n");
await Bun.write(join(work, "secret/key.txt"), "do not copy\n");
symlinkSync("plain.txt", join(work, "link.md"));
await gitOk(["add", "-A"], { cwd: work });
await gitOk(["-c", "user.name=alice", "-c", "user.email=alice@example.com", "commit", "-q", "-m", "template files"], { cwd: work });
await gitOk(["push", "-q", "origin", "HEAD:main"], { cwd: work });
await t.ok("PUT", "/api/v1/repos/alice/tmpl/topics", aliceToken, { topics: ["starter", "go"] }, 204);
await t.ok("POST", "/api/v1/repos/alice/tmpl/labels", aliceToken, { name: "bug", color: "#ee0701", description: "broken" }, 201);
await t.ok("POST", "/api/v1/repos/alice/tmpl/branch_protections", aliceToken, { rule_name: "main", required_approvals: 2 }, 201);
await t.ok("POST", "/api/v1/repos/alice/tmpl/hooks", aliceToken, { type: "gitea", config: { url: "http://hooks.test/x", content_type: "json" }, events: ["push"], active: true }, 201);
await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "plain", auto_init: true }, 201);

const generate = (token: string | undefined, body: Record<string, unknown>, path = "alice/tmpl") =>
  t.json("POST", `/api/v1/repos/${path}/generate`, { token, body });

describe("POST /repos/{template_owner}/{template_repo}/generate", () => {
  test("git content: one fresh commit of the template's tree with .gitea/template applied", async () => {
    const r = await generate(bobToken, { owner: "bob", name: "my-app", description: "mine", git_content: true });
    expect(r.status).toBe(201);
    expectShape(r.body, Repository);
    expect(r.body).toMatchObject({ full_name: "bob/my-app", description: "mine", private: false, empty: false, template: false, fork: false, default_branch: "main" });
    expect(r.body.permissions).toMatchObject({ admin: true, push: true, pull: true });

    const clone = join(t.dir, "clone-my-app");
    await gitOk(["clone", "-q", authUrl(t.baseUrl, "bob/my-app.git", "bob", "password123"), clone]);
    expect((await gitOk(["rev-list", "--count", "HEAD"], { cwd: clone })).trim()).toBe("1");
    expect((await gitOk(["log", "-1", "--format=%s|%an|%ae"], { cwd: clone })).trim()).toBe("Initial commit|bob|" + bob.email);
    expect(readFileSync(join(clone, "README.md"), "utf8")).toBe(
      `# my-app by bob\nFrom alice/tmpl: the template\nPkg MyApp my_app\nclone ${t.settings.server.rootUrl}bob/my-app.git\n`,
    );
    expect(readFileSync(join(clone, "src/my-app.txt"), "utf8")).toBe("name=my-app\n");
    expect(existsSync(join(clone, "src/${REPO_NAME_KEBAB}.txt"))).toBe(false);
    expect(readFileSync(join(clone, "plain.txt"), "utf8")).toBe("not expanded: $REPO_NAME\n");
    expect(existsSync(join(clone, "secret"))).toBe(false);
    expect(existsSync(join(clone, ".gitea/template"))).toBe(false);
    // the symlink stays a symlink, even though *.md matches it
    expect(lstatSync(join(clone, "link.md")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(clone, "link.md"))).toBe("plain.txt");

    // the excluded file's content is not in the new repository at all
    const secretBlob = (await gitOk(["--git-dir", dirOf("alice", "tmpl"), "rev-parse", "main:secret/key.txt"])).trim();
    const probe = Bun.spawnSync(["git", "--git-dir", dirOf("bob", "my-app"), "cat-file", "-e", secretBlob]);
    expect(probe.exitCode).not.toBe(0);

    const branches = listBranches(t.env.db, r.body.id, 0, 10).rows.map((b) => b.name);
    expect(branches).toEqual(["main"]);
    // nothing else was asked for
    expect((await t.json("GET", "/api/v1/repos/bob/my-app/topics", { token: bobToken })).body.topics).toEqual([]);
    expect((await t.json("GET", "/api/v1/repos/bob/my-app/labels", { token: bobToken })).body).toEqual([]);
  });

  test("another default branch, private; topics, labels, protected branches and webhooks copied", async () => {
    const r = await generate(bobToken, {
      owner: "bob",
      name: "copy",
      private: true,
      default_branch: "trunk",
      git_content: true,
      topics: true,
      labels: true,
      protected_branch: true,
      webhooks: true,
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ private: true, default_branch: "trunk", empty: false });
    expect((await gitOk(["--git-dir", dirOf("bob", "copy"), "symbolic-ref", "HEAD"])).trim()).toBe("refs/heads/trunk");
    expect((await gitOk(["--git-dir", dirOf("bob", "copy"), "for-each-ref", "--format=%(refname)"])).trim()).toBe("refs/heads/trunk");
    expect((await t.json("GET", "/api/v1/repos/bob/copy/topics", { token: bobToken })).body.topics.sort()).toEqual(["go", "starter"]);
    const labels = (await t.json("GET", "/api/v1/repos/bob/copy/labels", { token: bobToken })).body;
    expect(labels.map((l: any) => [l.name, l.color, l.description])).toEqual([["bug", "ee0701", "broken"]]);
    const rules = (await t.json("GET", "/api/v1/repos/bob/copy/branch_protections", { token: bobToken })).body;
    expect(rules.map((p: any) => [p.rule_name, p.required_approvals])).toEqual([["main", 2]]);
    const hooks = (await t.json("GET", "/api/v1/repos/bob/copy/hooks", { token: bobToken })).body;
    expect(hooks.map((h: any) => h.config.url)).toEqual(["http://hooks.test/x"]);
    // anonymous callers do not see the private result
    expect((await t.json("GET", "/api/v1/repos/bob/copy")).status).toBe(404);
  });

  test("without git content the repository is empty", async () => {
    const r = await generate(bobToken, { owner: "bob", name: "only-topics", topics: true });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ empty: true, default_branch: "main" });
    expect((await gitOk(["--git-dir", dirOf("bob", "only-topics"), "for-each-ref"])).trim()).toBe("");
    expect((await t.json("GET", "/api/v1/repos/bob/only-topics/topics", { token: bobToken })).body.topics.sort()).toEqual(["go", "starter"]);
  });

  test("refusals in Gitea's words", async () => {
    const notTemplate = await generate(bobToken, { owner: "bob", name: "x", git_content: true }, "alice/plain");
    expect(notTemplate.status).toBe(422);
    expect(notTemplate.body.message).toBe("this is not a template repo");
    const nothing = await generate(bobToken, { owner: "bob", name: "x" });
    expect(nothing.status).toBe(422);
    expect(nothing.body.message).toBe("must select at least one template item");
    const other = await generate(bobToken, { owner: "alice", name: "x", git_content: true });
    expect(other.status).toBe(403);
    expect(other.body.message).toBe("Only admin can generate repository for other user.");
    expect((await generate(bobToken, { owner: "nobody", name: "x", git_content: true })).status).toBe(404);
    const badName = await generate(bobToken, { owner: "bob", name: "a b", git_content: true });
    expect(badName.status).toBe(422);
    expect((await generate(bobToken, { name: "x", git_content: true })).status).toBe(422);
    expect((await generate(undefined, { owner: "bob", name: "x", git_content: true })).status).toBe(401);
    expect((await generate(bobToken, { owner: "bob", name: "x", git_content: true }, "alice/missing")).status).toBe(404);
  });

  test("a taken name is a 409 and leaves the existing repository alone", async () => {
    const before = (await gitOk(["--git-dir", dirOf("bob", "my-app"), "rev-parse", "main"])).trim();
    const r = await generate(bobToken, { owner: "bob", name: "My-App", git_content: true });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe("The repository with the same name already exists.");
    expect((await gitOk(["--git-dir", dirOf("bob", "my-app"), "rev-parse", "main"])).trim()).toBe(before);
  });

  test("a failure after the row was made leaves nothing behind: no row, no labels, no webhooks", async () => {
    const before = (await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "marker" }, 201)).id as number;
    mkdirSync(dirOf("alice", "blocked"), { recursive: true });
    const r = await generate(aliceToken, { owner: "alice", name: "blocked", git_content: true, labels: true, webhooks: true });
    expect(r.status).toBe(409);
    expect((await t.json("GET", "/api/v1/repos/alice/blocked", { token: aliceToken })).status).toBe(404);
    // the failed repository had the next id
    expect(listLabels(t.env.db, { repoId: before + 1 }, "alphabetically", undefined).rows).toEqual([]);
    expect(listWebhooks(t.env.db, { repoId: before + 1 }).rows).toEqual([]);
  });

  test("an admin generates for another user; the owner's repository limit applies to others", async () => {
    const r = await generate(rootToken, { owner: "alice", name: "for-alice", git_content: true });
    expect(r.status).toBe(201);
    expect(r.body.owner.login).toBe("alice");
    await t.ok("PATCH", "/api/v1/admin/users/bob", rootToken, { login_name: "bob", source_id: 0, max_repo_creation: 0 });
    const limited = await generate(bobToken, { owner: "bob", name: "over", git_content: true });
    expect(limited.status).toBe(403);
    expect((await t.json("GET", "/api/v1/repos/bob/over", { token: bobToken })).status).toBe(404);
    expect(existsSync(dirOf("bob", "over"))).toBe(false);
  });

  test("a private template: 404 for those who cannot read it", async () => {
    await t.ok("PATCH", "/api/v1/repos/alice/tmpl", aliceToken, { private: true });
    expect((await generate(bobToken, { owner: "bob", name: "y", git_content: true })).status).toBe(404);
    const mine = await generate(aliceToken, { owner: "alice", name: "mine", git_content: true });
    expect(mine.status).toBe(201);
  });
});
