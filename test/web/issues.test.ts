import { beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, ROOT_URL } from "../support/app.ts";
import { populateRepo, type RepoFixture } from "../support/fixtures.ts";
import { WebClient, signedIn, visibleText } from "../support/web.ts";

// Three issues a page, so paging is seen with a handful of issues.
const t = makeTestApp("[ui]\nISSUE_PAGING_NUM = 3\n");
const API = "/api/v1/repos/alice/tools";
const alice = await t.user("alice");
const bob = await t.user("bob");
await t.user("carol");
const aliceToken = t.token(alice);
const bobToken = t.token(bob);

/** The path of an absolute URL the API handed out. */
const pathOf = (url: string) => `/${url.slice(ROOT_URL.length)}`;
/** Every href of a page, resolved against `from`. */
const hrefs = (page: string, from: string) =>
  [...page.matchAll(/href="([^"]+)"/g)].map((m) => new URL(m[1]!.replaceAll("&amp;", "&"), `${ROOT_URL}${from.replace(/^\//, "")}`));

let fx: RepoFixture;
let secret: RepoFixture;
let second: any;
let closed: any;
let bugLabel: number;
let docsLabel: number;

beforeAll(async () => {
  fx = await populateRepo(t, aliceToken, "alice", "tools");
  secret = await populateRepo(t, aliceToken, "alice", "secret", { private: true });
  bugLabel = fx.label;
  docsLabel = (await t.ok("POST", `${API}/labels`, aliceToken, { name: "docs", color: "#0000aa", description: "Documentation" }, 201)).id;
  // #3 (after i1 and the pull request #2): by bob, with the docs label and assigned to alice.
  second = await t.ok("POST", `${API}/issues`, bobToken, { title: "Second: crash on start", body: "It **crashes**." }, 201);
  await t.ok("POST", `${API}/issues/${second.number}/labels`, aliceToken, { labels: [docsLabel] }, 200);
  await t.ok("PATCH", `${API}/issues/${second.number}`, aliceToken, { assignees: ["alice"] }, 201);
  // #4: closed.
  closed = await t.ok("POST", `${API}/issues`, aliceToken, { title: "Old closed thing" }, 201);
  await t.ok("PATCH", `${API}/issues/${closed.number}`, aliceToken, { state: "closed" }, 201);
  // #5 and #6: enough open issues for two pages.
  for (const title of ["Fifth issue", "Sixth issue"]) await t.ok("POST", `${API}/issues`, aliceToken, { title }, 201);
});

