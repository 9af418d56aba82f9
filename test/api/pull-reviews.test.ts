import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { authUrl, gitOk } from "../support/git.ts";
import { expectShape } from "../support/shape.ts";
import { PullReview, PullReviewComment } from "../../src/shapes/review.ts";
import { pullSyncIdle } from "../../src/services/pull/push-sync.ts";
import { cutDiffAroundLine, patchToDiffHunk } from "../../src/services/pull/review-patch.ts";

const t = makeTestApp("", { listen: true });
const alice = await t.user("alice", { password: "alice-pass" });
const bob = await t.user("bob");
const carol = await t.user("carol");
const dave = await t.user("dave");
const root = await t.user("root", { admin: true });
const aliceToken = t.token(alice);
const bobToken = t.token(bob);
const carolToken = t.token(carol);
const daveToken = t.token(dave);
const rootToken = t.token(root);
const api = (rest = "") => `/api/v1/repos/alice/r${rest}`;

async function commit(dir: string, files: Record<string, string>, message: string) {
  for (const [name, content] of Object.entries(files)) {
    await Bun.write(join(dir, name), content);
    await gitOk(["add", name], { cwd: dir });
  }
  await gitOk(["commit", "-q", "-m", message], { cwd: dir });
}
const sha = async (dir: string, rev: string) => (await gitOk(["rev-parse", rev], { cwd: dir })).trim();

const ten = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
// alice/r: main has base.txt (ten lines); `feature` changes line 2 and adds an eleventh; `other` and `closed` add files.
expect((await t.json("POST", "/api/v1/user/repos", { token: aliceToken, body: { name: "r", auto_init: true } })).status).toBe(201);
await t.ok("PUT", api("/collaborators/bob"), aliceToken, { permission: "write" }, 204);
const work = join(mkdtempSync(join(tmpdir(), "hearth-rv-")), "w");
await gitOk(["clone", "-q", authUrl(t.baseUrl, "alice/r.git", "alice", "alice-pass"), work]);
await commit(work, { "base.txt": ten.join("\n") + "\n" }, "setup");
await gitOk(["checkout", "-q", "-b", "feature"], { cwd: work });
await commit(work, { "base.txt": ["one", "TWO", ...ten.slice(2), "eleven"].join("\n") + "\n", "new.txt": "n1\nn2\n" }, "feature");
const featureCommit = await sha(work, "HEAD");
for (const b of ["other", "closed"]) {
  await gitOk(["checkout", "-q", "-b", b, "main"], { cwd: work });
  await commit(work, { [`${b}.txt`]: `${b}\n` }, b);
}
await gitOk(["checkout", "-q", "feature"], { cwd: work });
await gitOk(["push", "-q", "origin", "main", "feature", "other", "closed"], { cwd: work });

const open = (head: string) => t.ok("POST", api("/pulls"), aliceToken, { head, base: "main", title: head }, 201);
const pr1 = await open("feature");
const pr2 = await open("other");
const pr3 = await open("closed");
await t.ok("PATCH", api(`/pulls/${pr3.number}`), aliceToken, { state: "closed" }, 201);
const head1 = pr1.head.sha as string;
const reviews = (n: number, rest = "") => api(`/pulls/${n}/reviews${rest}`);
const review = (token: string, body: unknown, n = 1) => t.json("POST", reviews(n), { token, body });
const timeline = async () => (await t.ok("GET", `/api/v1/repos/alice/r/issues/1/timeline`, aliceToken)) as any[];

