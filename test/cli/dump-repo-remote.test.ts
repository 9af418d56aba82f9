import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { makeTestApp } from "../support/app.ts";
import { gitOk } from "../support/git.ts";
import { hearth, hearthOk } from "../support/cli.ts";

/**
 * `hearth dump-repo --clone_addr`: Gitea's download of another forge's repository into its dump
 * layout, through the migration code and its `[migrations]` host rules, then restored by
 * `restore-repo` into another instance.
 */

const source = makeTestApp("", { listen: true });
const alice = await source.user("alice", { password: "alice-pass" });
const aliceToken = source.token(alice);
await source.ok("POST", "/api/v1/user/repos", aliceToken, { name: "proj", auto_init: true, private: true }, 201);
await source.ok("POST", "/api/v1/repos/alice/proj/branches", aliceToken, { new_branch_name: "dev" }, 201);

const work = mkdtempSync(join(tmpdir(), "hearth-dump-remote-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const local = { HEARTH__MIGRATIONS__ALLOW_LOCALNETWORKS: "true", HEARTH__LOG__LEVEL: "none" };
const cloneAddr = `${source.baseUrl}alice/proj.git`;

describe("dump-repo --clone_addr", () => {
  test("a private repository of another server is dumped with the given credentials, none of them written", async () => {
    const dir = join(work, "dump");
    const out = await hearthOk(
      work,
      ["dump-repo", "--git_service", "git", "--clone_addr", cloneAddr, "--auth_username", "alice", "--auth_password", "alice-pass", "--repo_dir", dir, "--owner_name", "bob", "--repo_name", "copy"],
      local,
    );
    const base = join(dir, "bob", "copy");
    expect(out).toContain(`Dumped bob/copy to ${base}`);
    const repoYml = parse(readFileSync(join(base, "repo.yml"), "utf8"));
    expect(repoYml.clone_addr).toBe(cloneAddr);
    expect(repoYml.service_type).toBe(1);
    const branches = (await gitOk(["--git-dir", join(base, "git"), "for-each-ref", "--format=%(refname)", "refs/heads/"])).trim().split("\n");
    expect(branches.sort()).toEqual(["refs/heads/dev", "refs/heads/main"]);
    // The password is nowhere in the dump: not in repo.yml, not in the mirror's git config.
    expect(readFileSync(join(base, "repo.yml"), "utf8")).not.toContain("alice-pass");
    expect(readFileSync(join(base, "git", "config"), "utf8")).not.toContain("alice-pass");

    // ... and restore-repo takes it (into the work directory's own instance).
    await hearthOk(work, ["admin", "user", "create", "--username", "root", "--password", "root-pass-1", "--email", "root@example.com", "--admin"], local);
    const restored = await hearthOk(work, ["restore-repo", "--repo_dir", base, "--owner_name", "root", "--repo_name", "copy"], local);
    expect(restored).toContain("root/copy");
  });

  test("--git_service gitea brings the issues and labels through the source's API, signed in with a token", async () => {
    await source.ok("POST", "/api/v1/repos/alice/proj/labels", aliceToken, { name: "bug", color: "#ee0701" }, 201);
    await source.ok("POST", "/api/v1/repos/alice/proj/issues", aliceToken, { title: "Broken", body: "It is.", labels: [] }, 201);
    const dir = join(work, "gitea");
    const out = await hearthOk(
      work,
      ["dump-repo", "--git_service", "gitea", "--clone_addr", `${source.baseUrl}alice/proj`, "--auth_token", aliceToken, "--repo_dir", dir, "--owner_name", "alice", "--repo_name", "proj", "--units", "labels,issues,comments"],
      local,
    );
    expect(out).toContain("1 labels, 1 issues");
    const base = join(dir, "alice", "proj");
    expect(parse(readFileSync(join(base, "repo.yml"), "utf8")).service_type).toBe(3);
    expect(parse(readFileSync(join(base, "issue.yml"), "utf8")).map((i: { title: string }) => i.title)).toEqual(["Broken"]);
    expect(parse(readFileSync(join(base, "label.yml"), "utf8")).map((l: { name: string }) => l.name)).toEqual(["bug"]);
    for (const file of ["repo.yml", "issue.yml", "git/config"]) expect(readFileSync(join(base, file), "utf8")).not.toContain(aliceToken);
  });

  test("without ALLOW_LOCALNETWORKS a loopback source is refused before any connection", async () => {
    const r = await hearth(work, ["dump-repo", "--clone_addr", cloneAddr, "--repo_dir", join(work, "refused"), "--owner_name", "a", "--repo_name", "b"], {
      HEARTH__LOG__LEVEL: "none",
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("You can not import from disallowed hosts.");
    expect(existsSync(join(work, "refused", "a", "b"))).toBe(false);
  });

  test("wrong credentials fail without leaving a half-written dump, and the password is not in the message", async () => {
    const dir = join(work, "wrong");
    const r = await hearth(
      work,
      ["dump-repo", "--clone_addr", cloneAddr, "--auth_username", "alice", "--auth_password", "not-her-pass", "--repo_dir", dir, "--owner_name", "a", "--repo_name", "b"],
      local,
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr).not.toContain("not-her-pass");
    expect(existsSync(join(dir, "a", "b"))).toBe(false);
  });

  test("an unknown --git_service is refused", async () => {
    const r = await hearth(work, ["dump-repo", "--git_service", "svn", "--clone_addr", cloneAddr, "--repo_dir", join(work, "svn"), "--owner_name", "a", "--repo_name", "b"], local);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("Invalid git service type: svn");
  });
});