describe("the issue list", () => {
  test("open issues with their labels, number, author, milestone and comments; pull requests are not in it", async () => {
    const web = new WebClient(t);
    const page = await web.page("/alice/tools/issues?sort=oldest");
    const text = visibleText(page);
    expect(text).toContain("4 Open");
    expect(text).toContain("1 Closed");
    expect(page).toContain('href="/alice/tools/issues/1"');
    expect(text).toMatch(/#1 opened .* by alice/);
    expect(page).toContain(`href="/alice/tools/milestone/${fx.milestone}"`);
    expect(page).toContain('class="label-chip');
    expect(page).toContain('fill="#ff0000"');
    expect(text).toContain("Comments: 1");
    expect(page).not.toContain('href="/alice/tools/pulls/2"');
    expect(page).not.toContain("Old closed thing");
    // Paged three a page, oldest first: #1, #3, #5 here; #6 on page 2.
    expect(page).toContain('href="/alice/tools/issues/5"');
    expect(page).not.toContain('href="/alice/tools/issues/6"');
    expect(page).toContain('rel="next"');
    const next = await web.page("/alice/tools/issues?sort=oldest&page=2");
    expect(next).toContain('href="/alice/tools/issues/6"');
    expect(next).not.toContain('href="/alice/tools/issues/1"');
  });

  test("state, label, milestone, poster, assignee and text filters narrow the list, with the counts of the filter", async () => {
    const web = new WebClient(t);
    const closedPage = await web.page("/alice/tools/issues?state=closed");
    expect(closedPage).toContain("Old closed thing");
    expect(closedPage).not.toContain("Fifth issue");
    expect((await web.page("/alice/tools/issues?state=all&sort=oldest")).match(/class="issue-row"/g)?.length).toBe(3);

    const labelled = await web.page(`/alice/tools/issues?labels=${docsLabel}`);
    expect(labelled).toContain("Second: crash on start");
    expect(labelled).not.toContain("Fifth issue");
    expect(visibleText(labelled)).toContain("1 Open");
    // Both labels: nothing has both; a form without scripts sends them as repeated fields.
    expect(await web.page(`/alice/tools/issues?labels=${docsLabel}&labels=${bugLabel}`)).toContain("No issues match these filters.");
    expect(await web.page(`/alice/tools/issues?labels=${docsLabel},${bugLabel}`)).toContain("No issues match these filters.");

    const inMilestone = await web.page(`/alice/tools/issues?milestone=${fx.milestone}`);
    expect(inMilestone).toContain('href="/alice/tools/issues/1"');
    expect(inMilestone).not.toContain("Fifth issue");
    const noMilestone = await web.page("/alice/tools/issues?milestone=-1&sort=oldest");
    expect(noMilestone).not.toContain('href="/alice/tools/issues/1"');
    expect(noMilestone).toContain("Second: crash on start");

    const byBob = await web.page("/alice/tools/issues?poster=bob");
    expect(byBob).toContain("Second: crash on start");
    expect(byBob).not.toContain("Fifth issue");
    // Gitea's older links name the poster by id.
    expect(await web.page(`/alice/tools/issues?poster=${bob.id}`)).toContain("Second: crash on start");
    expect(await web.page("/alice/tools/issues?poster=nobody-at-all")).toContain("No issues match these filters.");

    const assigned = await web.page(`/alice/tools/issues?assignee=${alice.id}`);
    expect(assigned).toContain("Second: crash on start");
    expect(assigned).not.toContain("Fifth issue");
    const anyAssignee = await web.page("/alice/tools/issues?assignee=(any)");
    expect(anyAssignee).toContain("Second: crash on start");
    expect(anyAssignee).not.toContain("Fifth issue");
    expect(await web.page("/alice/tools/issues?assignee=(none)")).not.toContain("Second: crash on start");

    const found = await web.page("/alice/tools/issues?q=crash");
    expect(found).toContain("Second: crash on start");
    expect(found).not.toContain("Fifth issue");
    expect(visibleText(found)).toContain("1 Open");
    expect(await web.page("/alice/tools/issues?q=5")).toContain("Fifth issue");
  });

  test("the filters are one GET form that works without scripts, and the links of a list resolve", async () => {
    const web = new WebClient(t);
    const page = await web.page("/alice/tools/issues");
    expect(page).toMatch(/<form class="issue-filters" method="get"/);
    expect(page).toContain(`name="labels" value="${docsLabel}"`);
    expect(page).toContain(`<option value="${fx.milestone}">m1</option>`);
    expect(page).toContain(`<option value="${alice.id}">alice</option>`);
    expect(page).toContain('name="poster"');
    expect(page).toContain('name="sort"');
    expect(page).toContain('<label class="sr-only" for="f-q">');
    for (const url of hrefs(page, "/alice/tools/issues")) {
      if (url.origin !== new URL(ROOT_URL).origin || url.pathname.startsWith("/assets/") || !url.pathname.startsWith("/alice/tools/")) continue;
      if (!/\/(issues|milestone|labels|milestones)/.test(url.pathname)) continue;
      const res = await web.get(url.pathname + url.search);
      expect({ url: url.href, status: res.status }).toEqual({ url: url.href, status: 200 });
    }
  });

  test("signed in: issues assigned to you, created by you", async () => {
    const web = await signedIn(t, "bob");
    const mine = await web.page("/alice/tools/issues?type=created_by");
    expect(mine).toContain("Second: crash on start");
    expect(mine).not.toContain("Fifth issue");
    expect(await web.page("/alice/tools/issues?type=assigned")).toContain("No issues match these filters.");
    expect(await web.page("/alice/tools/issues")).toContain('name="type"');
  });
});

describe("an issue's conversation", () => {
  test("every html_url the API hands out for issues, pull requests and comments opens its page", async () => {
    const web = new WebClient(t);
    const issue = await t.ok("GET", `${API}/issues/${fx.issue}`, undefined);
    const page = await web.page(pathOf(issue.html_url));
    expect(page).toContain("i1");
    const comments = await t.ok("GET", `${API}/issues/${fx.issue}/comments`, undefined);
    const [path, anchor] = pathOf(comments[0].html_url).split("#");
    expect(anchor).toBe(`issuecomment-${comments[0].id}`);
    expect(await web.page(path!)).toContain(`id="${anchor}"`);
    const pull = await t.ok("GET", `${API}/pulls/${fx.pull}`, undefined);
    expect(pathOf(pull.html_url)).toBe("/alice/tools/pulls/2");
    expect(await web.page(pathOf(pull.html_url))).toContain("wants to merge");
    // A pull request's number under /issues/ is redirected to its page, as in Gitea.
    const moved = await web.get("/alice/tools/issues/2");
    expect(moved.status).toBe(303);
    expect(moved.headers.get("location")).toBe("/alice/tools/pulls/2");
    // The timeline's html_url too.
    const timeline = await t.ok("GET", `${API}/issues/${second.number}/timeline`, undefined);
    const secondPage = await web.page(`/alice/tools/issues/${second.number}`);
    for (const entry of timeline) expect(secondPage).toContain(`id="issuecomment-${entry.id}"`);
  });

  test("title, state, author, rendered body, timeline events in order and the sidebar", async () => {
    const n = second.number;
    await t.ok("POST", `${API}/issues/${n}/comments`, aliceToken, { body: "Confirmed, see `main.ts`." }, 201);
    await t.ok("PATCH", `${API}/issues/${n}`, aliceToken, { title: "Crash on start", milestone: fx.milestone, due_date: "2030-01-02T00:00:00Z" }, 201);
    await t.ok("DELETE", `${API}/issues/${n}/labels/${docsLabel}`, aliceToken, undefined, 204);
    await t.ok("PATCH", `${API}/issues/${n}`, aliceToken, { state: "closed" }, 201);
    await t.ok("PATCH", `${API}/issues/${n}`, aliceToken, { state: "open" }, 201);
    await t.ok("PUT", `${API}/issues/${n}/lock`, aliceToken, { lock_reason: "spam" }, 204);
    const page = await new WebClient(t).page(`/alice/tools/issues/${n}`);
    const text = visibleText(page);
    expect(text).toContain("Crash on start #3");
    expect(text).toContain("Open Locked bob opened this issue");
    expect(page).toContain("<strong>crashes</strong>");
    const order = [
      "added the docs label",
      "self-assigned this",
      "commented",
      "changed title from Second: crash on start to Crash on start",
      "added the due date 2030-01-02",
      "added this to the m1 milestone",
      "removed the docs label",
      "closed this issue",
      "reopened this issue",
      "locked as spam and limited conversation to collaborators",
    ];
    let at = 0;
    for (const words of order) {
      const found = text.indexOf(words, at);
      expect({ words, found: found >= 0 }).toEqual({ words, found: true });
      at = found;
    }
    expect(page).toContain("<code>main.ts</code>");
    // The sidebar.
    expect(text).toMatch(/Milestone m1/);
    expect(text).toMatch(/Assignees alice/);
    expect(text).toMatch(/2 participants bob alice/);
    expect(text).toContain("Due date 2030-01-02");
    expect(text).toContain("Locked: only collaborators can comment.");
  });

  test("reactions are summed per kind with who reacted; attachments of the issue and of comments are listed", async () => {
    await t.ok("POST", `${API}/issues/${fx.issue}/reactions`, aliceToken, { content: "+1" }, 201);
    await t.ok("POST", `${API}/issues/${fx.issue}/reactions`, bobToken, { content: "+1" }, 201);
    await t.ok("POST", `${API}/issues/comments/${fx.comment}/reactions`, bobToken, { content: "heart" }, 201);
    const upload = async (path: string, name: string) => {
      const form = new FormData();
      form.append("attachment", new Blob(["some notes\n"]), name);
      const res = await t.request("POST", path, { token: aliceToken, body: form });
      expect(res.status).toBe(201);
      return (await res.json()) as { uuid: string; browser_download_url: string };
    };
    const onIssue = await upload(`${API}/issues/${fx.issue}/assets`, "issue-notes.txt");
    const onComment = await upload(`${API}/issues/comments/${fx.comment}/assets`, "comment-notes.txt");
    const web = new WebClient(t);
    const page = await web.page(`/alice/tools/issues/${fx.issue}`);
    const text = visibleText(page);
    expect(text).toContain("2 reactions +1 by alice, bob");
    expect(text).toContain("1 reaction heart by bob");
    expect(page).toContain(`href="/attachments/${onIssue.uuid}"`);
    expect(page).toContain(`href="/attachments/${onComment.uuid}"`);
    expect(pathOf(onIssue.browser_download_url)).toBe(`/attachments/${onIssue.uuid}`);
    const file = await web.get(`/attachments/${onComment.uuid}`);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe("some notes\n");
  });

  test("scripts, event handlers and javascript: links in titles, bodies and comments come out inert", async () => {
    const evil = await t.ok(
      "POST",
      `${API}/issues`,
      bobToken,
      { title: `<script>alert("t")</script><img src=x onerror=alert(1)>`, body: `<script>alert("b")</script>\n\n<img src="x" onerror="alert(2)">\n\n[click](javascript:alert(3)) <a href="javascript:alert(4)">a</a>` },
      201,
    );
    await t.ok("POST", `${API}/issues/${evil.number}/comments`, bobToken, { body: `<svg onload=alert(5)></svg> <iframe src="javascript:alert(6)"></iframe> [x](  JaVaScRiPt:alert(7))` }, 201);
    const web = new WebClient(t);
    for (const path of [`/alice/tools/issues/${evil.number}`, "/alice/tools/issues", "/alice/tools/issues?q=script"]) {
      const page = await web.page(path);
      // No element, no event handler attribute, no javascript: address: what remains is text.
      expect(page).not.toMatch(/<script/i);
      expect(page).not.toMatch(/<iframe/i);
      expect(page).not.toMatch(/<[a-z][^>]*\son[a-z]+\s*=/i);
      expect(page).not.toMatch(/(href|src)\s*=\s*["']?\s*javascript:/i);
    }
    const page = await web.page(`/alice/tools/issues/${evil.number}`);
    expect(page).toContain("&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt;");
  });

  test("a conversation of more than a page is paged, and a comment's link still leads to it", async () => {
    const big = await t.ok("POST", `${API}/issues`, aliceToken, { title: "Long talk" }, 201);
    const ids: number[] = [];
    for (let i = 0; i < 205; i++) ids.push((await t.ok("POST", `${API}/issues/${big.number}/comments`, aliceToken, { body: `message number ${i}` }, 201)).id);
    const web = new WebClient(t);
    const first = await web.page(`/alice/tools/issues/${big.number}`);
    expect(first).toContain("message number 0");
    expect(first).toContain("message number 199");
    expect(first).not.toContain("message number 200");
    expect(first).toContain('href="?page=2"');
    // The 201st comment: on page 2, and page 1 carries its anchor, pointing there.
    const last = ids[204]!;
    expect(first).toContain(`<a id="issuecomment-${last}" href="?page=2#issuecomment-${last}">page 2</a>`);
    const second = await web.page(`/alice/tools/issues/${big.number}?page=2`);
    expect(second).toContain(`id="issuecomment-${last}"`);
    expect(second).toContain("message number 204");
    expect(second).not.toContain("message number 0<");
    expect(first.length).toBeLessThan(600_000);
  });

  test("a missing issue is 404; an issue number under /pulls/ is redirected to /issues/", async () => {
    const web = new WebClient(t);
    expect((await web.get("/alice/tools/issues/999")).status).toBe(404);
    expect((await web.get("/alice/tools/issues/abc")).status).toBe(404);
    const res = await web.get("/alice/tools/pulls/1");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/alice/tools/issues/1");
  });
});

describe("milestones and labels", () => {
  test("the milestones page: open and closed, progress in words, due date, links to the milestone's issues", async () => {
    const done = await t.ok("POST", `${API}/milestones`, aliceToken, { title: "v0 done", due_on: "2020-01-01T00:00:00Z" }, 201);
    await t.ok("PATCH", `${API}/milestones/${done.id}`, aliceToken, { state: "closed" }, 200);
    const web = new WebClient(t);
    const page = await web.page("/alice/tools/milestones");
    const text = visibleText(page);
    expect(text).toContain("1 Open");
    expect(text).toContain("1 Closed");
    expect(page).toContain(`href="/alice/tools/milestone/${fx.milestone}"`);
    expect(page).toMatch(/<progress max="100" value="\d+"/);
    expect(text).toMatch(/\d+% complete/);
    expect(text).toContain("No due date");
    expect(page).not.toContain("v0 done");
    const closedPage = await web.page("/alice/tools/milestones?state=closed");
    expect(closedPage).toContain("v0 done");
    expect(await web.page("/alice/tools/milestones?q=nothing-like-this")).toContain("No milestones match this search.");

    const one = await web.page(`/alice/tools/milestone/${fx.milestone}?state=all`);
    expect(one).toContain('href="/alice/tools/issues/1"');
    expect(one).toContain('href="/alice/tools/issues/3"');
    expect(one).not.toContain("Fifth issue");
    expect((await web.get("/alice/tools/milestone/999999")).status).toBe(404);
    expect((await web.get(`/alice/secret/milestone/${secret.milestone}`)).status).toBe(404);
    for (const url of hrefs(page, "/alice/tools/milestones")) {
      if (!url.pathname.startsWith("/alice/tools/milestone")) continue;
      expect((await web.get(url.pathname + url.search)).status).toBe(200);
    }
  });

  test("the labels page: each label's chip, description and open count, linked to the list filtered by it", async () => {
    const web = new WebClient(t);
    const page = await web.page("/alice/tools/labels");
    const text = visibleText(page);
    expect(text).toContain("2 labels");
    expect(text).toContain("Documentation");
    expect(page).toContain(`href="/alice/tools/issues?labels=${bugLabel}"`);
    expect(page).toContain('fill="#0000aa"');
    const filtered = await web.page(`/alice/tools/issues?labels=${bugLabel}`);
    expect(filtered).toContain('href="/alice/tools/issues/1"');
    expect(filtered).not.toContain("Fifth issue");
  });
});

describe("who may see", () => {
  test("a private repository's pages are 404 for a stranger and for the anonymous, 200 for its owner", async () => {
    const pages = [
      "/alice/secret/issues",
      `/alice/secret/issues/${secret.issue}`,
      "/alice/secret/pulls",
      `/alice/secret/pulls/${secret.pull}`,
      "/alice/secret/milestones",
      `/alice/secret/milestone/${secret.milestone}`,
      "/alice/secret/labels",
    ];
    const stranger = await signedIn(t, "carol");
    const anonymous = new WebClient(t);
    const owner = await signedIn(t, "alice");
    for (const path of pages) {
      expect({ path, status: (await stranger.get(path)).status }).toEqual({ path, status: 404 });
      expect({ path, status: (await anonymous.get(path)).status }).toEqual({ path, status: 404 });
      expect({ path, status: (await owner.get(path)).status }).toEqual({ path, status: 200 });
    }
  });

  test("with the issues unit off, its pages are not found", async () => {
    const own = await populateRepo(t, aliceToken, "alice", "quiet");
    await t.ok("PATCH", "/api/v1/repos/alice/quiet", aliceToken, { has_issues: false }, 200);
    const web = new WebClient(t);
    expect((await web.get("/alice/quiet/issues")).status).toBe(404);
    expect((await web.get(`/alice/quiet/issues/${own.issue}`)).status).toBe(404);
    expect((await web.get("/alice/quiet/pulls")).status).toBe(200);
  });

  test("REQUIRE_SIGNIN_VIEW sends the anonymous to the sign-in page and back", async () => {
    const closedSite = makeTestApp("[service]\nREQUIRE_SIGNIN_VIEW = true\n");
    const owner = await closedSite.user("alice");
    await populateRepo(closedSite, closedSite.token(owner), "alice", "tools");
    const anonymous = new WebClient(closedSite);
    for (const path of ["/alice/tools/issues", "/alice/tools/issues/1", "/alice/tools/pulls/2", "/alice/tools/labels", "/alice/tools/milestones"]) {
      const res = await anonymous.get(path);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe(`/user/login?redirect_to=${encodeURIComponent(path)}`);
    }
    const web = await signedIn(closedSite, "alice");
    expect(await web.page("/alice/tools/issues")).toContain('href="/alice/tools/issues/1"');
  });
});