describe("Gitea's CutDiffAroundLine", () => {
  const diff = [
    "diff --git a/f b/f",
    "index 1111111..2222222 100644",
    "--- a/f",
    "+++ b/f",
    "@@ -1,10 +1,11 @@",
    " one",
    "-two",
    "+TWO",
    ...ten.slice(2).map((l) => " " + l),
    "+eleven",
    "",
  ].join("\n");
  const head = "diff --git a/f b/f\n--- a/f\n+++ b/f\n";

  test("a short hunk is kept whole up to the line, index line dropped", () => {
    expect(cutDiffAroundLine(diff, 2, false, 4)).toBe(head + "@@ -1,10 +1,11 @@\n one\n-two\n+TWO");
    expect(cutDiffAroundLine(diff, 2, true, 4)).toBe(head + "@@ -1,10 +1,11 @@\n one\n-two");
  });

  test("a long hunk is cut to the last lines with a recomputed header", () => {
    expect(cutDiffAroundLine(diff, 11, false, 4)).toBe(head + "@@ -8,3 +8,4 @@\n eight\n nine\n ten\n+eleven");
    expect(patchToDiffHunk(cutDiffAroundLine(diff, 11, false, 4))).toBe("@@ -8,3 +8,4 @@\n eight\n nine\n ten\n+eleven");
  });

  test("a line outside every hunk, or line 0, gives nothing", () => {
    expect(cutDiffAroundLine(diff, 40, false, 4)).toBe("");
    expect(cutDiffAroundLine(diff, 0, false, 4)).toBe("");
    expect(patchToDiffHunk("")).toBe("");
  });
});

let bobComment: any;

describe("POST /repos/{owner}/{repo}/pulls/{index}/reviews", () => {
  test("a comment review with code comments on new and old lines, their commits and hunks", async () => {
    const r = await review(bobToken, {
      event: "COMMENT",
      body: "some notes",
      comments: [
        { path: "base.txt", new_position: 2, body: "new side" },
        { path: "base.txt", old_position: 2, body: "old side" },
        { path: "base.txt", new_position: 11, body: "last line" },
      ],
    });
    expect(r.status).toBe(200);
    bobComment = r.body;
    expectShape(bobComment, PullReview);
    expect(bobComment).toMatchObject({
      user: { login: "bob" },
      team: null,
      state: "COMMENT",
      body: "some notes",
      commit_id: head1,
      stale: false,
      official: false,
      dismissed: false,
      comments_count: 3,
      pull_request_url: `${t.baseUrl}alice/r/pulls/1`,
    });
    expect(bobComment.html_url).toMatch(new RegExp(`^${t.baseUrl}alice/r/pulls/1#issuecomment-\\d+$`));

    const comments = await t.ok("GET", reviews(1, `/${bobComment.id}/comments`), carolToken);
    expect(comments).toHaveLength(3);
    for (const c of comments) expectShape(c, PullReviewComment);
    const [onNew, onOld, onLast] = comments;
    expect(onNew).toMatchObject({
      body: "new side",
      user: { login: "bob" },
      resolver: null,
      pull_request_review_id: bobComment.id,
      path: "base.txt",
      position: 2,
      original_position: 0,
      // The commit that last changed the line.
      commit_id: featureCommit,
      // git's three lines of context make two hunks; the first is short enough to keep whole.
      diff_hunk: "@@ -1,5 +1,5 @@\n one\n-two\n+TWO",
      pull_request_url: `${t.baseUrl}alice/r/pulls/1`,
    });
    expect(onNew.html_url).toBe(`${t.baseUrl}alice/r/pulls/1#issuecomment-${onNew.id}`);
    expect(onOld).toMatchObject({ position: 0, original_position: 2, commit_id: head1, diff_hunk: "@@ -1,5 +1,5 @@\n one\n-two" });
    // git's own hunk header, with its section heading, when the hunk is not cut.
    expect(onLast).toMatchObject({ position: 11, diff_hunk: "@@ -8,3 +8,4 @@ seven\n eight\n nine\n ten\n+eleven" });

    const pr = await t.ok("GET", api("/pulls/1"), aliceToken);
    expect(pr.review_comments).toBe(3);
    const entry = (await timeline()).find((c) => c.type === "review");
    expect(entry).toMatchObject({ body: "some notes", user: { login: "bob" }, review_id: bobComment.id });
    expect(bobComment.html_url).toEndWith(`#issuecomment-${entry.id}`);
  });

  test("the poster can neither approve nor reject their own pull request", async () => {
    const a = await review(aliceToken, { event: "APPROVED" });
    expect(a.status).toBe(422);
    expect(a.body.message).toBe("approve your own pull is not allowed");
    const r = await review(aliceToken, { event: "REQUEST_CHANGES", body: "no" });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe("reject your own pull is not allowed");
  });

  test("bodies are required as Gitea requires them", async () => {
    const r = await review(bobToken, { event: "REQUEST_CHANGES", body: "  " });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe("review event REQUEST_CHANGES requires a body");
    const c = await review(bobToken, { event: "COMMENT" });
    expect(c.status).toBe(422);
    expect(c.body.message).toBe("review event COMMENT requires a body or a comment");
    const p = await review(bobToken, { comments: [{ path: "base.txt", new_position: 1, body: "x" }] });
    expect(p.status).toBe(422);
    expect(p.body.message).toBe("review event  requires a body");
  });

  test("a verdict on a closed request is refused; anonymous callers and unknown requests are not let in", async () => {
    const r = await review(bobToken, { event: "APPROVED" }, pr3.number);
    expect(r.status).toBe(422);
    expect(r.body.message).toBe("can't submit review for a closed or merged PR");
    // A plain comment on a closed request is fine.
    expect((await review(bobToken, { event: "COMMENT", body: "late" }, pr3.number)).status).toBe(200);
    expect((await t.json("POST", reviews(1), { body: { event: "COMMENT", body: "x" } })).status).toBe(401);
    expect((await review(bobToken, { event: "COMMENT", body: "x" }, 99)).status).toBe(404);
  });
});

