import { beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, ROOT_URL } from "../support/app.ts";
import { populateRepo, type RepoFixture } from "../support/fixtures.ts";
import { WebClient, signedIn, visibleText } from "../support/web.ts";

const t = makeTestApp();
const API = "/api/v1/repos/alice/tools";
const alice = await t.user("alice");
const bob = await t.user("bob");
await t.user("carol");
const aliceToken = t.token(alice);
const bobToken = t.token(bob);

const pathOf = (url: string) => `/${url.slice(ROOT_URL.length)}`;

let fx: RepoFixture;
let secret: RepoFixture;
let second: any;

beforeAll(async () => {
  fx = await populateRepo(t, aliceToken, "alice", "tools");
  secret = await populateRepo(t, aliceToken, "alice", "secret", { private: true });
  await t.ok("PUT", `${API}/collaborators/bob`, aliceToken, { permission: "write" }, 204);
  // A second request, to merge: branch `two` with one more file.
  await t.ok("POST", `${API}/branches`, aliceToken, { new_branch_name: "two", old_branch_name: "main" }, 201);
  await t.ok("POST", `${API}/contents/two.txt`, aliceToken, { content: btoa("two\n"), branch: "two" }, 201);
  second = await t.ok("POST", `${API}/pulls`, aliceToken, { head: "two", base: "main", title: "WIP: Add two", body: "Adds **two**." }, 201);
});

describe("the pull request list", () => {
  test("open pull requests with their state, number and author; issues are not in it", async () => {
    const web = new WebClient(t);
    const page = await web.page("/alice/tools/pulls");
    const text = visibleText(page);
    expect(text).toContain("2 Open");
    expect(page).toContain(`href="/alice/tools/pulls/${fx.pull}"`);
    expect(page).toContain(`href="/alice/tools/pulls/${second.number}"`);
    expect(text).toContain("Open pull request");
    expect(text).toContain("Draft");
    expect(page).not.toContain('href="/alice/tools/issues/1"');
    expect(await web.page("/alice/tools/pulls?q=two")).not.toContain(`href="/alice/tools/pulls/${fx.pull}"`);
    expect(await web.page("/alice/tools/pulls?state=closed")).toContain("There are no closed pull requests.");
  });
});

