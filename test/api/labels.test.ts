import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { Label } from "../../src/shapes/label.ts";
import { comments, CommentType, issues, labels } from "../../src/db/schema/index.ts";

const t = makeTestApp();
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);
const carol = await t.user("carol");
const carolToken = t.token(carol);
const dave = await t.user("dave");
const daveToken = t.token(dave);

const ok = t.ok.bind(t);

await ok("POST", "/api/v1/user/repos", aliceToken, { name: "proj" }, 201);
await ok("POST", "/api/v1/user/repos", aliceToken, { name: "other" }, 201);
await ok("POST", "/api/v1/user/repos", aliceToken, { name: "secret", private: true }, 201);
await ok("PUT", "/api/v1/repos/alice/proj/collaborators/carol", aliceToken, { permission: "write" }, 204);
const repoApi = "/api/v1/repos/alice/proj";
const base = `${repoApi}/labels`;

const labelRow = (id: number) => t.env.db.select().from(labels).where(eq(labels.id, id)).get();

type L = { id: number; name: string; color: string };
const names = (list: L[]) => list.map((l) => l.name);

async function label(name: string, opts: Record<string, unknown> = {}, path = base, token = aliceToken): Promise<L> {
  return ok("POST", path, token, { name, color: "#00aabb", ...opts }, 201);
}

async function issue(title: string, labelIds: number[] = [], path = repoApi): Promise<number> {
  return (await ok("POST", `${path}/issues`, aliceToken, { title, labels: labelIds }, 201)).number;
}

async function issueLabels(index: number, path = repoApi): Promise<string[]> {
  return names(await ok("GET", `${path}/issues/${index}/labels`, undefined));
}

