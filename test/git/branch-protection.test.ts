import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { authUrl, gitClient, gitOk } from "../support/git.ts";

const t = makeTestApp("", { listen: true });
const alice = await t.user("alice", { password: "alice-pass" });
await t.user("bob", { password: "bob-pass" });
const aliceToken = t.token(alice);
const api = (rest = "") => `/api/v1/repos/alice/prot${rest}`;

await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "prot", auto_init: true }, 201);
await t.ok("PUT", api("/collaborators/bob"), aliceToken, { permission: "write" }, 204);

async function cloneAs(user: string, password: string): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), "hearth-prot-")), user);
  await gitOk(["clone", "-q", authUrl(t.baseUrl, "alice/prot.git", user, password), dir]);
  return dir;
}
const aliceDir = await cloneAs("alice", "alice-pass");
const bobDir = await cloneAs("bob", "bob-pass");

let n = 0;
async function commit(dir: string, file = `f${++n}.txt`) {
  await Bun.write(join(dir, file), `${n}\n`);
  await gitOk(["add", file], { cwd: dir });
  await gitOk(["commit", "-q", "-m", `change ${file}`], { cwd: dir });
  return (await gitOk(["rev-parse", "HEAD"], { cwd: dir })).trim();
}
const push = (dir: string, ...args: string[]) => gitClient(["push", "origin", ...args], { cwd: dir });
const serverHead = async (branch: string) => (await t.ok("GET", api(`/branches/${encodeURIComponent(branch)}`), aliceToken)).commit.id as string;
const protect = (body: Record<string, unknown>) => t.ok("POST", api("/branch_protections"), aliceToken, body, 201);

/** Starts `branch` on the server from main, unprotected, and returns to main in `dir`. */
async function seedBranch(dir: string, branch: string) {
  await gitOk(["fetch", "-q", "origin"], { cwd: dir });
  await gitOk(["push", "-q", "origin", `origin/main:refs/heads/${branch}`], { cwd: dir });
}

