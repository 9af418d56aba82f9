import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { authUrl, gitClient, gitOk, localRepo } from "../support/git.ts";
import { startReceiver } from "../webhook/receiver.ts";
import { and, eq } from "drizzle-orm";
import { pullMirrors, queueItems } from "../../src/db/schema/index.ts";
import { nowUnix } from "../../src/lib/time.ts";
import { PULL_MIRROR_QUEUE } from "../../src/services/mirror/pull-sync-queue.ts";
import { getRepoByOwner } from "../../src/models/repo.ts";
import { openPullCredentials } from "../../src/services/mirror/pull-mirrors.ts";
import { convertMirrorToNormal, pullMirrorOf } from "../../src/services/mirror/pull-mirror-admin.ts";
import { resolveRepoById } from "../../src/services/repo/lookup.ts";
import { checkRepoAccess } from "../../src/services/access/repo-access.ts";

/**
 * A pull mirror between two hearth instances: the source holds a private repository, the target
 * mirrors it with a token (POST /repos/migrate mirror:true) and follows it on POST mirror-sync.
 */
const source = makeTestApp("", { listen: true });
const target = makeTestApp("[migrations]\nALLOW_LOCALNETWORKS = true\n[webhook]\nALLOWED_HOST_LIST = loopback\n", { listen: true });
const receiver = startReceiver();

const up = await source.user("up");
const upToken = source.token(up);
const down = await target.user("down");
const downToken = target.token(down);

/** Polls `check` until it holds (the sync runs in the background). */
async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

const branchNames = async () =>
  ((await target.ok("GET", "/api/v1/repos/down/proj/branches", downToken)) as { name: string }[]).map((b) => b.name).sort();
const tagNames = async () => ((await target.ok("GET", "/api/v1/repos/down/proj/tags", downToken)) as { name: string }[]).map((t) => t.name).sort();
/** The mirror's periodic item in the target's work queue. */
const periodic = () => {
  const id = getRepoByOwner(target.env.db, down.id, "proj")!.id;
  return target.env.db
    .select()
    .from(queueItems)
    .where(and(eq(queueItems.queue, PULL_MIRROR_QUEUE), eq(queueItems.payload, JSON.stringify({ repoId: id, periodic: true }))))
    .all();
};
const mirrorRow = () => pullMirrorOf(target.env, getRepoByOwner(target.env.db, down.id, "proj")!.id)!;

// The upstream: a private repository with main, old and a tag.
const work = await localRepo("main");
const upstreamUrl = authUrl(source.baseUrl, "up/proj.git", "up", upToken);
await source.ok("POST", "/api/v1/user/repos", upToken, { name: "proj", private: true }, 201);
await gitOk(["branch", "old"], { cwd: work });
await gitOk(["branch", "keep"], { cwd: work });
await gitOk(["tag", "v1"], { cwd: work });
await gitOk(["push", "-q", upstreamUrl, "main", "old", "keep", "v1"], { cwd: work });

async function commit(file: string, text: string): Promise<string> {
  await Bun.write(join(work, file), text);
  await gitOk(["add", file], { cwd: work });
  await gitOk(["commit", "-qm", `change ${file}`], { cwd: work });
  return (await gitOk(["rev-parse", "HEAD"], { cwd: work })).trim();
}