describe("repository labels", () => {
  test("create: 201 with Gitea's Label JSON; the color normalized and shown without '#'", async () => {
    const r = await t.json("POST", base, { token: aliceToken, body: { name: "bug", color: "#EE0701", description: "broken" } });
    expect(r.status).toBe(201);
    expectShape(r.body, Label);
    expect(r.body).toEqual({
      id: r.body.id,
      name: "bug",
      exclusive: false,
      is_archived: false,
      color: "ee0701",
      description: "broken",
      url: `http://hearth.test/api/v1/repos/alice/proj/labels/${r.body.id}`,
    });
    expect(labelRow(r.body.id)!.color).toBe("#ee0701");
    expect((await label("short", { color: "f0A" })).color).toBe("ff00aa");
    expect((await label("bare", { color: " 123ABC " })).color).toBe("123abc");
  });

  test("bad input: missing name or color, or a color that is not 3 or 6 hex digits, is a 422", async () => {
    const bad = async (body: unknown, message: string) => {
      const r = await t.json("POST", base, { token: aliceToken, body });
      expect({ status: r.status, message: r.body.message }).toEqual({ status: 422, message });
    };
    await bad({ color: "#ffffff" }, "[Name]: Required");
    await bad({ name: "", color: "#ffffff" }, "[Name]: Required");
    await bad({ name: "x" }, "[Color]: Required");
    await bad({ name: "x", color: "#ggg" }, "invalid color: #ggg");
    await bad({ name: "x", color: "ff00" }, "invalid color: ff00");
    await bad({ name: "x", color: "#ff00000" }, "invalid color: #ff00000");
  });

  test("who may: writers of issues create, edit and delete; readers get 403, anonymous 401", async () => {
    const denied = await t.json("POST", base, { token: bobToken, body: { name: "nope", color: "fff" } });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe("user should have a permission to write to a repo");
    expect((await t.json("POST", base, { body: { name: "nope", color: "fff" } })).status).toBe(401);
    const byCarol = await label("carols", {}, base, carolToken);
    expect((await t.json("PATCH", `${base}/${byCarol.id}`, { token: bobToken, body: { name: "x" } })).status).toBe(403);
    expect((await t.json("DELETE", `${base}/${byCarol.id}`, { token: bobToken })).status).toBe(403);
    expect((await t.json("DELETE", `${base}/${byCarol.id}`)).status).toBe(401);
    expect((await t.json("DELETE", `${base}/${byCarol.id}`, { token: carolToken })).status).toBe(204);
    const readOnly = t.token(alice, ["read:issue"]);
    expect((await t.json("POST", base, { token: readOnly, body: { name: "x", color: "fff" } })).status).toBe(403);
  });

  test("reading needs read access to the tracker: anonymous reads a public repository, a private one is 404", async () => {
    const list = await t.json("GET", base);
    expect(list.status).toBe(200);
    expect((await t.json("GET", "/api/v1/repos/alice/secret/labels", { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/repos/alice/secret/labels", { token: aliceToken })).status).toBe(200);
  });

  test("list: by name, all of them without a page, X-Total-Count, Gitea's sort values, pages when asked", async () => {
    const r = await t.json("GET", base);
    expect(names(r.body)).toEqual(["bare", "bug", "short"]);
    expect(r.headers.get("x-total-count")).toBe("3");
    for (const l of r.body) expectShape(l, Label);
    expect(names((await t.json("GET", `${base}?sort=reversealphabetically`)).body)).toEqual(["short", "bug", "bare"]);
    const paged = await t.json("GET", `${base}?page=2&limit=1`);
    expect(names(paged.body)).toEqual(["bug"]);
    expect(paged.headers.get("x-total-count")).toBe("3");
    const bug = r.body.find((l: L) => l.name === "bug");
    await issue("with bug", [bug.id]);
    expect(names((await t.json("GET", `${base}?sort=mostissues`)).body)[0]).toBe("bug");
    expect(names((await t.json("GET", `${base}?sort=leastissues`)).body).at(-1)).toBe("bug");
  });

  test("get by id or by name; another repository's label is a 404 everywhere", async () => {
    const mine = await label("get me");
    expect((await ok("GET", `${base}/${mine.id}`, undefined)).name).toBe("get me");
    expect((await ok("GET", `${base}/${encodeURIComponent("get me")}`, undefined)).id).toBe(mine.id);
    const foreign = await label("theirs", {}, "/api/v1/repos/alice/other/labels");
    for (const [method, body] of [["GET"], ["PATCH", { name: "stolen" }], ["DELETE"]] as const) {
      expect((await t.json(method, `${base}/${foreign.id}`, { token: aliceToken, body })).status).toBe(404);
    }
    expect(labelRow(foreign.id)!.name).toBe("theirs");
    expect((await t.json("GET", `${base}/99999`)).status).toBe(404);
    expect((await t.json("GET", `${base}/nosuch`)).status).toBe(404);
    expect((await t.json("PATCH", `${base}/abc`, { token: aliceToken, body: {} })).status).toBe(404);
  });

  test("edit changes only what is given; archiving stores its time and keeps it while archived", async () => {
    const l = await label("editable");
    const r = await t.json("PATCH", `${base}/${l.id}`, {
      token: aliceToken,
      body: { name: "edited", color: "ABC", description: "now", exclusive: true },
    });
    expect(r.status).toBe(200);
    expectShape(r.body, Label);
    expect(r.body).toMatchObject({ name: "edited", color: "aabbcc", description: "now", exclusive: true, is_archived: false });
    const archived = await ok("PATCH", `${base}/${l.id}`, aliceToken, { is_archived: true });
    expect(archived).toMatchObject({ name: "edited", is_archived: true });
    const at = labelRow(l.id)!.archivedUnix;
    expect(at).toBeGreaterThan(0);
    t.env.db.update(labels).set({ archivedUnix: 1000 }).where(eq(labels.id, l.id)).run();
    expect((await ok("PATCH", `${base}/${l.id}`, aliceToken, { is_archived: true })).is_archived).toBe(true);
    expect(labelRow(l.id)!.archivedUnix).toBe(1000);
    expect((await ok("PATCH", `${base}/${l.id}`, aliceToken, { description: "still archived" })).is_archived).toBe(true);
    expect((await ok("PATCH", `${base}/${l.id}`, aliceToken, { is_archived: false })).is_archived).toBe(false);
    expect(labelRow(l.id)!.archivedUnix).toBe(0);
    const created = await label("born archived", { is_archived: true, exclusive: true });
    expect(created).toMatchObject({ is_archived: true, exclusive: true });
    expect(labelRow(created.id)!.archivedUnix).toBeGreaterThan(0);
  });

  test("edit: a bad color or an empty name is a 422 and changes nothing", async () => {
    const l = await label("stable");
    const color = await t.json("PATCH", `${base}/${l.id}`, { token: aliceToken, body: { name: "moved", color: "#1234" } });
    expect({ status: color.status, message: color.body.message }).toEqual({ status: 422, message: "invalid color: #1234" });
    const empty = await t.json("PATCH", `${base}/${l.id}`, { token: aliceToken, body: { name: "" } });
    expect(empty.status).toBe(422);
    expect(labelRow(l.id)!.name).toBe("stable");
  });

  test("delete takes the label off its issues, drops its events and answers 404 the second time", async () => {
    const doomed = await label("doomed");
    const kept = await label("kept");
    const n = await issue("labelled", [doomed.id, kept.id]);
    expect(await issueLabels(n)).toEqual(["doomed", "kept"]);
    expect(t.env.db.select().from(comments).where(eq(comments.labelId, doomed.id)).all().length).toBe(1);
    expect((await t.json("DELETE", `${base}/${doomed.id}`, { token: aliceToken })).status).toBe(204);
    expect(await issueLabels(n)).toEqual(["kept"]);
    expect((await ok("GET", `${repoApi}/issues/${n}`, undefined)).labels.map((l: L) => l.name)).toEqual(["kept"]);
    expect(t.env.db.select().from(comments).where(eq(comments.labelId, doomed.id)).all()).toEqual([]);
    expect(labelRow(doomed.id)).toBeUndefined();
    expect((await t.json("DELETE", `${base}/${doomed.id}`, { token: aliceToken })).status).toBe(404);
  });
});

describe("labels on an issue", () => {
  test("add by ids or by names answers the issue's labels; unknown and foreign labels are dropped silently", async () => {
    const a = await label("area/api");
    const b = await label("area/ui");
    const foreign = await label("foreign", {}, "/api/v1/repos/alice/other/labels");
    const n = await issue("plain");
    const added = await t.json("POST", `${repoApi}/issues/${n}/labels`, { token: aliceToken, body: { labels: [a.id, 99999, foreign.id] } });
    expect(added.status).toBe(200);
    for (const l of added.body) expectShape(l, Label);
    expect(names(added.body)).toEqual(["area/api"]);
    expect(added.body[0].url).toBe(`http://hearth.test/api/v1/repos/alice/proj/labels/${a.id}`);
    expect(names(await ok("POST", `${repoApi}/issues/${n}/labels`, aliceToken, { labels: ["area/ui", "nosuch", "foreign"] }))).toEqual([
      "area/api",
      "area/ui",
    ]);
    expect(await issueLabels(n)).toEqual(["area/api", "area/ui"]);
    expect(names(await ok("POST", `${repoApi}/issues/${n}/labels`, aliceToken, { labels: [b.id] }))).toEqual(["area/api", "area/ui"]);
    expect(names(await ok("POST", `${repoApi}/issues/${n}/labels`, aliceToken, {}))).toEqual(["area/api", "area/ui"]);
  });

  test("bad input: ids mixed with names or other values are 400; unknown issue 404; non-writers 403; anonymous 401", async () => {
    const n = await issue("strict");
    const path = `${repoApi}/issues/${n}/labels`;
    const mixed = await t.json("POST", path, { token: aliceToken, body: { labels: [1, "bug"] } });
    expect({ status: mixed.status, message: mixed.body.message }).toEqual({ status: 400, message: "labels should be an array of strings or integers" });
    const other = await t.json("PUT", path, { token: aliceToken, body: { labels: [true] } });
    expect({ status: other.status, message: other.body.message }).toEqual({ status: 400, message: "a label must be an integer or a string" });
    expect((await t.json("POST", path, { token: aliceToken, body: { labels: "bug" } })).status).toBe(422);
    expect((await t.json("POST", `${repoApi}/issues/999/labels`, { token: aliceToken, body: { labels: [] } })).status).toBe(404);
    const reader = await t.json("POST", path, { token: bobToken, body: { labels: [] } });
    expect({ status: reader.status, message: reader.body.message }).toEqual({ status: 403, message: "write permission is required" });
    expect((await t.json("PUT", path, { token: bobToken, body: { labels: [] } })).status).toBe(403);
    expect((await t.json("DELETE", path, { token: bobToken })).status).toBe(403);
    expect((await t.json("DELETE", `${path}/1`, { token: bobToken })).status).toBe(403);
    expect((await t.json("POST", path, { body: { labels: [] } })).status).toBe(401);
    expect((await t.json("GET", `${repoApi}/issues/999/labels`)).status).toBe(404);
  });

  test("replace, remove one and clear; label events and counts follow", async () => {
    const x = await label("x-one");
    const y = await label("x-two");
    const n = await issue("replace me", [x.id]);
    const path = `${repoApi}/issues/${n}/labels`;
    const id = (await ok("GET", `${repoApi}/issues/${n}`, undefined)).id;
    t.env.db.update(issues).set({ updatedUnix: 1000 }).where(eq(issues.id, id)).run();
    expect(names(await ok("PUT", path, carolToken, { labels: [y.id] }))).toEqual(["x-two"]);
    // As in Gitea, a label event moves the issue's updated time.
    expect(t.env.db.select().from(issues).where(eq(issues.id, id)).get()!.updatedUnix).toBeGreaterThan(1000);
    expect(labelRow(x.id)!.numIssues).toBe(0);
    expect(labelRow(y.id)!.numIssues).toBe(1);
    expect(names(await ok("PUT", path, carolToken, { labels: ["x-one", "x-two"] }))).toEqual(["x-one", "x-two"]);
    await ok("PATCH", `${repoApi}/issues/${n}`, aliceToken, { state: "closed" }, 201);
    expect(labelRow(x.id)).toMatchObject({ numIssues: 1, numClosedIssues: 1 });
    expect((await t.json("DELETE", `${path}/${x.id}`, { token: carolToken })).status).toBe(204);
    expect(await issueLabels(n)).toEqual(["x-two"]);
    expect(labelRow(x.id)).toMatchObject({ numIssues: 0, numClosedIssues: 0 });
    // A label the issue does not carry: nothing changes.
    expect((await t.json("DELETE", `${path}/${x.id}`, { token: carolToken })).status).toBe(204);
    const unknown = await t.json("DELETE", `${path}/99999`, { token: carolToken });
    expect({ status: unknown.status, message: unknown.body.message }).toEqual({ status: 422, message: "label does not exist [label_id: 99999]" });
    const foreign = await label("far away", {}, "/api/v1/repos/alice/other/labels");
    expect((await t.json("DELETE", `${path}/${foreign.id}`, { token: carolToken })).status).toBe(422);
    expect((await t.json("DELETE", `${path}/abc`, { token: carolToken })).status).toBe(422);
    expect((await t.json("DELETE", path, { token: carolToken })).status).toBe(204);
    expect(await issueLabels(n)).toEqual([]);
    expect(labelRow(y.id)).toMatchObject({ numIssues: 0, numClosedIssues: 0 });
    const events = t.env.db.select().from(comments).where(eq(comments.type, CommentType.Label)).all().filter((c) => c.labelId === y.id);
    // added (PUT), removed (DELETE all): "1" marks an addition, "" a removal.
    expect(events.map((e) => e.content)).toEqual(["1", ""]);
    expect(events.at(-1)!.posterId).toBe(carol.id);
  });
});

describe("exclusive labels: one per scope on an issue", () => {
  // Created so that id order and name order differ: the winner follows the names.
  let low: L, high: L, mid: L, kindA: L, kindB: L;
  test("setup", async () => {
    low = await label("prio/low", { exclusive: true });
    high = await label("prio/high", { exclusive: true });
    mid = await label("prio/mid", { exclusive: true });
    kindA = await label("kind/a");
    kindB = await label("kind/b");
    expect(high.id).toBeGreaterThan(low.id);
  });

  test("create with two of one scope keeps the last by name, whatever the order given", async () => {
    expect(await issueLabels(await issue("both", [high.id, low.id]))).toEqual(["prio/low"]);
    expect(await issueLabels(await issue("both reversed", [low.id, high.id]))).toEqual(["prio/low"]);
    expect(await issueLabels(await issue("three", [mid.id, high.id, low.id]))).toEqual(["prio/mid"]);
  });

  test("add one when another of its scope is there: the new one replaces it", async () => {
    const lowCount = labelRow(low.id)!.numIssues;
    const n = await issue("has high", [high.id]);
    const path = `${repoApi}/issues/${n}/labels`;
    expect(names(await ok("POST", path, aliceToken, { labels: [low.id] }))).toEqual(["prio/low"]);
    expect(names(await ok("POST", path, aliceToken, { labels: ["prio/high"] }))).toEqual(["prio/high"]);
    expect(labelRow(low.id)!.numIssues).toBe(lowCount);
    // Gitea's order of events: the scope's label comes off ("") before the new one goes on ("1").
    const id = (await ok("GET", `${repoApi}/issues/${n}`, undefined)).id;
    const events = t.env.db.select().from(comments).where(eq(comments.issueId, id)).all();
    expect(events.map((e) => [e.type, e.labelId, e.content])).toEqual([
      [CommentType.Label, high.id, "1"],
      [CommentType.Label, high.id, ""],
      [CommentType.Label, low.id, "1"],
      [CommentType.Label, low.id, ""],
      [CommentType.Label, high.id, "1"],
    ]);
  });

  test("add two of one scope at once: the last by name stays", async () => {
    const n = await issue("empty");
    expect(names(await ok("POST", `${repoApi}/issues/${n}/labels`, aliceToken, { labels: [low.id, high.id] }))).toEqual(["prio/low"]);
    const m = await issue("empty too");
    expect(names(await ok("POST", `${repoApi}/issues/${m}/labels`, aliceToken, { labels: ["prio/low", "prio/high"] }))).toEqual([
      "prio/low",
    ]);
  });

  test("replace with two of one scope keeps the last by name and drops the scope's current label", async () => {
    const highCount = labelRow(high.id)!.numIssues;
    const n = await issue("has mid", [mid.id, kindA.id]);
    const path = `${repoApi}/issues/${n}/labels`;
    expect(names(await ok("PUT", path, aliceToken, { labels: [high.id, low.id, kindA.id] }))).toEqual(["kind/a", "prio/low"]);
    expect(names(await ok("PUT", path, aliceToken, { labels: [high.id] }))).toEqual(["prio/high"]);
    expect(names(await ok("PUT", path, aliceToken, { labels: [mid.id, high.id] }))).toEqual(["prio/mid"]);
    expect(labelRow(high.id)!.numIssues).toBe(highCount);
  });

  test("labels that are not exclusive, or have no scope, are never taken off", async () => {
    const n = await issue("kinds", [kindA.id, kindB.id]);
    expect(await issueLabels(n)).toEqual(["kind/a", "kind/b"]);
    const edge1 = await label("/lead", { exclusive: true });
    const edge2 = await label("trail/", { exclusive: true });
    const edge3 = await label("noscope", { exclusive: true });
    const nested1 = await label("a/b/c", { exclusive: true });
    const nested2 = await label("a/b/d", { exclusive: true });
    const other = await label("a/e", { exclusive: true });
    const plain = await label("prio/none");
    const m = await issue("edges", [edge1.id, edge2.id, edge3.id, nested1.id, nested2.id, other.id, plain.id, high.id]);
    expect(await issueLabels(m)).toEqual(["/lead", "a/b/d", "a/e", "noscope", "prio/high", "prio/none", "trail/"]);
  });
});

await ok("POST", "/api/v1/orgs", aliceToken, { username: "acme" }, 201);
await ok("POST", "/api/v1/orgs", aliceToken, { username: "hidden", visibility: "private" }, 201);
await ok("POST", "/api/v1/orgs/acme/repos", aliceToken, { name: "tools" }, 201);
const team = await ok("POST", "/api/v1/orgs/acme/teams", aliceToken, { name: "devs", permission: "write", units: ["repo.issues", "repo.code"], includes_all_repositories: true }, 201);
await ok("PUT", `/api/v1/teams/${team.id}/members/dave`, aliceToken, undefined, 204);
const orgBase = "/api/v1/orgs/acme/labels";
const toolsApi = "/api/v1/repos/acme/tools";

describe("organization labels", () => {

  test("owners create, edit and delete; members get 403, anonymous 401; urls are the organization's", async () => {
    const r = await t.json("POST", orgBase, { token: aliceToken, body: { name: "org/one", color: "#111111", exclusive: true } });
    expect(r.status).toBe(201);
    expectShape(r.body, Label);
    expect(r.body).toMatchObject({ name: "org/one", color: "111111", exclusive: true });
    expect(r.body.url).toBe(`http://hearth.test/api/v1/orgs/acme/labels/${r.body.id}`);
    const denied = await t.json("POST", orgBase, { token: daveToken, body: { name: "x", color: "fff" } });
    expect({ status: denied.status, message: denied.body.message }).toEqual({ status: 403, message: "Must be an organization owner" });
    expect((await t.json("POST", orgBase, { body: { name: "x", color: "fff" } })).status).toBe(401);
    expect((await t.json("POST", orgBase, { token: aliceToken, body: { name: "x", color: "nope" } })).status).toBe(422);
    expect((await t.json("PATCH", `${orgBase}/${r.body.id}`, { token: daveToken, body: { name: "x" } })).status).toBe(403);
    expect((await ok("PATCH", `${orgBase}/${r.body.id}`, aliceToken, { description: "d" })).description).toBe("d");
    expect((await t.json("DELETE", `${orgBase}/${r.body.id}`, { token: daveToken })).status).toBe(403);
    expect((await t.json("DELETE", `${orgBase}/${r.body.id}`, { token: aliceToken })).status).toBe(204);
    expect((await t.json("DELETE", `${orgBase}/${r.body.id}`, { token: aliceToken })).status).toBe(404);
  });

  test("list without a token; get needs one; a repository's label is not the organization's; a private organization is 404", async () => {
    const l = await label("org-bug", {}, orgBase);
    const list = await t.json("GET", orgBase);
    expect(list.status).toBe(200);
    expect(names(list.body)).toContain("org-bug");
    expect(list.headers.get("x-total-count")).toBe(String(list.body.length));
    expect((await t.json("GET", `${orgBase}/${l.id}`)).status).toBe(401);
    expect((await ok("GET", `${orgBase}/${l.id}`, daveToken)).name).toBe("org-bug");
    expect((await ok("GET", `${orgBase}/org-bug`, daveToken)).id).toBe(l.id);
    const repoLabel = await label("repo-only", {}, `${toolsApi}/labels`);
    expect((await t.json("GET", `${orgBase}/${repoLabel.id}`, { token: aliceToken })).status).toBe(404);
    expect((await t.json("GET", `${toolsApi}/labels/${l.id}`)).status).toBe(404);
    expect(names((await t.json("GET", `${toolsApi}/labels`)).body)).toEqual(["repo-only"]);
    await label("secret-label", {}, "/api/v1/orgs/hidden/labels");
    expect((await t.json("GET", "/api/v1/orgs/hidden/labels", { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", "/api/v1/orgs/hidden/labels")).status).toBe(404);
    expect(names((await ok("GET", "/api/v1/orgs/hidden/labels", aliceToken)))).toEqual(["secret-label"]);
  });

  test("an organization's labels go on its repositories' issues (by id or name), not on others'", async () => {
    const orgLabel = await label("org-wide", {}, orgBase);
    const n = await issue("org issue", [orgLabel.id], toolsApi);
    const got = await ok("GET", `${toolsApi}/issues/${n}/labels`, undefined);
    expect(names(got)).toEqual(["org-wide"]);
    expect(got[0].url).toBe(`http://hearth.test/api/v1/orgs/acme/labels/${orgLabel.id}`);
    const m = await issue("by name", [], toolsApi);
    expect(names(await ok("POST", `${toolsApi}/issues/${m}/labels`, daveToken, { labels: ["org-wide", "repo-only"] }))).toEqual([
      "org-wide",
      "repo-only",
    ]);
    const mine = await issue("user repo", [orgLabel.id]);
    expect(await issueLabels(mine)).toEqual([]);
    expect(names(await ok("POST", `${repoApi}/issues/${mine}/labels`, aliceToken, { labels: ["org-wide"] }))).toEqual([]);
  });

  test("exclusive scopes span the organization's and the repository's labels", async () => {
    const orgSev = await label("sev/major", { exclusive: true }, orgBase);
    const repoSev = await label("sev/minor", { exclusive: true }, `${toolsApi}/labels`);
    const n = await issue("severity", [orgSev.id], toolsApi);
    expect(names(await ok("POST", `${toolsApi}/issues/${n}/labels`, aliceToken, { labels: [repoSev.id] }))).toEqual(["sev/minor"]);
    expect(names(await ok("PUT", `${toolsApi}/issues/${n}/labels`, aliceToken, { labels: [repoSev.id, orgSev.id] }))).toEqual([
      "sev/minor",
    ]);
  });

  test("deleting a repository deletes its labels and recounts its organization's; deleting the organization deletes its own", async () => {
    const orgLabel = await label("counted", {}, orgBase);
    await ok("POST", "/api/v1/orgs/acme/repos", aliceToken, { name: "doomed" }, 201);
    const repoLabel = await label("doomed-label", {}, "/api/v1/repos/acme/doomed/labels");
    await issue("in doomed", [orgLabel.id, repoLabel.id], "/api/v1/repos/acme/doomed");
    expect(labelRow(orgLabel.id)!.numIssues).toBe(1);
    await ok("DELETE", "/api/v1/repos/acme/doomed", aliceToken, undefined, 204);
    expect(labelRow(repoLabel.id)).toBeUndefined();
    expect(labelRow(orgLabel.id)!.numIssues).toBe(0);
    await ok("POST", "/api/v1/orgs", aliceToken, { username: "shortlived" }, 201);
    const gone = await label("gone", {}, "/api/v1/orgs/shortlived/labels");
    await ok("DELETE", "/api/v1/orgs/shortlived", aliceToken, undefined, 204);
    expect(labelRow(gone.id)).toBeUndefined();
  });
});

describe("label sets at repository creation", () => {
  test("issue_labels creates the named set; an unknown set is 422 and creates nothing", async () => {
    const owner = await t.user("setter");
    const token = t.token(owner);
    const r = await t.json("POST", "/api/v1/user/repos", { token, body: { name: "withlabels", issue_labels: "Default" } });
    expect(r.status).toBe(201);
    const list = await t.json("GET", "/api/v1/repos/setter/withlabels/labels", { token });
    expect(list.body.map((l: { name: string }) => l.name)).toContain("bug");
    expect(list.body.find((l: { name: string }) => l.name === "bug").color).toBe("ee0701");
    const bad = await t.json("POST", "/api/v1/user/repos", { token, body: { name: "nolabels", issue_labels: "Nope" } });
    expect(bad.status).toBe(422);
    expect((await t.json("GET", "/api/v1/repos/setter/nolabels", { token })).status).toBe(404);
  });
});
