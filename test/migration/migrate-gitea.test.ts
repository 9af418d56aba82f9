import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";

/**
 * The `gitea` and `gogs` services end to end: one hearth is the source, filled through its API;
 * another migrates from it over a real socket and is asked through its own API what arrived.
 */

const API = "/api/v1";
// One item per page at the source: every list the downloaders read has to be paged to the end.
const source = makeTestApp("[api]\nMAX_RESPONSE_ITEMS = 1\nDEFAULT_PAGING_NUM = 1\n", { listen: true });
const target = makeTestApp("[migrations]\nALLOW_LOCALNETWORKS = true\n", { listen: true });

const alice = await source.user("alice");
const bob = await source.user("bob");
const aliceToken = source.token(alice);
const bobToken = source.token(bob);
const carol = await target.user("carol");
const carolToken = target.token(carol);

const repoApi = `${API}/repos/alice/proj`;
const onSource = (method: string, path: string, body?: unknown, status = 201, token = aliceToken) =>
  source.ok(method, `${repoApi}${path}`, token, body, status);
const onTarget = (path: string) => target.ok("GET", `${API}/repos/carol/${path}`, carolToken);

const assetBytes = crypto.getRandomValues(new Uint8Array(3000));

/** alice/proj on the source: two branches' worth of pull requests, issues with everything they can carry, a release with a file. */
async function populate() {
  await source.ok("POST", `${API}/user/repos`, aliceToken, { name: "proj", auto_init: true, default_branch: "main", description: "the project" }, 201);
  await onSource("PUT", "/collaborators/bob", { permission: "write" }, 204);
  await onSource("PUT", "/topics", { topics: ["hearth", "migration"] }, 204);

  await onSource("POST", "/contents/feature.txt", { content: btoa("feature\n"), new_branch: "feature", message: "feature" });
  await onSource("POST", "/contents/wip.txt", { content: btoa("one\ntwo\nthree\n"), new_branch: "wip", message: "wip" });

  const bug = await onSource("POST", "/labels", { name: "bug", color: "#ee0701", description: "broken" });
  await onSource("POST", "/labels", { name: "feature", color: "#00aabb" });
  const v1 = await onSource("POST", "/milestones", { title: "v1", description: "first", due_on: "2030-01-02T03:04:05Z" });
  const v0 = await onSource("POST", "/milestones", { title: "v0" });
  await onSource("PATCH", `/milestones/${v0.id}`, { state: "closed" }, 200);

  const first = await onSource("POST", "/issues", { title: "first bug", body: "it breaks", labels: [bug.id], milestone: v1.id, assignees: ["bob"] });
  await onSource("POST", `/issues/${first.number}/reactions`, { content: "+1" }, 201);
  await onSource("POST", `/issues/${first.number}/reactions`, { content: "heart" }, 201, bobToken);
  const repro = await onSource("POST", `/issues/${first.number}/comments`, { body: "I can reproduce it" }, 201, bobToken);
  await onSource("POST", `/issues/comments/${repro.id}/reactions`, { content: "laugh" }, 201);
  await onSource("POST", `/issues/${first.number}/comments`, { body: "fixed now" });
  await onSource("PATCH", `/issues/${first.number}`, { state: "closed" }, 201);
  await onSource("POST", "/issues", { title: "open question", body: "why?" }, 201, bobToken);

  const merged = await onSource("POST", "/pulls", { head: "feature", base: "main", title: "add the feature", body: "please" });
  await onSource("POST", `/pulls/${merged.number}/merge`, { Do: "merge" }, 200);
  const open = await onSource("POST", "/pulls", { head: "wip", base: "main", title: "work in progress", labels: [bug.id] }, 201, bobToken);
  await onSource("POST", `/pulls/${open.number}/reviews`, {
    event: "COMMENT",
    body: "a few notes",
    comments: [{ path: "wip.txt", new_position: 2, body: "is two right?" }],
  }, 200);

  const release = await onSource("POST", "/releases", { tag_name: "v1.0", target_commitish: "main", name: "First", body: "notes" });
  const form = new FormData();
  form.append("attachment", new Blob([assetBytes]), "notes.bin");
  const up = await source.request("POST", `${repoApi}/releases/${release.id}/assets?name=notes.bin`, { token: aliceToken, body: form });
  expect(up.status).toBe(201);
  return { merged: merged.number as number, open: open.number as number };
}

const pulls = await populate();
const sourceHead = async (branch: string) => (await onSource("GET", `/branches/${branch}`, undefined, 200)).commit.id as string;

const migrate = (body: Record<string, unknown>) =>
  target.json("POST", `${API}/repos/migrate`, {
    token: carolToken,
    body: { clone_addr: `${source.baseUrl}alice/proj`, service: "gitea", ...body },
  });

/** Nothing of a failed migration is left in the target's data directory. */
const leftoverDumps = () => {
  const dir = join(target.settings.server.appDataPath, "tmp", "migrate");
  return existsSync(dir) ? readdirSync(dir) : [];
};

