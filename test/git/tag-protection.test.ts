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
const api = (rest = "") => `/api/v1/repos/alice/tags${rest}`;

await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "tags", auto_init: true }, 201);
await t.ok("PUT", api("/collaborators/bob"), aliceToken, { permission: "write" }, 204);

async function cloneAs(user: string, password: string): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), "hearth-tagprot-")), user);
  await gitOk(["clone", "-q", authUrl(t.baseUrl, "alice/tags.git", user, password), dir]);
  await gitOk(["config", "user.name", user], { cwd: dir });
  await gitOk(["config", "user.email", `${user}@example.com`], { cwd: dir });
  return dir;
}
const aliceDir = await cloneAs("alice", "alice-pass");
const bobDir = await cloneAs("bob", "bob-pass");

const push = (dir: string, ...args: string[]) => gitClient(["push", "origin", ...args], { cwd: dir });
/** The server's tag names. */
const serverTags = async () => ((await t.ok("GET", api("/tags"), aliceToken)) as { name: string }[]).map((x) => x.name).sort();
const protect = (name_pattern: string, whitelist_usernames: string[]) =>
  t.ok("POST", api("/tag_protections"), aliceToken, { name_pattern, whitelist_usernames }, 201);
const tag = (dir: string, name: string, ...extra: string[]) => gitOk(["tag", "-f", ...extra, name], { cwd: dir });

let n = 0;
async function commit(dir: string) {
  await Bun.write(join(dir, `f${++n}.txt`), `${n}\n`);
  await gitOk(["add", "."], { cwd: dir });
  await gitOk(["commit", "-q", "-m", `change ${n}`], { cwd: dir });
}

describe("pushing protected tags", () => {
  test("creating a protected tag: refused with Gitea's message off the allow-list, accepted on it", async () => {
    await protect("v*", ["alice"]);
    await tag(bobDir, "v1.0");
    const refused = await push(bobDir, "refs/tags/v1.0");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("remote: Tag v1.0 is protected");
    expect(await serverTags()).toEqual([]);

    await tag(aliceDir, "v1.0", "-a", "-m", "first");
    const ok = await push(aliceDir, "refs/tags/v1.0");
    expect({ code: ok.code, stderr: ok.code ? ok.stderr : "" }).toEqual({ code: 0, stderr: "" });
    expect(await serverTags()).toEqual(["v1.0"]);
  });

  test("moving or deleting a protected tag is refused off the allow-list", async () => {
    await gitOk(["fetch", "-q", "origin", "+refs/tags/*:refs/tags/*"], { cwd: bobDir });
    await commit(bobDir);
    await tag(bobDir, "v1.0");
    const moved = await push(bobDir, "--force", "refs/tags/v1.0");
    expect(moved.code).not.toBe(0);
    expect(moved.stderr).toContain("remote: Tag v1.0 is protected");

    const deleted = await push(bobDir, "--delete", "refs/tags/v1.0");
    expect(deleted.code).not.toBe(0);
    expect(deleted.stderr).toContain("remote: Tag v1.0 is protected");
    expect(await serverTags()).toEqual(["v1.0"]);

    // One refused ref refuses the whole push, unprotected tags included.
    await tag(bobDir, "free-1");
    const mixed = await push(bobDir, "refs/tags/free-1", ":refs/tags/v1.0");
    expect(mixed.code).not.toBe(0);
    expect(await serverTags()).toEqual(["v1.0"]);

    const ok = await push(aliceDir, "--delete", "refs/tags/v1.0");
    expect(ok.code).toBe(0);
    expect(await serverTags()).toEqual([]);
  });

  test("unprotected tags and branches are unaffected", async () => {
    expect((await push(bobDir, "refs/tags/free-1")).code).toBe(0);
    expect((await push(bobDir, "HEAD:refs/heads/topic")).code).toBe(0);
    expect((await push(bobDir, "--delete", "refs/tags/free-1")).code).toBe(0);
    expect(await serverTags()).toEqual([]);
  });

  test("regexp patterns; an allow-listed user is allowed by any matching rule", async () => {
    await protect("/^rel-\\d+$/", ["bob"]);
    await protect("rel-*", ["alice"]);
    await tag(bobDir, "rel-1");
    await tag(bobDir, "rel-x");
    // rel-1 matches both rules (bob is on the regexp's list); rel-x only the glob.
    expect((await push(bobDir, "refs/tags/rel-1")).code).toBe(0);
    const refused = await push(bobDir, "refs/tags/rel-x");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("remote: Tag rel-x is protected");
    // Neither the anchored regexp nor the glob (which must match the whole name) covers this one.
    await tag(bobDir, "pre-rel-1");
    expect((await push(bobDir, "refs/tags/pre-rel-1")).code).toBe(0);
    expect(await serverTags()).toEqual(["pre-rel-1", "rel-1"]);
  });

  test("removing the protection lifts the refusal", async () => {
    const rules = (await t.ok("GET", api("/tag_protections"), aliceToken)) as { id: number }[];
    for (const r of rules) await t.ok("DELETE", api(`/tag_protections/${r.id}`), aliceToken, undefined, 204);
    expect((await push(bobDir, "refs/tags/rel-x")).code).toBe(0);
    expect(await serverTags()).toEqual(["pre-rel-1", "rel-1", "rel-x"]);
  });
});
