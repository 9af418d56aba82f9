import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { BranchProtection } from "../../src/shapes/branch-protection.ts";
import { Branch } from "../../src/shapes/branch.ts";
import { protectionRuleFor } from "../../src/services/protection/rules.ts";
import { ruleMatches } from "../../src/services/protection/rules.ts";

const t = makeTestApp();
const alice = await t.user("alice");
const bob = await t.user("bob");
const carol = await t.user("carol");
const aliceToken = t.token(alice);
const bobToken = t.token(bob);
const carolToken = t.token(carol);
const api = (rest = "", repo = "bp") => `/api/v1/repos/alice/${repo}${rest}`;

await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "bp", auto_init: true }, 201);
const repoId = (await t.ok("GET", api(), aliceToken)).id as number;
// bob writes, carol only reads.
await t.ok("PUT", api("/collaborators/bob"), aliceToken, { permission: "write" }, 204);
await t.ok("PUT", api("/collaborators/carol"), aliceToken, { permission: "read" }, 204);
for (const name of ["release/1.0", "release/2/hotfix", "dev", "feature"]) {
  await t.ok("POST", api("/branches"), aliceToken, { new_branch_name: name }, 201);
}

const create = (body: Record<string, unknown>, token = aliceToken) => t.json("POST", api("/branch_protections"), { token, body });
const patch = (name: string, body: Record<string, unknown>) =>
  t.ok("PATCH", api(`/branch_protections/${encodeURIComponent(name)}`), aliceToken, body);

describe("create, get, list", () => {
  test("creates a rule with Gitea's fields; whitelist users must be writers", async () => {
    const r = await create({
      rule_name: "main",
      enable_push: true,
      enable_push_whitelist: true,
      push_whitelist_usernames: ["bob", "carol"],
      enable_merge_whitelist: true,
      merge_whitelist_usernames: ["bob"],
      approvals_whitelist_username: ["carol"],
      required_approvals: 2,
      enable_status_check: true,
      status_check_contexts: ["ci/build"],
      protected_file_patterns: "*.lock",
    });
    expect(r.status).toBe(201);
    expectShape(r.body, BranchProtection);
    expect(r.body).toMatchObject({
      rule_name: "main",
      branch_name: "main",
      priority: 1,
      enable_push: true,
      enable_push_whitelist: true,
      // carol cannot write code: dropped from the push and merge whitelists, kept for approvals (she reads pulls).
      push_whitelist_usernames: ["bob"],
      merge_whitelist_usernames: ["bob"],
      approvals_whitelist_username: ["carol"],
      push_whitelist_teams: [],
      required_approvals: 2,
      enable_status_check: true,
      status_check_contexts: ["ci/build"],
      protected_file_patterns: "*.lock",
      enable_force_push: false,
    });
  });

  test("push off turns its whitelist off; force push needs push", async () => {
    const r = await create({ rule_name: "dev", enable_push: false, enable_push_whitelist: true, enable_force_push: true });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ enable_push: false, enable_push_whitelist: false, enable_force_push: false, priority: 2 });
  });

  test("refusals: duplicate, no name, unknown user, not an admin, anonymous", async () => {
    expect((await create({ rule_name: "main" })).status).toBe(403);
    expect((await create({})).status).toBe(400);
    const unknown = await create({ rule_name: "x", push_whitelist_usernames: ["nobody"] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toContain("nobody");
    expect((await create({ rule_name: "x" }, bobToken)).status).toBe(403);
    expect((await t.json("GET", api("/branch_protections"), { token: bobToken })).status).toBe(403);
    expect((await t.json("GET", api("/branch_protections"))).status).toBe(401);
    expect((await create({ rule_name: "x", required_approvals: "two" })).status).toBe(422);
  });

  test("get, list, 404", async () => {
    const got = await t.ok("GET", api("/branch_protections/main"), aliceToken);
    expect(got.rule_name).toBe("main");
    const list = await t.ok("GET", api("/branch_protections"), aliceToken);
    expect(list.map((r: any) => r.rule_name)).toEqual(["main", "dev"]);
    expect((await t.json("GET", api("/branch_protections/nope"), { token: aliceToken })).status).toBe(404);
    expect((await t.json("PATCH", api("/branch_protections/nope"), { token: aliceToken, body: {} })).status).toBe(404);
    expect((await t.json("DELETE", api("/branch_protections/nope"), { token: aliceToken })).status).toBe(404);
  });
});