describe("push to a protected branch", () => {
  test("a user off the whitelist is refused with Gitea's message; the whitelisted user pushes", async () => {
    await protect({ rule_name: "main", enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: ["alice"] });
    const before = await serverHead("main");
    await commit(bobDir);
    const refused = await push(bobDir, "HEAD:main");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("remote: Not allowed to push to protected branch main");
    expect(await serverHead("main")).toBe(before);
    // The whitelisted user's new commit goes in (its objects are checked in git's quarantine).
    const sha = await commit(aliceDir);
    const ok = await push(aliceDir, "HEAD:main");
    expect({ code: ok.code, stderr: ok.code ? ok.stderr : "" }).toEqual({ code: 0, stderr: "" });
    expect(await serverHead("main")).toBe(sha);
  });

  test("force push is refused, then allowed with enable_force_push, then limited by the allowlist", async () => {
    const head = await serverHead("main");
    await gitOk(["fetch", "-q", "origin"], { cwd: aliceDir });
    await gitOk(["reset", "-q", "--hard", "origin/main"], { cwd: aliceDir });
    await gitOk(["reset", "-q", "--hard", "HEAD~1"], { cwd: aliceDir });
    const rewritten = await commit(aliceDir);
    const refused = await push(aliceDir, "--force", "HEAD:main");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("remote: branch main is protected from force push");
    expect(await serverHead("main")).toBe(head);

    await t.ok("PATCH", api("/branch_protections/main"), aliceToken, { enable_force_push: true, enable_force_push_allowlist: true, force_push_allowlist_usernames: [] });
    const notListed = await push(aliceDir, "--force", "HEAD:main");
    expect(notListed.code).not.toBe(0);
    expect(notListed.stderr).toContain("remote: Not allowed to force-push to protected branch main");

    await t.ok("PATCH", api("/branch_protections/main"), aliceToken, { enable_force_push: true, enable_force_push_allowlist: false });
    const ok = await push(aliceDir, "--force", "HEAD:main");
    expect(ok.code).toBe(0);
    expect(await serverHead("main")).toBe(rewritten);
  });

  test("a protected branch cannot be deleted by push, nor the default branch", async () => {
    await seedBranch(aliceDir, "stable");
    await protect({ rule_name: "stable", enable_push: true });
    const refused = await push(aliceDir, ":stable");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("remote: branch stable is protected from deletion");
    expect(await serverHead("stable")).toBeTruthy();
    const main = await push(aliceDir, ":main");
    expect(main.code).not.toBe(0);
    expect(main.stderr).toContain("branch main is the default branch and cannot be deleted");
  });

  test("unprotected branches are unaffected: push, force push, delete", async () => {
    await gitOk(["fetch", "-q", "origin"], { cwd: bobDir });
    await gitOk(["checkout", "-q", "-B", "topic", "origin/main"], { cwd: bobDir });
    await commit(bobDir);
    expect((await push(bobDir, "HEAD:topic")).code).toBe(0);
    await gitOk(["reset", "-q", "--hard", "HEAD~1"], { cwd: bobDir });
    const forced = await commit(bobDir);
    expect((await push(bobDir, "--force", "HEAD:topic")).code).toBe(0);
    expect(await serverHead("topic")).toBe(forced);
    expect((await push(bobDir, ":topic")).code).toBe(0);
  });

  test("glob rules protect matching branches only", async () => {
    await protect({ rule_name: "release/*", enable_push: false });
    await gitOk(["checkout", "-q", "-B", "work", "origin/main"], { cwd: bobDir });
    await commit(bobDir);
    const refused = await push(bobDir, "HEAD:release/1.0");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("remote: Not allowed to push to protected branch release/1.0");
    // `*` does not cross `/`: a deeper branch is not protected by this rule.
    expect((await push(bobDir, "HEAD:release/2/rc")).code).toBe(0);
    expect((await push(bobDir, "HEAD:release-1")).code).toBe(0);
  });

  test("protected and unprotected file patterns", async () => {
    await seedBranch(bobDir, "docs");
    await protect({ rule_name: "docs", enable_push: true, protected_file_patterns: "*.lock;secret/**" });
    await gitOk(["checkout", "-q", "-B", "docs", "origin/main"], { cwd: bobDir });
    await commit(bobDir, "yarn.LOCK");
    const refused = await push(bobDir, "HEAD:docs");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("remote: branch docs is protected from changing file yarn.LOCK");
    await gitOk(["reset", "-q", "--hard", "origin/main"], { cwd: bobDir });
    await commit(bobDir, "readme2.md");
    expect((await push(bobDir, "HEAD:docs")).code).toBe(0);

    await seedBranch(bobDir, "guarded");
    await protect({ rule_name: "guarded", enable_push: false, unprotected_file_patterns: "notes/**" });
    await gitOk(["checkout", "-q", "-B", "guarded", "origin/main"], { cwd: bobDir });
    await Bun.write(join(bobDir, "notes", "a.md"), "a\n");
    await gitOk(["add", "notes"], { cwd: bobDir });
    await gitOk(["commit", "-q", "-m", "notes only"], { cwd: bobDir });
    expect((await push(bobDir, "HEAD:guarded")).code).toBe(0);
    await commit(bobDir, "code.ts");
    const code = await push(bobDir, "HEAD:guarded");
    expect(code.code).not.toBe(0);
    expect(code.stderr).toContain("remote: Not allowed to push to protected branch guarded");
  });

  test("require_signed_commits refuses commits hearth cannot verify", async () => {
    await seedBranch(aliceDir, "signed");
    await protect({ rule_name: "signed", enable_push: true, require_signed_commits: true });
    await gitOk(["checkout", "-q", "-B", "signed", "origin/main"], { cwd: aliceDir });
    const sha = await commit(aliceDir);
    const refused = await push(aliceDir, "HEAD:signed");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`remote: branch signed is protected from unverified commit ${sha}`);
  });

  test("refs/pull is hearth's: pushes there are refused", async () => {
    const r = await push(aliceDir, "HEAD:refs/pull/1/head");
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("remote: Unable to get pull request 1");
    const bad = await push(aliceDir, "HEAD:refs/pull/x/head");
    expect(bad.stderr).toContain("remote: Invalid ref: refs/pull/x/head");
  });
});