describe("a pull mirror", () => {
  test("POST /repos/migrate mirror:true makes a mirror whose credentials are sealed", async () => {
    const r = await target.json("POST", "/api/v1/repos/migrate", {
      token: downToken,
      body: {
        clone_addr: `${source.baseUrl}up/proj.git`,
        repo_name: "proj",
        service: "git",
        mirror: true,
        auth_username: "up",
        auth_password: upToken,
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.mirror).toBe(true);
    expect(r.body.mirror_interval).toBe("8h0m0s");
    expect(r.body.mirror_updated).not.toBe("0001-01-01T00:00:00Z");
    expect(await branchNames()).toEqual(["keep", "main", "old"]);

    const row = target.env.db.select().from(pullMirrors).all()[0]!;
    expect(row.remoteCredentials).not.toBe("");
    expect(row.remoteCredentials).not.toContain(upToken);
    expect(row.remoteAddress).not.toContain(upToken);
    expect(openPullCredentials(target.env, row).password).toBe(upToken);
  });

  test("mirror-sync brings new commits, branches and tags, prunes deleted branches and sends the push webhook", async () => {
    await target.ok(
      "POST",
      "/api/v1/repos/down/proj/hooks",
      downToken,
      { type: "gitea", config: { url: `${receiver.url}/hook`, content_type: "json" }, events: ["push"], active: true },
      201,
    );
    const tip = await commit("two.txt", "two\n");
    await gitOk(["branch", "feature"], { cwd: work });
    await gitOk(["tag", "-a", "v2", "-m", "second"], { cwd: work });
    await gitOk(["push", "-q", upstreamUrl, "main", "feature", "v2", ":old"], { cwd: work });
    const before = mirrorRow().updatedUnix;

    const r = await target.request("POST", "/api/v1/repos/down/proj/mirror-sync", { token: downToken });
    expect(r.status).toBe(200);
    expect(await r.text()).toBe("");

    await until("the synced branches", async () => (await branchNames()).join() === "feature,keep,main");
    expect(await tagNames()).toEqual(["v1", "v2"]);
    const main = await target.ok("GET", "/api/v1/repos/down/proj/branches/main", downToken);
    expect(main.commit.id).toBe(tip);
    const heads = await gitOk(["ls-remote", authUrl(target.baseUrl, "down/proj.git", "down", downToken)]);
    expect(heads).toContain(`${tip}\trefs/heads/main`);
    expect(heads).not.toContain("refs/heads/old");
    expect(heads).toContain("refs/tags/v2");

    const row = mirrorRow();
    expect(row.lastError).toBe("");
    expect(row.updatedUnix).toBeGreaterThanOrEqual(before);
    expect(row.nextUpdateUnix).toBe(row.updatedUnix + 8 * 3600);

    // The sync's branch update is announced as a push by the mirror's owner.
    await until("the push webhook", () =>
      receiver.got.some((g) => g.headers.get("x-gitea-event") === "push" && JSON.parse(g.body).ref === "refs/heads/main"),
    );
    const push = JSON.parse(receiver.got.find((g) => g.headers.get("x-gitea-event") === "push" && JSON.parse(g.body).ref === "refs/heads/main")!.body);
    expect(push.after).toBe(tip);
    expect(push.pusher.login).toBe("down");
    expect([push.repository.mirror, push.repository.mirror_interval]).toEqual([true, "8h0m0s"]);
    expect(push.commits.map((c: { id: string }) => c.id)).toContain(tip);
  });

  test("the periodic sync runs once next_update_unix is due, and waits for the next interval", async () => {
    const tip = await commit("periodic.txt", "periodic\n");
    await gitOk(["push", "-q", upstreamUrl, "main"], { cwd: work });
    const id = getRepoByOwner(target.env.db, down.id, "proj")!.id;
    expect(periodic()).toHaveLength(1);
    // As if the interval had passed: the periodic item, woken, finds the mirror due.
    target.env.db.update(pullMirrors).set({ nextUpdateUnix: nowUnix() - 1 }).where(eq(pullMirrors.repoId, id)).run();
    target.env.queue.hurry(PULL_MIRROR_QUEUE);
    await until("the periodic sync", async () => (await target.ok("GET", "/api/v1/repos/down/proj/branches/main", downToken)).commit.id === tip);
    await until("the next periodic run queued", () => {
      const items = periodic();
      return items.length === 1 && items[0]!.leasedUntilMs === 0 && items[0]!.runAfterMs > Date.now() + 7 * 3600_000;
    });
    expect(mirrorRow().nextUpdateUnix).toBeGreaterThan(nowUnix() + 7 * 3600);
  });

  test("git pushes to the mirror are refused, the ref unchanged", async () => {
    const url = authUrl(target.baseUrl, "down/proj.git", "down", downToken);
    const clone = join(await localRepo("scratch"), "clone");
    await gitOk(["clone", "-q", url, clone]);
    const before = (await gitOk(["rev-parse", "HEAD"], { cwd: clone })).trim();
    await Bun.write(join(clone, "local.txt"), "local\n");
    await gitOk(["add", "local.txt"], { cwd: clone });
    await gitOk(["commit", "-qm", "local"], { cwd: clone });
    const pushed = await gitClient(["push", url, "HEAD:main"], { cwd: clone });
    expect(pushed.code).not.toBe(0);
    expect(pushed.stderr).toContain("403");
    const raw = await target.request("POST", "/down/proj.git/git-receive-pack", {
      token: downToken,
      headers: { "Content-Type": "application/x-git-receive-pack-request" },
      body: "0000",
    });
    expect(raw.status).toBe(403);
    expect(await raw.text()).toContain("mirror repository is read-only");
    const main = await target.ok("GET", "/api/v1/repos/down/proj/branches/main", downToken);
    expect(main.commit.id).toBe(before);
  });

  test("code-changing API calls are refused as Gitea refuses them", async () => {
    const file = await target.json("POST", "/api/v1/repos/down/proj/contents/new.txt", {
      token: downToken,
      body: { content: Buffer.from("x").toString("base64") },
    });
    expect(file.status).toBe(423);
    expect(file.body.message).toBe("repo is not allowed to edit");
    const branch = await target.json("POST", "/api/v1/repos/down/proj/branches", { token: downToken, body: { new_branch_name: "x" } });
    expect(branch.status).toBe(403);
    expect(branch.body.message).toBe("Git Repository is a mirror.");
    const del = await target.json("DELETE", "/api/v1/repos/down/proj/branches/keep", { token: downToken });
    expect(del.status).toBe(403);
    expect(await branchNames()).toContain("keep");
    // A mirror takes no pull requests (Gitea's CanEnablePulls): the /pulls group is not there.
    const pull = await target.json("POST", "/api/v1/repos/down/proj/pulls", { token: downToken, body: { head: "keep", base: "main", title: "t" } });
    expect(pull.status).toBe(404);
    expect((await target.json("GET", "/api/v1/repos/down/proj/pulls", { token: downToken })).status).toBe(404);
  });

  test("PATCH sets mirror_interval and enable_prune, refusing intervals Gitea refuses", async () => {
    const ok = await target.ok("PATCH", "/api/v1/repos/down/proj", downToken, { mirror_interval: "1h30m" });
    expect(ok.mirror_interval).toBe("1h30m0s");
    const row = mirrorRow();
    expect(row.nextUpdateUnix).toBeGreaterThan(row.updatedUnix);
    // The periodic item waiting for the old schedule gave way to one due an interval from now.
    const items = periodic();
    expect(items).toHaveLength(1);
    expect(items[0]!.runAfterMs).toBeLessThan(Date.now() + 91 * 60_000);
    expect(items[0]!.runAfterMs).toBeGreaterThan(Date.now() + 85 * 60_000);
    const short = await target.json("PATCH", "/api/v1/repos/down/proj", { token: downToken, body: { mirror_interval: "1m" } });
    expect(short.status).toBe(422);
    expect(short.body.message).toContain("below Minimum Interval of 10m0s");
    const bad = await target.json("PATCH", "/api/v1/repos/down/proj", { token: downToken, body: { mirror_interval: "soon", description: "x" } });
    expect(bad.status).toBe(422);
    // Refused before anything changed.
    expect((await target.ok("GET", "/api/v1/repos/down/proj", downToken)).description).toBe("");
    const off = await target.ok("PATCH", "/api/v1/repos/down/proj", downToken, { mirror_interval: "0s" });
    expect(off.mirror_interval).toBe("0s");
    expect(mirrorRow().nextUpdateUnix).toBe(0);
    expect(periodic()).toHaveLength(0);

    // A repository that is not a mirror ignores both fields.
    await target.ok("POST", "/api/v1/user/repos", downToken, { name: "plain" }, 201);
    const plain = await target.ok("PATCH", "/api/v1/repos/down/plain", downToken, { mirror_interval: "soon", enable_prune: false });
    expect(plain.mirror_interval).toBe("");
    const notMirror = await target.json("POST", "/api/v1/repos/down/plain/mirror-sync", { token: downToken });
    expect(notMirror.status).toBe(400);
    expect(notMirror.body.message).toBe("Repository is not a mirror");

    // Without pruning, a branch deleted upstream stays.
    await target.ok("PATCH", "/api/v1/repos/down/proj", downToken, { enable_prune: false });
    expect(mirrorRow().enablePrune).toBe(false);
    const tip = await commit("three.txt", "three\n");
    await gitOk(["push", "-q", upstreamUrl, "main", ":keep"], { cwd: work });
    await target.ok("POST", "/api/v1/repos/down/proj/mirror-sync", downToken);
    await until("the synced main", async () => (await target.ok("GET", "/api/v1/repos/down/proj/branches/main", downToken)).commit.id === tip);
    expect(await branchNames()).toContain("keep");

    // Repository lists show the interval too.
    const listed = (await target.ok("GET", "/api/v1/users/down/repos", downToken)) as { name: string; mirror_interval: string }[];
    expect(listed.find((r) => r.name === "proj")?.mirror_interval).toBe("0s");
    expect(listed.find((r) => r.name === "plain")?.mirror_interval).toBe("");
  });

  test("a failing sync records its error without the token", async () => {
    await source.ok("DELETE", "/api/v1/repos/up/proj", upToken, undefined, 204);
    const before = mirrorRow().updatedUnix;
    await target.ok("POST", "/api/v1/repos/down/proj/mirror-sync", downToken);
    await until("the recorded error", () => mirrorRow().lastError !== "");
    const row = mirrorRow();
    expect(row.updatedUnix).toBeGreaterThanOrEqual(before);
    expect(row.lastError).toContain("not found");
    expect(row.lastError).not.toContain(upToken);
    // Nothing moved: the branches are those of the last good sync.
    expect(await branchNames()).toEqual(["feature", "keep", "main"]);
  });

  test("converting the mirror into a normal repository lets pushes in again", async () => {
    const id = getRepoByOwner(target.env.db, down.id, "proj")!.id;
    convertMirrorToNormal(target.env, checkRepoAccess(resolveRepoById(target.env, down, id), down, { owner: true }));
    expect(pullMirrorOf(target.env, id)).toBeUndefined();
    const json = await target.ok("GET", "/api/v1/repos/down/proj", downToken);
    expect(json.mirror).toBe(false);
    expect(json.mirror_interval).toBe("");

    const url = authUrl(target.baseUrl, "down/proj.git", "down", downToken);
    const clone = join(await localRepo("scratch"), "clone");
    await gitOk(["clone", "-q", url, clone]);
    await Bun.write(join(clone, "after.txt"), "after\n");
    await gitOk(["add", "after.txt"], { cwd: clone });
    await gitOk(["commit", "-qm", "after"], { cwd: clone });
    const tip = (await gitOk(["rev-parse", "HEAD"], { cwd: clone })).trim();
    await gitOk(["push", "-q", url, "HEAD:main"], { cwd: clone });
    expect((await target.ok("GET", "/api/v1/repos/down/proj/branches/main", downToken)).commit.id).toBe(tip);
    const sync = await target.json("POST", "/api/v1/repos/down/proj/mirror-sync", { token: downToken });
    expect(sync.status).toBe(400);
  });
});

describe("[mirror] ENABLED = false", () => {
  const off = makeTestApp("[mirror]\nENABLED = false\n");
  test("mirror-sync answers 400", async () => {
    const u = await off.user("someone");
    const token = off.token(u);
    await off.ok("POST", "/api/v1/user/repos", token, { name: "r" }, 201);
    const r = await off.json("POST", "/api/v1/repos/someone/r/mirror-sync", { token });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("Mirror feature is disabled");
  });
});