describe("PATCH (seed 6)", () => {
  test("status_check_contexts: omitted or null keeps them, a list replaces them, [] clears them, even with checks disabled", async () => {
    await patch("dev", { status_check_contexts: ["a", "b"] });
    expect((await patch("dev", {})).status_check_contexts).toEqual(["a", "b"]);
    expect((await patch("dev", { status_check_contexts: null, required_approvals: 1 })).status_check_contexts).toEqual(["a", "b"]);
    const replaced = await patch("dev", { status_check_contexts: ["c"] });
    expect(replaced.status_check_contexts).toEqual(["c"]);
    expect(replaced.enable_status_check).toBe(false);
    expect(replaced.required_approvals).toBe(1);
    expect((await patch("dev", { status_check_contexts: [] })).status_check_contexts).toEqual([]);
    // With checks enabled the same rules hold.
    await patch("dev", { enable_status_check: true, status_check_contexts: ["d"] });
    const kept = await patch("dev", { enable_status_check: false });
    expect(kept).toMatchObject({ enable_status_check: false, status_check_contexts: ["d"] });
  });

  test("only given fields change; push off clears the whitelist flags; whitelists keep unless given", async () => {
    const before = await t.ok("GET", api("/branch_protections/main"), aliceToken);
    const after = await patch("main", { required_approvals: -1, block_on_rejected_reviews: true });
    expect(after.required_approvals).toBe(before.required_approvals);
    expect(after.block_on_rejected_reviews).toBe(true);
    expect(after.push_whitelist_usernames).toEqual(["bob"]);
    const off = await patch("main", { enable_push: false });
    expect(off).toMatchObject({ enable_push: false, enable_push_whitelist: false });
    const on = await patch("main", { enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [] });
    expect(on).toMatchObject({ enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [] });
    expect((await t.json("PATCH", api("/branch_protections/main"), { token: aliceToken, body: { merge_whitelist_usernames: ["ghost"] } })).status).toBe(422);
    await patch("main", { push_whitelist_usernames: ["bob"] });
  });
});