describe("a pull request's conversation", () => {
  test("the html_url of a pull request and of its comments open the page; branches, state and tabs are shown", async () => {
    const web = new WebClient(t);
    const pull = await t.ok("GET", `${API}/pulls/${fx.pull}`, undefined);
    const comment = await t.ok("POST", `${API}/issues/${fx.pull}/comments`, bobToken, { body: "Looks *fine*." }, 201);
    expect(pathOf(comment.html_url)).toBe(`/alice/tools/pulls/${fx.pull}#issuecomment-${comment.id}`);
    const page = await web.page(pathOf(pull.html_url));
    const text = visibleText(page);
    expect(page).toContain(`id="issuecomment-${comment.id}"`);
    expect(page).toContain("<em>fine</em>");
    expect(text).toMatch(/alice wants to merge 1 commit from feat into main/);
    expect(page).toContain('href="/alice/tools/src/branch/feat"');
    expect(page).toContain(`href="/alice/tools/pulls/${fx.pull}/commits"`);
    expect(page).toContain(`href="/alice/tools/pulls/${fx.pull}/files"`);
    expect(text).toContain("This pull request can be merged automatically.");
    expect(text).toContain("Files changed 1");
    // The issue-shaped html_url of a pull request (from the issues API) is the same page.
    const asIssue = await t.ok("GET", `${API}/issues/${fx.pull}`, undefined);
    expect(pathOf(asIssue.html_url)).toBe(`/alice/tools/pulls/${fx.pull}`);
    expect(pathOf(asIssue.pull_request.html_url)).toBe(`/alice/tools/pulls/${fx.pull}`);
  });

  test("the diff and the patch are answered on the conversation's route, as Gitea's", async () => {
    const web = new WebClient(t);
    const pull = await t.ok("GET", `${API}/pulls/${fx.pull}`, undefined);
    const diff = await web.get(pathOf(pull.diff_url));
    expect(diff.status).toBe(200);
    expect(diff.headers.get("content-type")).toContain("text/plain");
    expect(await diff.text()).toContain("feat.txt");
    const patch = await web.get(pathOf(pull.patch_url));
    expect(patch.status).toBe(200);
    expect(await patch.text()).toContain("Subject:");
    expect((await web.get("/alice/tools/pulls/999.diff")).status).toBe(404);
    expect((await web.get(`/alice/secret/pulls/${secret.pull}.diff`)).status).toBe(404);
  });

  test("reviews: the tally, each reviewer's standing, the review's words and its code comments by their html_url", async () => {
    await t.ok("POST", `${API}/pulls/${fx.pull}/reviews`, bobToken, {
      event: "REQUEST_CHANGES",
      body: "Please rename.",
      comments: [{ path: "feat.txt", body: "This *line*.", new_position: 1 }],
    }, 200);
    await t.ok("POST", `${API}/pulls/${fx.pull}/requested_reviewers`, aliceToken, { reviewers: ["carol"] }, 201);
    const web = new WebClient(t);
    const page = await web.page(`/alice/tools/pulls/${fx.pull}`);
    const text = visibleText(page);
    expect(text).toContain("bob requested changes");
    expect(text).toContain("Please rename.");
    expect(page).toContain("<em>line</em>");
    expect(text).toContain("1 change request · 1 waiting review");
    expect(text).toMatch(/Reviewers bob Requested changes carol Review requested/);
    expect(text).toContain("alice requested review from carol");
    const reviews = await t.ok("GET", `${API}/pulls/${fx.pull}/reviews`, undefined);
    const [path, anchor] = pathOf(reviews[0].html_url).split("#");
    expect(path).toBe(`/alice/tools/pulls/${fx.pull}`);
    expect(page).toContain(`id="${anchor}"`);
    const codeComments = await t.ok("GET", `${API}/pulls/${fx.pull}/reviews/${reviews[0].id}/comments`, undefined);
    expect(page).toContain(`id="${pathOf(codeComments[0].html_url).split("#")[1]}"`);
    await t.ok("POST", `${API}/pulls/${fx.pull}/reviews`, bobToken, { event: "APPROVED", body: "" }, 200);
    const after = visibleText(await web.page(`/alice/tools/pulls/${fx.pull}`));
    expect(after).toContain("bob approved these changes");
    expect(after).toContain("1 approval");
  });

  test("commit statuses of the head are summed up", async () => {
    const pull = await t.ok("GET", `${API}/pulls/${second.number}`, undefined);
    await t.ok("POST", `${API}/statuses/${pull.head.sha}`, aliceToken, { state: "success", context: "ci/build", target_url: "https://ci.example/1", description: "built" }, 201);
    await t.ok("POST", `${API}/statuses/${pull.head.sha}`, aliceToken, { state: "failure", context: "ci/lint", target_url: "javascript:alert(1)" }, 201);
    const page = await new WebClient(t).page(`/alice/tools/pulls/${second.number}`);
    const text = visibleText(page);
    expect(text).toContain("Some checks were not successful");
    expect(text).toContain("Succeeded ci/build — built");
    expect(text).toContain("Failed ci/lint");
    expect(page).toContain('href="https://ci.example/1"');
    expect(page).not.toMatch(/href="javascript:/i);
    expect(text).toContain("This pull request is marked as a work in progress.");
  });

  test("a merged pull request: its state, who merged which commit, and the merge in the timeline", async () => {
    await t.ok("PATCH", `${API}/pulls/${second.number}`, aliceToken, { title: "Add two" }, 201);
    await t.ok("POST", `${API}/pulls/${second.number}/merge`, aliceToken, { Do: "merge" }, 200);
    const pull = await t.ok("GET", `${API}/pulls/${second.number}`, undefined);
    expect(pull.merged).toBe(true);
    const web = new WebClient(t);
    const page = await web.page(`/alice/tools/pulls/${second.number}`);
    const text = visibleText(page);
    expect(page).toContain('<span class="state merged">Merged</span>');
    expect(text).toMatch(/alice merged 1 commit from two into main/);
    expect(page).toContain(`href="/alice/tools/commit/${pull.merge_commit_sha}"`);
    expect(text).toContain(`merged commit ${pull.merge_commit_sha.slice(0, 10)} into main`);
    expect(text).toContain("changed title from WIP: Add two to Add two");
    const closed = await web.page("/alice/tools/pulls?state=closed");
    expect(visibleText(closed)).toContain("Merged pull request");
    expect(closed).toContain(`href="/alice/tools/pulls/${second.number}"`);
  });
});

describe("who may see", () => {
  test("a stranger and the anonymous get 404 for a private repository's pull requests; a writer sees them", async () => {
    const paths = ["/alice/secret/pulls", `/alice/secret/pulls/${secret.pull}`];
    const stranger = await signedIn(t, "carol");
    const anonymous = new WebClient(t);
    for (const path of paths) {
      expect({ path, status: (await stranger.get(path)).status }).toEqual({ path, status: 404 });
      expect({ path, status: (await anonymous.get(path)).status }).toEqual({ path, status: 404 });
    }
    await t.ok("PUT", "/api/v1/repos/alice/secret/collaborators/bob", aliceToken, { permission: "read" }, 204);
    const reader = await signedIn(t, "bob");
    for (const path of paths) expect((await reader.get(path)).status).toBe(200);
  });

  test("with pull requests switched off, their pages are not found", async () => {
    const own = await populateRepo(t, aliceToken, "alice", "nopulls");
    await t.ok("PATCH", "/api/v1/repos/alice/nopulls", aliceToken, { has_pull_requests: false }, 200);
    const web = new WebClient(t);
    expect((await web.get("/alice/nopulls/pulls")).status).toBe(404);
    expect((await web.get(`/alice/nopulls/pulls/${own.pull}`)).status).toBe(404);
    expect((await web.get("/alice/nopulls/issues")).status).toBe(200);
  });
});
