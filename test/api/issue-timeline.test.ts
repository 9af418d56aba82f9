import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { TimelineComment } from "../../src/shapes/issue-extras.ts";
import { comments, CommentType } from "../../src/db/schema/index.ts";
import { getIssueByIndex } from "../../src/models/issue.ts";

const t = makeTestApp();
const alice = await t.user("alice");
const aliceToken = t.token(alice);
const bob = await t.user("bob");
const bobToken = t.token(bob);

async function ok(method: string, path: string, token: string | undefined, body?: unknown, status = 200) {
  const r = await t.json(method, path, { token, body });
  expect({ path, status: r.status, body: r.status === status ? undefined : r.body }).toEqual({ path, status, body: undefined });
  return r.body;
}

const repoRow = await ok("POST", "/api/v1/user/repos", aliceToken, { name: "proj" }, 201);
const secretRow = await ok("POST", "/api/v1/user/repos", aliceToken, { name: "secret", private: true }, 201);
const repo = "/api/v1/repos/alice/proj";
await ok("POST", `${repo}/issues`, bobToken, { title: "Original" }, 201);
await ok("POST", "/api/v1/repos/alice/secret/issues", aliceToken, { title: "hidden" }, 201);
const label = await ok("POST", `${repo}/labels`, aliceToken, { name: "bug", color: "#ff0000" }, 201);
const m1 = await ok("POST", `${repo}/milestones`, aliceToken, { title: "v1" }, 201);
const m2 = await ok("POST", `${repo}/milestones`, aliceToken, { title: "v2" }, 201);

await ok("POST", `${repo}/issues/1/comments`, bobToken, { body: "first!" }, 201);
await ok("PATCH", `${repo}/issues/1`, aliceToken, { title: "Renamed", ref: "main" }, 201);
await ok("POST", `${repo}/issues/1/labels`, aliceToken, { labels: [label.id] });
await ok("PATCH", `${repo}/issues/1`, aliceToken, { milestone: m1.id }, 201);
await ok("PATCH", `${repo}/issues/1`, aliceToken, { milestone: m2.id, assignees: ["alice"] }, 201);
await ok("PATCH", `${repo}/issues/1`, aliceToken, { assignees: [], due_date: "2030-01-02T00:00:00Z" }, 201);
await ok("PATCH", `${repo}/issues/1`, aliceToken, { state: "closed" }, 201);

type Event = Record<string, any>;
const all = async (query = "", token?: string) => (await ok("GET", `${repo}/issues/1/timeline${query}`, token)) as Event[];

describe("timeline", () => {
  test("comments and events in order, each in Gitea's TimelineComment shape", async () => {
    const r = await t.json("GET", `${repo}/issues/1/timeline`);
    const events = r.body as Event[];
    for (const e of events) expectShape(e, TimelineComment);
    expect(events.map((e) => e.type)).toEqual([
      "comment",
      "change_title",
      "change_issue_ref",
      "label",
      "milestone",
      "milestone",
      "assignees",
      "added_deadline",
      "assignees",
      "close",
    ]);
    expect(r.headers.get("x-total-count")).toBe(String(events.length));
    const [comment, title, ref, lbl, ms1, ms2, assigned, deadline, unassigned] = events;
    expect(comment).toMatchObject({ body: "first!", user: { login: "bob" }, issue_url: "http://hearth.test/alice/proj/issues/1", pull_request_url: "" });
    expect(comment!.html_url).toBe(`http://hearth.test/alice/proj/issues/1#issuecomment-${comment!.id}`);
    expect(title).toMatchObject({ old_title: "Original", new_title: "Renamed", user: { login: "alice" } });
    expect(ref).toMatchObject({ old_ref: "", new_ref: "main" });
    expect(lbl).toMatchObject({ body: "1", label: { id: label.id, name: "bug" } });
    expect(ms1).toMatchObject({ old_milestone: null, milestone: { id: m1.id, title: "v1" } });
    expect(ms2).toMatchObject({ old_milestone: { title: "v1" }, milestone: { title: "v2" } });
    expect(assigned).toMatchObject({ assignee: { login: "alice" }, removed_assignee: false });
    expect(unassigned).toMatchObject({ assignee: { login: "alice" }, removed_assignee: true });
    expect(deadline!.body).toBe("2030-01-02");
    expect(comment).toMatchObject({ ref_action: "none", tracked_time: null, dependent_issue: null, assignee_team: null, label: null });
  });

  test("paging applies only when page is given; since and before filter on update time", async () => {
    const every = await all();
    expect((await all("?limit=2")).length).toBe(every.length);
    const page2 = await all("?limit=2&page=2");
    expect(page2.map((e) => e.id)).toEqual(every.slice(2, 4).map((e) => e.id));
    expect(await all("?since=2999-01-01T00:00:00Z")).toEqual([]);
    expect((await all("?before=2999-01-01T00:00:00Z")).length).toBe(every.length);
    expect((await t.json("GET", `${repo}/issues/1/timeline?since=soon`)).status).toBe(422);
  });

  test("cross-references from repositories the doer cannot read are left out", async () => {
    const issue = getIssueByIndex(t.env.db, repoRow.id, 1)!;
    const secretIssue = getIssueByIndex(t.env.db, secretRow.id, 1)!;
    const now = Math.floor(Date.now() / 1000);
    t.env.db
      .insert(comments)
      .values({
        type: CommentType.IssueRef,
        posterId: alice.id,
        issueId: issue.id,
        refRepoId: secretRow.id,
        refIssueId: secretIssue.id,
        createdUnix: now,
        updatedUnix: now,
      })
      .run();
    const forAlice = (await all("", aliceToken)).at(-1)!;
    expect(forAlice).toMatchObject({ type: "issue_ref", ref_issue: { title: "hidden" } });
    expect((await all("", bobToken)).map((e) => e.type)).not.toContain("issue_ref");
  });

  test("unknown issues and hidden repositories are 404", async () => {
    expect((await t.json("GET", `${repo}/issues/9/timeline`)).status).toBe(404);
    expect((await t.json("GET", "/api/v1/repos/alice/secret/issues/1/timeline", { token: bobToken })).status).toBe(404);
  });
});