describe("rule matching and the Branch JSON", () => {
  test("globs: * stays in a path segment, ** crosses them; plain names ignore case", () => {
    const rule = (ruleName: string) => ({ ruleName, isPlainName: !/[*?[\]{}\\]/.test(ruleName) });
    expect(ruleMatches(rule("release/*"), "release/1.0")).toBe(true);
    expect(ruleMatches(rule("release/*"), "release/1.0/hotfix")).toBe(false);
    expect(ruleMatches(rule("release/**"), "release/1.0/hotfix")).toBe(true);
    expect(ruleMatches(rule("{main,dev}"), "dev")).toBe(true);
    expect(ruleMatches(rule("v[0-9]"), "v5")).toBe(true);
    expect(ruleMatches(rule("Main"), "main")).toBe(true);
    expect(ruleMatches(rule("[unclosed"), "[unclosed")).toBe(true);
    expect(ruleMatches(rule("v?"), "v1")).toBe(true);
    expect(ruleMatches(rule("v?"), "v/")).toBe(false);
    expect(ruleMatches(rule("v[!0-9]"), "v5")).toBe(false);
    expect(ruleMatches(rule("v[!0-9]"), "vx")).toBe(true);
    expect(ruleMatches(rule("lit\\*"), "lit*")).toBe(true);
    expect(ruleMatches(rule("lit\\*"), "litx")).toBe(false);
    expect(ruleMatches(rule("a.b*"), "aXb")).toBe(false);
  });

  test("exact names first, then globs by priority", async () => {
    const star = await create({ rule_name: "release/*", required_approvals: 3 });
    const stars = await create({ rule_name: "release/**", required_approvals: 4 });
    expect(star.body.priority).toBe(3);
    expect(stars.body.priority).toBe(4);
    expect(protectionRuleFor(t.env, repoId, "release/1.0")!.ruleName).toBe("release/*");
    expect(protectionRuleFor(t.env, repoId, "release/1.0/hotfix")!.ruleName).toBe("release/**");
    expect(protectionRuleFor(t.env, repoId, "feature")).toBeUndefined();
    // Listed in matching order: plain names first.
    const rules = await t.ok("GET", api("/branch_protections"), aliceToken);
    expect(rules.map((r: any) => r.rule_name)).toEqual(["main", "dev", "release/*", "release/**"]);
  });

  test("priorities reorder glob rules", async () => {
    const { listProtectedBranches } = await import("../../src/models/protected-branch.ts");
    const rows = listProtectedBranches(t.env.db, repoId);
    const id = (name: string) => rows.find((r) => r.ruleName === name)!.id;
    await t.ok("POST", api("/branch_protections/priority"), aliceToken, { ids: [id("release/**"), id("release/*"), id("main"), id("dev")] }, 204);
    expect(protectionRuleFor(t.env, repoId, "release/1.0")!.ruleName).toBe("release/**");
    const got = await t.ok("GET", api("/branch_protections/release%2F**"), aliceToken);
    expect(got.priority).toBe(1);
    // An exact name still wins over any glob.
    await create({ rule_name: "release/1.0", required_approvals: 9 });
    expect(protectionRuleFor(t.env, repoId, "release/1.0")!.ruleName).toBe("release/1.0");
    await t.ok("DELETE", api("/branch_protections/release%2F1.0"), aliceToken, undefined, 204);
  });

  test("branches show their protection", async () => {
    const main = await t.ok("GET", api("/branches/main"), aliceToken);
    expectShape(main, Branch);
    expect(main).toMatchObject({
      protected: true,
      required_approvals: 2,
      enable_status_check: true,
      status_check_contexts: ["ci/build"],
      effective_branch_protection_name: "main",
      user_can_push: false, // alice is not on the push whitelist
      user_can_merge: false, // nor on the merge whitelist
    });
    const asBob = await t.ok("GET", api("/branches/main"), bobToken);
    expect(asBob).toMatchObject({ protected: true, user_can_push: true, user_can_merge: true, effective_branch_protection_name: "" });
    const asCarol = await t.ok("GET", api("/branches/main"), carolToken);
    expect(asCarol).toMatchObject({ user_can_push: false, user_can_merge: false });
    const feature = await t.ok("GET", api("/branches/feature"), bobToken);
    expect(feature).toMatchObject({ protected: false, user_can_push: true, effective_branch_protection_name: "" });
    const list = await t.ok("GET", api("/branches"), aliceToken);
    const byName = new Map(list.map((b: any) => [b.name, b]));
    expect((byName.get("release/2/hotfix") as any).effective_branch_protection_name).toBe("release/**");
    expect((byName.get("dev") as any).protected).toBe(true);
    expect((byName.get("feature") as any).protected).toBe(false);
  });

  test("protected branches cannot be deleted; renaming needs an admin and carries a plain rule along", async () => {
    const del = await t.json("DELETE", api("/branches/dev"), { token: aliceToken });
    expect(del.status).toBe(403);
    expect(del.body.message).toBe("branch protected");
    expect((await t.json("PATCH", api("/branches/dev"), { token: bobToken, body: { name: "develop" } })).status).toBe(403);
    const glob = await t.json("PATCH", api("/branches/release%2F1.0"), { token: aliceToken, body: { name: "rel-1" } });
    expect(glob.status).toBe(403);
    expect(glob.body.message).toBe("Branch is protected by glob-based protection rules.");
    await t.ok("PATCH", api("/branches/dev"), aliceToken, { name: "develop" }, 204);
    expect((await t.ok("GET", api("/branch_protections/develop"), aliceToken)).rule_name).toBe("develop");
    expect((await t.json("GET", api("/branch_protections/dev"), { token: aliceToken })).status).toBe(404);
    // Unprotected branches delete as before.
    await t.ok("DELETE", api("/branches/feature"), aliceToken, undefined, 204);
  });

  test("branch creation and update through the API pass the same protection as a push", async () => {
    const created = await t.json("POST", api("/branches"), { token: bobToken, body: { new_branch_name: "release/9" } });
    expect(created.status).toBe(403);
    expect(created.body.message).toBe("Not allowed to push to protected branch release/9");
    const mainSha = (await t.ok("GET", api("/branches/main"), aliceToken)).commit.id;
    await t.ok("POST", api("/contents/new.txt"), aliceToken, { content: btoa("n\n"), new_branch: "feature2", message: "n" }, 201);
    const next = (await t.ok("GET", api("/branches/feature2"), aliceToken)).commit.id;
    // alice is not on main's push whitelist; bob is.
    const moved = await t.json("PUT", api("/branches/main"), { token: aliceToken, body: { new_commit_id: next } });
    expect(moved.status).toBe(403);
    expect(moved.body.message).toBe("Not allowed to push to protected branch main");
    expect((await t.ok("GET", api("/branches/main"), aliceToken)).commit.id).toBe(mainSha);
    await t.ok("PUT", api("/branches/main"), bobToken, { new_commit_id: next }, 204);
  });

  test("file changes through the contents API pass the same protection, and a refusal moves nothing", async () => {
    const before = (await t.ok("GET", api("/branches/main"), aliceToken)).commit.id;
    const refused = await t.json("POST", api("/contents/blocked.txt"), { token: aliceToken, body: { content: btoa("x\n"), message: "x" } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Not allowed to push to protected branch main");
    expect((await t.ok("GET", api("/branches/main"), aliceToken)).commit.id).toBe(before);
    expect((await t.json("GET", api("/contents/blocked.txt"), { token: aliceToken })).status).toBe(404);
    // bob is on the whitelist; and anyone may still commit to a new, unprotected branch.
    await t.ok("POST", api("/contents/allowed.txt"), bobToken, { content: btoa("y\n"), message: "y" }, 201);
    await t.ok("POST", api("/contents/side.txt"), aliceToken, { content: btoa("z\n"), message: "z", new_branch: "side-branch" }, 201);
  });

  test("deleting a rule unprotects the branch", async () => {
    await t.ok("DELETE", api("/branch_protections/develop"), aliceToken, undefined, 204);
    expect((await t.ok("GET", api("/branches/develop"), aliceToken)).protected).toBe(false);
  });
});

describe("organization repositories", () => {
  test("team whitelists name the organization's teams with access", async () => {
    await t.ok("POST", "/api/v1/orgs", aliceToken, { username: "acme" }, 201);
    await t.ok("POST", "/api/v1/orgs/acme/repos", aliceToken, { name: "orgrepo", auto_init: true }, 201);
    const devs = await t.ok("POST", "/api/v1/orgs/acme/teams", aliceToken, { name: "devs", permission: "write", units: ["repo.code", "repo.pulls"] }, 201);
    await t.ok("POST", "/api/v1/orgs/acme/teams", aliceToken, { name: "outsiders", permission: "read", units: ["repo.code"] }, 201);
    await t.ok("PUT", `/api/v1/teams/${devs.id}/repos/acme/orgrepo`, aliceToken, undefined, 204);
    await t.ok("PUT", `/api/v1/teams/${devs.id}/members/bob`, aliceToken, undefined, 204);
    const r = await t.json("POST", "/api/v1/repos/acme/orgrepo/branch_protections", {
      token: aliceToken,
      body: { rule_name: "main", enable_push: true, enable_push_whitelist: true, push_whitelist_teams: ["devs", "outsiders"] },
    });
    expect(r.status).toBe(201);
    // outsiders has no access to this repository: dropped.
    expect(r.body.push_whitelist_teams).toEqual(["devs"]);
    const unknown = await t.json("POST", "/api/v1/repos/acme/orgrepo/branch_protections", {
      token: aliceToken,
      body: { rule_name: "x", push_whitelist_teams: ["ghosts"] },
    });
    expect(unknown.status).toBe(422);
    const asBob = await t.ok("GET", "/api/v1/repos/acme/orgrepo/branches/main", bobToken);
    expect(asBob.user_can_push).toBe(true);
  });

  test("archived repositories refuse changes (423)", async () => {
    await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "old", auto_init: true }, 201);
    await t.ok("PATCH", api("", "old"), aliceToken, { archived: true });
    expect((await t.json("POST", api("/branch_protections", "old"), { token: aliceToken, body: { rule_name: "main" } })).status).toBe(423);
  });
});