describe("POST /repos/migrate from another Gitea-API server", () => {
  test("issues, pull requests, labels, milestones, releases and topics move in one call", async () => {
    const r = await migrate({
      repo_name: "proj",
      auth_token: aliceToken,
      issues: true,
      labels: true,
      milestones: true,
      pull_requests: true,
      releases: true,
    });
    expect({ status: r.status, body: r.status === 201 ? undefined : r.body }).toEqual({ status: 201, body: undefined });
    expect(r.body.full_name).toBe("carol/proj");
    expect(r.body.mirror).toBe(false);
    expect(r.body.original_url).toBe(`${source.baseUrl}alice/proj`);

    const branches = (await onTarget("proj/branches")).map((b: { name: string }) => b.name).sort();
    expect(branches).toEqual(["feature", "main", "wip"]);
    const tags = (await onTarget("proj/tags")).map((t: { name: string }) => t.name);
    expect(tags).toEqual(["v1.0"]);
    expect((await onTarget("proj/topics")).topics.sort()).toEqual(["hearth", "migration"]);

    const labels = await onTarget("proj/labels");
    expect(labels.map((l: { name: string; color: string }) => [l.name, l.color]).sort()).toEqual([
      ["bug", "ee0701"],
      ["feature", "00aabb"],
    ]);
    const milestones = await onTarget("proj/milestones?state=all");
    expect(milestones.map((m: { title: string; state: string }) => [m.title, m.state]).sort()).toEqual([
      ["v0", "closed"],
      ["v1", "open"],
    ]);
    expect(milestones.find((m: { title: string }) => m.title === "v1").due_on).toStartWith("2030-01-02T03:04:05");

    const issues = await onTarget("proj/issues?state=all&type=issues");
    const byNumber = new Map(issues.map((i: { number: number }) => [i.number, i]));
    expect([...byNumber.keys()].sort()).toEqual([1, 2]);
    const first = byNumber.get(1) as any;
    expect([first.title, first.body, first.state, first.original_author]).toEqual(["first bug", "it breaks", "closed", "alice"]);
    expect(first.labels.map((l: { name: string }) => l.name)).toEqual(["bug"]);
    expect(first.milestone.title).toBe("v1");
    const second = byNumber.get(2) as any;
    expect([second.title, second.state, second.original_author]).toEqual(["open question", "open", "bob"]);

    const reactions = await onTarget("proj/issues/1/reactions");
    expect(reactions.map((x: { content: string }) => x.content).sort()).toEqual(["+1", "heart"]);
    const comments = await onTarget("proj/issues/1/comments");
    expect(comments.map((c: { body: string; original_author: string }) => [c.body, c.original_author])).toEqual([
      ["I can reproduce it", "bob"],
      ["fixed now", "alice"],
    ]);
    const commentReactions = await onTarget(`proj/issues/comments/${comments[0].id}/reactions`);
    expect(commentReactions.map((x: { content: string }) => x.content)).toEqual(["laugh"]);

    const merged = await onTarget(`proj/pulls/${pulls.merged}`);
    expect([merged.title, merged.state, merged.merged, merged.base.ref]).toEqual(["add the feature", "closed", true, "main"]);
    const sourceMerged = await onSource("GET", `/pulls/${pulls.merged}`, undefined, 200);
    expect([merged.merge_commit_sha, merged.head.sha]).toEqual([sourceMerged.merge_commit_sha, sourceMerged.head.sha]);
    expect(merged.merge_commit_sha).toBe(await sourceHead("main"));
    const open = await onTarget(`proj/pulls/${pulls.open}`);
    expect([open.title, open.state, open.merged, open.head.ref]).toEqual(["work in progress", "open", false, "wip"]);
    expect(open.head.sha).toBe(await sourceHead("wip"));
    expect(open.labels.map((l: { name: string }) => l.name)).toEqual(["bug"]);

    const reviews = await onTarget(`proj/pulls/${pulls.open}/reviews`);
    expect(reviews.map((x: { state: string; body: string }) => [x.state, x.body])).toEqual([["COMMENT", "a few notes"]]);
    const codeComments = await onTarget(`proj/pulls/${pulls.open}/reviews/${reviews[0].id}/comments`);
    expect(codeComments.map((c: { path: string; body: string; position: number }) => [c.path, c.body, c.position])).toEqual([
      ["wip.txt", "is two right?", 2],
    ]);

    const release = await onTarget("proj/releases/tags/v1.0");
    expect([release.name, release.body]).toEqual(["First", "notes"]);
    expect(release.assets.map((a: { name: string; size: number }) => [a.name, a.size])).toEqual([["notes.bin", assetBytes.length]]);
    const download = await fetch(release.assets[0].browser_download_url, { headers: { Authorization: `token ${carolToken}` } });
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(assetBytes);
  });

  test("a mirror carries the git data and none of the issues", async () => {
    const r = await migrate({ repo_name: "proj-mirror", mirror: true, issues: true, labels: true, pull_requests: true });
    expect(r.status).toBe(201);
    expect(r.body.mirror).toBe(true);
    const branches = (await onTarget("proj-mirror/branches")).map((b: { name: string }) => b.name).sort();
    expect(branches).toEqual(["feature", "main", "wip"]);
    const issues = await target.json("GET", `${API}/repos/carol/proj-mirror/issues?state=all`, { token: carolToken });
    expect(issues.status === 200 ? issues.body : []).toEqual([]);
    expect(await onTarget("proj-mirror/labels")).toEqual([]);
  });

  test("a private source repository needs the token; without it nothing is left behind", async () => {
    await source.ok("POST", `${API}/user/repos`, aliceToken, { name: "secret", auto_init: true, private: true }, 201);
    await source.ok("POST", `${API}/repos/alice/secret/issues`, aliceToken, { title: "hidden" }, 201);
    const release = await source.ok("POST", `${API}/repos/alice/secret/releases`, aliceToken, { tag_name: "s1", target_commitish: "main", name: "s1" }, 201);
    const form = new FormData();
    form.append("attachment", new Blob([assetBytes]), "private.bin");
    const up = await source.request("POST", `${API}/repos/alice/secret/releases/${release.id}/assets`, { token: aliceToken, body: form });
    expect(up.status).toBe(201);
    const addr = `${source.baseUrl}alice/secret`;

    const refused = await target.json("POST", `${API}/repos/migrate`, {
      token: carolToken,
      body: { clone_addr: addr, service: "gitea", repo_name: "secret", issues: true },
    });
    expect(refused.status).toBe(422);
    expect((await target.json("GET", `${API}/repos/carol/secret`, { token: carolToken })).status).toBe(404);
    expect(leftoverDumps()).toEqual([]);

    const r = await target.json("POST", `${API}/repos/migrate`, {
      token: carolToken,
      body: { clone_addr: addr, service: "gitea", repo_name: "secret", issues: true, releases: true, auth_token: aliceToken },
    });
    expect(r.status).toBe(201);
    const issues = await onTarget("secret/issues?state=all");
    expect(issues.map((i: { title: string }) => i.title)).toEqual(["hidden"]);
    // The private release's file came with the token.
    const asset = (await onTarget("secret/releases/tags/s1")).assets[0];
    const download = await fetch(asset.browser_download_url, { headers: { Authorization: `token ${carolToken}` } });
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(assetBytes);

    // Gogs signs git in with the token as the user name: the private repository comes over that way too.
    const gogs = await target.json("POST", `${API}/repos/migrate`, {
      token: carolToken,
      body: { clone_addr: addr, service: "gogs", repo_name: "secret-gogs", issues: true, auth_token: aliceToken },
    });
    expect(gogs.status).toBe(201);
    expect((await onTarget("secret-gogs/issues?state=all")).map((i: { title: string }) => i.title)).toEqual(["hidden"]);
    expect((await onTarget("secret-gogs/branches")).map((b: { name: string }) => b.name)).toEqual(["main"]);
  });

  test("the gogs service brings issues, labels, milestones and comments", async () => {
    const r = await target.json("POST", `${API}/repos/migrate`, {
      token: carolToken,
      body: {
        clone_addr: `${source.baseUrl}alice/proj.git`,
        service: "gogs",
        repo_name: "proj-gogs",
        issues: true,
        labels: true,
        milestones: true,
        pull_requests: true,
        releases: true,
      },
    });
    expect({ status: r.status, body: r.status === 201 ? undefined : r.body }).toEqual({ status: 201, body: undefined });
    const issues = await onTarget("proj-gogs/issues?state=all");
    expect(issues.map((i: { number: number; title: string; state: string }) => [i.number, i.title, i.state]).sort()).toEqual([
      [1, "first bug", "closed"],
      [2, "open question", "open"],
    ]);
    expect(issues.find((i: { number: number }) => i.number === 1).labels.map((l: { name: string }) => l.name)).toEqual(["bug"]);
    const milestones = await onTarget("proj-gogs/milestones?state=all");
    expect(milestones.map((m: { title: string; state: string }) => [m.title, m.state]).sort()).toEqual([
      ["v0", "closed"],
      ["v1", "open"],
    ]);
    expect((await onTarget("proj-gogs/labels")).map((l: { name: string }) => l.name).sort()).toEqual(["bug", "feature"]);
    const comments = await onTarget("proj-gogs/issues/1/comments");
    expect(comments.map((c: { body: string; original_author: string }) => [c.body, c.original_author])).toEqual([
      ["I can reproduce it", "bob"],
      ["fixed now", "alice"],
    ]);
    // Gogs' API has neither pull requests nor releases.
    expect(await onTarget("proj-gogs/pulls?state=all")).toEqual([]);
    expect(await onTarget("proj-gogs/releases")).toEqual([]);
  });
});