describe("pending reviews", () => {
  let pending: any;

  test("an event left out makes a pending review, reused by the next one and hidden from others", async () => {
    const r = await review(carolToken, { body: "draft", comments: [{ path: "new.txt", new_position: 1, body: "first" }] });
    expect(r.status).toBe(200);
    pending = r.body;
    expect(pending).toMatchObject({ state: "PENDING", user: { login: "carol" }, comments_count: 1, html_url: "" });
    const again = await review(carolToken, { event: "PENDING", body: "draft 2", comments: [{ path: "new.txt", new_position: 2, body: "second" }] });
    expect(again.body).toMatchObject({ id: pending.id, state: "PENDING", body: "draft 2", comments_count: 2 });

    const asBob = await t.json("GET", reviews(1), { token: bobToken });
    expect(asBob.body.map((x: any) => x.id)).not.toContain(pending.id);
    expect(Number(asBob.headers.get("X-Total-Count"))).toBe(asBob.body.length + 1);
    const asCarol = await t.ok("GET", reviews(1), carolToken);
    expect(asCarol.map((x: any) => x.id)).toContain(pending.id);
    expect((await t.ok("GET", reviews(1), rootToken)).map((x: any) => x.id)).toContain(pending.id);
    expect((await t.json("GET", reviews(1, `/${pending.id}`), { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", reviews(1, `/${pending.id}`))).status).toBe(404);
    expect((await t.ok("GET", reviews(1, `/${pending.id}/comments`), carolToken)).map((c: any) => c.html_url)).toEqual([
      expect.stringContaining("/pulls/1/files#issuecomment-"),
      expect.stringContaining("/pulls/1/files#issuecomment-"),
    ]);
    // Not on the timeline while pending.
    expect((await timeline()).some((c) => c.review_id === pending.id)).toBe(false);
  });

  test("submitting: staying pending is refused, a verdict is taken once", async () => {
    const stay = await t.json("POST", reviews(1, `/${pending.id}`), { token: carolToken, body: { event: "PENDING", body: "x" } });
    expect(stay.status).toBe(422);
    expect(stay.body.message).toBe("review stay pending");
    const done = await t.ok("POST", reviews(1, `/${pending.id}`), carolToken, { event: "APPROVED", body: "fine by me" });
    // carol only reads the repository: her approval does not count.
    expect(done).toMatchObject({ id: pending.id, state: "APPROVED", body: "fine by me", commit_id: head1, official: false, comments_count: 2 });
    expect(done.html_url).toContain("#issuecomment-");
    const twice = await t.json("POST", reviews(1, `/${pending.id}`), { token: carolToken, body: { event: "APPROVED" } });
    expect(twice.status).toBe(422);
    expect(twice.body.message).toBe("only a pending review can be submitted");
    expect((await timeline()).some((c) => c.type === "review" && c.review_id === pending.id)).toBe(true);
  });

  test("a review is found only under its own request", async () => {
    expect((await t.json("GET", reviews(2, `/${pending.id}`), { token: carolToken })).status).toBe(404);
    expect((await t.json("GET", reviews(1, "/abc"), { token: carolToken })).status).toBe(404);
    expect((await t.json("GET", reviews(1, "/99999"), { token: carolToken })).status).toBe(404);
  });
});

let bobApproval: any;

describe("official reviews, dismissal and deletion", () => {
  test("a code writer's approval is official, and their earlier verdicts are dismissed", async () => {
    const first = (await review(bobToken, { event: "REQUEST_CHANGES", body: "fix it" })).body;
    expect(first).toMatchObject({ state: "REQUEST_CHANGES", official: true, dismissed: false });
    bobApproval = (await review(bobToken, { event: "APPROVED" })).body;
    expect(bobApproval).toMatchObject({ state: "APPROVED", official: true, body: "" });
    const before = await t.ok("GET", reviews(1, `/${first.id}`), bobToken);
    expect(before).toMatchObject({ official: false, dismissed: true });
  });

  test("only repository admins dismiss, only approvals and rejections, with a timeline entry", async () => {
    const byWriter = await t.json("POST", reviews(1, `/${bobApproval.id}/dismissals`), { token: bobToken, body: { message: "no" } });
    expect(byWriter.status).toBe(403);
    expect(byWriter.body.message).toBe("Must be repo admin");
    const comment = await t.json("POST", reviews(1, `/${bobComment.id}/dismissals`), { token: aliceToken, body: {} });
    expect(comment.status).toBe(403);
    expect(comment.body.message).toBe("not need to dismiss this review because it's type is not Approve or change request");

    const d = await t.ok("POST", reviews(1, `/${bobApproval.id}/dismissals`), aliceToken, { message: "outdated" });
    expect(d).toMatchObject({ id: bobApproval.id, dismissed: true, state: "APPROVED" });
    const entry = (await timeline()).find((c) => c.type === "dismiss_review");
    expect(entry).toMatchObject({ body: "outdated", user: { login: "alice" }, review_id: bobApproval.id });
    const u = await t.ok("POST", reviews(1, `/${bobApproval.id}/undismissals`), aliceToken);
    expect(u).toMatchObject({ id: bobApproval.id, dismissed: false });
  });

  test("dismissing on a closed request is refused", async () => {
    await t.ok("PATCH", api(`/pulls/${pr3.number}`), aliceToken, { state: "open" }, 201);
    const approval = (await review(bobToken, { event: "APPROVED" }, pr3.number)).body;
    await t.ok("PATCH", api(`/pulls/${pr3.number}`), aliceToken, { state: "closed" }, 201);
    const r = await t.json("POST", reviews(pr3.number, `/${approval.id}/dismissals`), { token: aliceToken, body: {} });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe("can't dismiss a review associated to a closed or merged PR");
  });

  test("the reviewer or a site admin deletes a review with its code comments", async () => {
    const other = await t.json("DELETE", reviews(1, `/${bobComment.id}`), { token: carolToken });
    expect(other.status).toBe(403);
    expect((await t.ok("GET", api("/pulls/1"), aliceToken)).review_comments).toBe(5);
    await t.ok("DELETE", reviews(1, `/${bobComment.id}`), bobToken, undefined, 204);
    expect((await t.json("GET", reviews(1, `/${bobComment.id}`), { token: bobToken })).status).toBe(404);
    expect((await t.ok("GET", api("/pulls/1"), aliceToken)).review_comments).toBe(2);
    expect((await timeline()).some((c) => c.review_id === bobComment.id)).toBe(false);
    const extra = (await review(carolToken, { event: "COMMENT", body: "to go" })).body;
    await t.ok("DELETE", reviews(1, `/${extra.id}`), rootToken, undefined, 204);
  });
});

describe("requested reviewers", () => {
  const requested = async () => (await t.ok("GET", api("/pulls/2"), aliceToken)).requested_reviewers.map((u: any) => u.login);
  const ask = (token: string, body: unknown, method = "POST") => t.json(method, api("/pulls/2/requested_reviewers"), { token, body });

  test("the poster asks users; the request shows on the pull request and its timeline", async () => {
    const r = await ask(aliceToken, { reviewers: ["carol", "bob"] });
    expect(r.status).toBe(201);
    expect(r.body).toHaveLength(2);
    for (const x of r.body) expectShape(x, PullReview);
    expect(r.body[0]).toMatchObject({ state: "REQUEST_REVIEW", user: { login: "carol" }, official: false, html_url: "", commit_id: "" });
    expect(r.body[1]).toMatchObject({ state: "REQUEST_REVIEW", user: { login: "bob" }, official: true });
    expect((await requested()).sort()).toEqual(["bob", "carol"]);
    // Asking again makes nothing.
    expect((await ask(aliceToken, { reviewers: ["carol"] })).body).toEqual([]);
    const events = (await t.ok("GET", "/api/v1/repos/alice/r/issues/2/timeline", aliceToken)).filter((c: any) => c.type === "review_request");
    expect(events.map((c: any) => [c.assignee.login, c.removed_assignee])).toEqual([
      ["carol", false],
      ["bob", false],
    ]);
    expect((await t.ok("GET", reviews(2), aliceToken)).filter((x: any) => x.state === "REQUEST_REVIEW")).toHaveLength(2);
  });

  test("who may be asked, and who may ask", async () => {
    const own = await ask(aliceToken, { reviewers: ["alice"] });
    expect(own.status).toBe(422);
    expect(own.body.message).toBe(`poster of pr can't be reviewer [user_id: ${alice.id}, repo_id: ${pr2.base.repo.id}]`);
    const unknown = await ask(aliceToken, { reviewers: ["nobody"] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("User 'nobody' not exist");
    const byEmail = await ask(aliceToken, { reviewers: ["dave@example.com"] });
    expect(byEmail.body.map((x: any) => x.user.login)).toEqual(["dave"]);
    const stranger = await ask(carolToken, { reviewers: ["dave"] });
    expect(stranger.status).toBe(422);
    expect(stranger.body.message).toStartWith("Doer can't choose reviewer");
    expect((await ask(carolToken, { reviewers: ["bob"] }, "DELETE")).status).toBe(422);
    expect((await t.json("POST", api("/pulls/2/requested_reviewers"), { body: { reviewers: ["bob"] } })).status).toBe(401);
  });

  test("a reviewer declines their own request; the poster withdraws others", async () => {
    await t.ok("DELETE", api("/pulls/2/requested_reviewers"), carolToken, { reviewers: ["carol"] }, 204);
    await t.ok("DELETE", api("/pulls/2/requested_reviewers"), aliceToken, { reviewers: ["dave"] }, 204);
    expect(await requested()).toEqual(["bob"]);
    const last = (await t.ok("GET", "/api/v1/repos/alice/r/issues/2/timeline", aliceToken)).filter((c: any) => c.type === "review_request").at(-1);
    expect(last).toMatchObject({ assignee: { login: "dave" }, removed_assignee: true, user: { login: "alice" } });
  });

  test("a review answers the request", async () => {
    expect((await review(bobToken, { event: "COMMENT", body: "looked" }, 2)).status).toBe(200);
    expect((await t.ok("GET", reviews(2), aliceToken)).some((x: any) => x.state === "REQUEST_REVIEW")).toBe(false);
  });
});

describe("reviews after pushes", () => {
  test("new content makes every review stale; reviews on the new head are current", async () => {
    expect((await t.ok("GET", reviews(1, `/${bobApproval.id}`), bobToken)).stale).toBe(false);
    await commit(work, { "base.txt": ["one", "TWO!", ...ten.slice(2), "eleven"].join("\n") + "\n" }, "change line 2 again");
    await gitOk(["push", "-q", "origin", "feature"], { cwd: work });
    await pullSyncIdle(t.env);
    expect(await t.ok("GET", reviews(1, `/${bobApproval.id}`), bobToken)).toMatchObject({ stale: true, dismissed: false });
    const fresh = (await review(bobToken, { event: "APPROVED" })).body;
    expect(fresh).toMatchObject({ stale: false, commit_id: await sha(work, "HEAD") });
    // An approval given for an older commit whose content changed since is stale from the start.
    const old = (await review(carolToken, { event: "APPROVED", commit_id: head1 })).body;
    expect(old).toMatchObject({ stale: true, commit_id: head1 });
  });

  test("a code comment on a line changed since is outdated and no longer listed", async () => {
    const carolReviews = (await t.ok("GET", reviews(1), carolToken)).filter((x: any) => x.user?.login === "carol" && x.comments_count === 2);
    const comments = await t.ok("GET", reviews(1, `/${carolReviews[0].id}/comments`), carolToken);
    // Her comments were on new.txt, which the push left alone.
    expect(comments).toHaveLength(2);
    const r = (await review(bobToken, { event: "COMMENT", body: "l2", comments: [{ path: "base.txt", new_position: 2, body: "again" }] })).body;
    expect((await t.ok("GET", reviews(1, `/${r.id}/comments`), bobToken))).toHaveLength(1);
    await commit(work, { "base.txt": ["one", "TWO?", ...ten.slice(2), "eleven"].join("\n") + "\n" }, "line 2 once more");
    await gitOk(["push", "-q", "origin", "feature"], { cwd: work });
    await pullSyncIdle(t.env);
    expect(await t.ok("GET", reviews(1, `/${r.id}/comments`), bobToken)).toEqual([]);
    // Counted still by the review, left out of the request's count.
    expect((await t.ok("GET", reviews(1, `/${r.id}`), bobToken)).comments_count).toBe(1);
  });
});

describe("under a branch protection rule", () => {
  test("the approvals whitelist decides who is official; stale approvals are dismissed on push", async () => {
    await t.ok(
      "POST",
      api("/branch_protections"),
      aliceToken,
      { rule_name: "main", enable_approvals_whitelist: true, approvals_whitelist_username: ["carol"], dismiss_stale_approvals: true },
      201,
    );
    const byCarol = (await review(carolToken, { event: "APPROVED" })).body;
    const byBob = (await review(bobToken, { event: "APPROVED" })).body;
    expect(byCarol.official).toBe(true);
    expect(byBob.official).toBe(false);
    const asked = await t.ok("POST", api("/pulls/1/requested_reviewers"), aliceToken, { reviewers: ["dave"] }, 201);
    expect(asked[0].official).toBe(false);

    await commit(work, { "new.txt": "n1\nn2\nn3\n" }, "more");
    await gitOk(["push", "-q", "origin", "feature"], { cwd: work });
    await pullSyncIdle(t.env);
    for (const id of [byCarol.id, byBob.id]) {
      expect(await t.ok("GET", reviews(1, `/${id}`), aliceToken)).toMatchObject({ stale: true, dismissed: true });
    }
    const auto = (await timeline()).filter((c) => c.type === "dismiss_review" && c.review_id === byCarol.id);
    expect(auto).toHaveLength(1);
    expect(auto[0]).toMatchObject({
      body: "New commits pushed, approval review dismissed automatically according to repository settings",
      user: { login: "alice" },
    });
  });
});

describe("team review requests", () => {
  const org = (rest: string) => `/api/v1/repos/acme/o${rest}`;
  let devs: any;

  test("a team of the owning organization is asked, and answered by a member's verdict", async () => {
    await t.ok("POST", "/api/v1/orgs", aliceToken, { username: "acme" }, 201);
    await t.ok("POST", "/api/v1/orgs/acme/repos", aliceToken, { name: "o", auto_init: true, private: true }, 201);
    devs = await t.ok("POST", "/api/v1/orgs/acme/teams", aliceToken, { name: "devs", permission: "write", units: ["repo.code", "repo.pulls"] }, 201);
    await t.ok("POST", "/api/v1/orgs/acme/teams", aliceToken, { name: "outsiders", permission: "read", units: ["repo.code"] }, 201);
    await t.ok("PUT", `/api/v1/teams/${devs.id}/members/dave`, aliceToken, undefined, 204);
    await t.ok("PUT", `/api/v1/teams/${devs.id}/repos/acme/o`, aliceToken, undefined, 204);
    await t.ok("POST", org("/contents/x.txt"), aliceToken, { content: btoa("x\n"), new_branch: "topic", message: "x" }, 201);
    await t.ok("POST", org("/pulls"), aliceToken, { head: "topic", base: "main", title: "topic" }, 201);

    const r = await t.json("POST", org("/pulls/1/requested_reviewers"), { token: aliceToken, body: { team_reviewers: ["devs"] } });
    expect(r.status).toBe(201);
    expectShape(r.body[0], PullReview);
    expect(r.body[0]).toMatchObject({ state: "REQUEST_REVIEW", user: null, team: { name: "devs" } });
    expect((await t.ok("GET", org("/pulls/1"), aliceToken)).requested_reviewers_teams.map((x: any) => x.name)).toEqual(["devs"]);
    // Asked once.
    expect((await t.ok("POST", org("/pulls/1/requested_reviewers"), aliceToken, { team_reviewers: ["devs"] }, 201))).toEqual([]);

    // A private repository's reviewing team must have it.
    const blind = await t.json("POST", org("/pulls/1/requested_reviewers"), { token: aliceToken, body: { team_reviewers: ["outsiders"] } });
    expect(blind.status).toBe(422);
    expect(blind.body.message).toStartWith("Reviewing team can't read repo");
    const unknown = await t.json("POST", org("/pulls/1/requested_reviewers"), { token: aliceToken, body: { team_reviewers: ["ghosts"] } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("Team 'ghosts' not exist");

    const approved = await t.json("POST", org("/pulls/1/reviews"), { token: daveToken, body: { event: "APPROVED" } });
    expect(approved.body).toMatchObject({ state: "APPROVED", official: true });
    expect((await t.ok("GET", org("/pulls/1"), aliceToken)).requested_reviewers_teams).toEqual([]);
  });

  test("withdrawing a team's request", async () => {
    await t.ok("POST", org("/pulls/1/requested_reviewers"), aliceToken, { team_reviewers: ["devs"] }, 201);
    await t.ok("DELETE", org("/pulls/1/requested_reviewers"), aliceToken, { team_reviewers: ["devs"] }, 204);
    expect((await t.ok("GET", org("/pulls/1"), aliceToken)).requested_reviewers_teams).toEqual([]);
    // The timeline names the team on both events.
    const events = (await t.ok("GET", org("/issues/1/timeline"), aliceToken)).filter((e: any) => e.type === "review_request" && e.assignee_team);
    expect(events.map((e: any) => [e.assignee_team.name, e.removed_assignee])).toEqual([
      ["devs", false],
      ["devs", false],
      ["devs", true],
    ]);
    expect(events[0].assignee).toBeNull();
  });
});

describe("dismissing with priors", () => {
  test("the reviewer's other standing verdicts go too", async () => {
    const a = (await review(bobToken, { event: "REQUEST_CHANGES", body: "no" }, 2)).body;
    // A later comment does not dismiss the rejection.
    const c = (await review(bobToken, { event: "COMMENT", body: "hm" }, 2)).body;
    expect((await t.ok("GET", reviews(2, `/${a.id}`), bobToken)).dismissed).toBe(false);
    const b = (await review(bobToken, { event: "APPROVED" }, 2)).body;
    await t.ok("POST", reviews(2, `/${b.id}/undismissals`), aliceToken);
    await t.ok("POST", reviews(2, `/${a.id}/undismissals`), aliceToken);
    expect((await t.ok("GET", reviews(2, `/${a.id}`), bobToken)).dismissed).toBe(false);
    await t.ok("POST", reviews(2, `/${b.id}/dismissals`), aliceToken, { message: "all of it", priors: true });
    expect((await t.ok("GET", reviews(2, `/${a.id}`), bobToken)).dismissed).toBe(true);
    expect((await t.ok("GET", reviews(2, `/${c.id}`), bobToken)).dismissed).toBe(false);
  });
});

describe("refusals", () => {
  test("a review request is not deleted as a review; writes need a token", async () => {
    const [req] = await t.ok("POST", api("/pulls/2/requested_reviewers"), aliceToken, { reviewers: ["carol"] }, 201);
    const r = await t.json("DELETE", reviews(2, `/${req.id}`), { token: carolToken });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe("review request can not be deleted using this method");
    expect((await t.json("DELETE", reviews(2, `/${req.id}`))).status).toBe(401);
    expect((await t.json("POST", reviews(2, `/${req.id}/dismissals`), { body: {} })).status).toBe(401);
    expect((await t.json("POST", reviews(2, `/${req.id}`), { body: { event: "APPROVED" } })).status).toBe(401);
  });

  test("an archived repository takes no reviews (423)", async () => {
    await t.ok("PATCH", api(""), aliceToken, { archived: true });
    expect((await review(bobToken, { event: "COMMENT", body: "x" }, 2)).status).toBe(423);
    expect((await t.json("POST", api("/pulls/2/requested_reviewers"), { token: aliceToken, body: { reviewers: ["dave"] } })).status).toBe(423);
    // Reading goes on.
    expect((await t.json("GET", reviews(2), { token: bobToken })).status).toBe(200);
  });
});
