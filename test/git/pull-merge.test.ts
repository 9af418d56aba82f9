import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { authUrl, gitOk } from "../support/git.ts";
import { startSmtpSink } from "../support/smtp-sink.ts";
import { gitDirOf } from "../../src/services/repo/lookup.ts";
import { pullSyncIdle } from "../../src/services/pull/push-sync.ts";
import { autoMergeIdle } from "../../src/services/pull/automerge.ts";
import { flushMail } from "../../src/services/mail/outbox.ts";

/**
 * The pull request lifecycle end to end with the real git client: push a branch, open a request,
 * merge it in every style, and see what the repository and the API say afterwards.
 */

const sink = await startSmtpSink();
afterAll(() => sink.close());
const t = makeTestApp(
  `[mailer]\nENABLED = true\nPROTOCOL = smtp\nSMTP_ADDR = 127.0.0.1\nSMTP_PORT = ${sink.port}\nFROM = forge@forge.test\n[service]\nENABLE_NOTIFY_MAIL = true\n`,
  { listen: true },
);
const alice = await t.user("alice", { password: "alice-pass" });
const bob = await t.user("bob", { password: "bob-pass", email: "bob@example.com" });
const carol = await t.user("carol", { password: "carol-pass" });
const aliceToken = t.token(alice);
const bobToken = t.token(bob);
const carolToken = t.token(carol);
const api = (rest = "", repo = "alice/m") => `/api/v1/repos/${repo}${rest}`;
const gitDir = gitDirOf(t.env, { name: "alice" }, { name: "m" });
const git = (...args: string[]) => gitOk(["--git-dir", gitDir, ...args]).then((s) => s.trim());

expect((await t.json("POST", "/api/v1/user/repos", { token: aliceToken, body: { name: "m", auto_init: true } })).status).toBe(201);
await t.ok("PUT", api("/collaborators/bob"), aliceToken, { permission: "write" }, 204);
await t.ok("PUT", api("/collaborators/carol"), aliceToken, { permission: "read" }, 204);
// Gitea changes merge settings only together with has_pull_requests.
await t.ok("PATCH", api(), aliceToken, { has_pull_requests: true, allow_manual_merge: true });

const work = join(mkdtempSync(join(tmpdir(), "hearth-merge-")), "w");
await gitOk(["clone", "-q", authUrl(t.baseUrl, "alice/m.git", "bob", "bob-pass"), work]);
const wgit = (...args: string[]) => gitOk(args, { cwd: work }).then((s) => s.trim());

async function commitFiles(files: Record<string, string>, message: string) {
  for (const [name, content] of Object.entries(files)) {
    await Bun.write(join(work, name), content);
    await wgit("add", name);
  }
  await wgit("commit", "-q", "-m", message);
}

/** Pushes a branch made of `commits` on top of the current main and opens a request for it (as bob). */
async function openPull(branch: string, commits: Record<string, string>[], title = branch, body = ""): Promise<number> {
  await wgit("fetch", "-q", "origin");
  await wgit("checkout", "-q", "-B", branch, "origin/main");
  for (const [i, files] of commits.entries()) await commitFiles(files, `${branch} ${i + 1}`);
  await wgit("push", "-q", "-f", "origin", branch);
  const pr = await t.ok("POST", api("/pulls"), bobToken, { head: branch, base: "main", title, body }, 201);
  await pullSyncIdle(t.env);
  return pr.number;
}

/** Moves main forward (as alice would by pushing), so merges have something to merge against. */
async function advanceMain(file: string, content: string) {
  await wgit("fetch", "-q", "origin");
  await wgit("checkout", "-q", "-B", "main", "origin/main");
  await commitFiles({ [file]: content }, `main: ${file}`);
  await wgit("push", "-q", "origin", "main");
  await pullSyncIdle(t.env);
}

const merge = (index: number, body: Record<string, unknown>, token = aliceToken) => t.json("POST", api(`/pulls/${index}/merge`), { token, body });
const pull = (index: number) => t.ok("GET", api(`/pulls/${index}`), aliceToken);
const parents = async (rev: string) => (await git("rev-list", "--parents", "-n", "1", rev)).split(" ").slice(1);

describe("merge styles", () => {
  test("merge: a merge commit with Gitea's message; the request is merged and closed", async () => {
    const n = await openPull("m-merge", [{ "merge.txt": "merge\n" }], "Merge style");
    await advanceMain("main1.txt", "1\n");
    const before = await git("rev-parse", "main");
    const head = await git("rev-parse", `refs/pull/${n}/head`);
    expect((await t.json("GET", api(`/pulls/${n}/merge`), { token: aliceToken })).status).toBe(404);
    const r = await merge(n, { Do: "merge" });
    expect(r.status).toBe(200);
    const tip = await git("rev-parse", "main");
    expect(await parents(tip)).toEqual([before, head]);
    expect(await git("log", "-1", "--format=%B", tip)).toBe(`Merge pull request 'Merge style' (#${n}) from m-merge into main`);
    expect(await git("log", "-1", "--format=%an <%ae>|%cn", tip)).toBe("alice <alice@example.com>|alice");
    expect((await t.json("GET", api(`/pulls/${n}/merge`), { token: aliceToken })).status).toBe(204);
    const p = await pull(n);
    expect(p).toMatchObject({ merged: true, state: "closed", merge_commit_sha: tip });
    expect(p.merged_by.login).toBe("alice");
    expect(p.merged_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    // The branch table follows the new tip, like after a push.
    expect((await t.ok("GET", api("/branches/main"), aliceToken)).commit.id).toBe(tip);
    const timeline = await t.ok("GET", api(`/issues/${n}/timeline`), aliceToken);
    expect(timeline.map((e: any) => e.type)).toContain("merge_pull");
    // The merge commit leads back to its request.
    expect((await t.ok("GET", api(`/commits/${tip}/pull`), aliceToken)).number).toBe(n);
    expect((await t.json("GET", api(`/commits/${before}/pull`), { token: aliceToken })).status).toBe(404);
    expect((await t.json("GET", api("/commits/main/pull"), { token: aliceToken })).status).toBe(404);
    // A merged request cannot be merged again.
    expect((await merge(n, { Do: "merge" })).status).toBe(405);
  });

  test("squash: one commit by the poster, committed by the merger, title and message as given", async () => {
    const n = await openPull("m-squash", [{ "s1.txt": "1\n" }, { "s2.txt": "2\n" }], "Squash style");
    const before = await git("rev-parse", "main");
    const r = await merge(n, { Do: "squash", MergeTitleField: "  Squashed title  ", MergeMessageField: "Body line\n" });
    expect(r.status).toBe(200);
    const tip = await git("rev-parse", "main");
    expect(await parents(tip)).toEqual([before]);
    expect(await git("log", "-1", "--format=%an|%cn", tip)).toBe("bob|alice");
    expect(await git("log", "-1", "--format=%B", tip)).toBe(
      "Squashed title\n\nBody line\n\nCo-authored-by: bob <bob@example.com>\nCo-committed-by: bob <bob@example.com>",
    );
    expect(await git("show", `${tip}:s2.txt`)).toBe("2");
  });

  test("rebase: the commits replayed onto main, authors kept, no merge commit", async () => {
    const n = await openPull("m-rebase", [{ "r1.txt": "1\n" }, { "r2.txt": "2\n" }]);
    await advanceMain("main2.txt", "2\n");
    const before = await git("rev-parse", "main");
    expect((await merge(n, { Do: "rebase" })).status).toBe(200);
    const log = (await git("log", "--format=%s|%an|%cn", `${before}..main`)).split("\n");
    expect(log).toEqual(["m-rebase 2|Test|alice", "m-rebase 1|Test|alice"]);
    expect(await parents("main")).toHaveLength(1);
    expect((await pull(n)).merge_commit_sha).toBe(await git("rev-parse", "main"));
  });

  test("rebase-merge: rebased commits joined by a merge commit", async () => {
    const n = await openPull("m-rebase-merge", [{ "rm.txt": "1\n" }]);
    await advanceMain("main3.txt", "3\n");
    const before = await git("rev-parse", "main");
    expect((await merge(n, { Do: "rebase-merge" })).status).toBe(200);
    const [first, second] = await parents("main");
    expect(first).toBe(before);
    expect(await parents(second!)).toEqual([before]);
    expect(await git("log", "-1", "--format=%s", second!)).toBe("m-rebase-merge 1");
  });

  test("fast-forward-only: refused while main has diverged (repository untouched), done after updating the branch", async () => {
    const n = await openPull("m-ff", [{ "ff.txt": "1\n" }]);
    await advanceMain("main4.txt", "4\n");
    const before = await git("rev-parse", "main");
    const r = await merge(n, { Do: "fast-forward-only" });
    expect(r.status).toBe(409);
    expect(await git("rev-parse", "main")).toBe(before);
    // Rebase the head onto main through the API, then the fast-forward works.
    expect((await t.json("POST", api(`/pulls/${n}/update?style=rebase`), { token: bobToken })).status).toBe(200);
    await pullSyncIdle(t.env);
    const head = await git("rev-parse", "m-ff");
    expect(await git("merge-base", "main", "m-ff")).toBe(before);
    expect((await merge(n, { Do: "fast-forward-only" })).status).toBe(200);
    expect(await git("rev-parse", "main")).toBe(head);
  });

  test("manually-merged: only a full commit id contained in the base branch is accepted", async () => {
    const n = await openPull("m-manual", [{ "manual.txt": "1\n" }]);
    const head = await git("rev-parse", "m-manual");
    expect((await merge(n, { Do: "manually-merged", MergeCommitID: head })).status).toBe(409);
    expect((await merge(n, { Do: "manually-merged", MergeCommitID: head.slice(0, 10) })).status).toBe(409);
    // Merged outside hearth: the head lands on main by a push.
    await wgit("push", "-q", "origin", "m-manual:main");
    await pullSyncIdle(t.env);
    expect((await merge(n, { Do: "manually-merged", MergeCommitID: head })).status).toBe(200);
    const p = await pull(n);
    expect(p).toMatchObject({ merged: true, merge_commit_sha: head, state: "closed" });
  });

  test("update by merge: the base is merged into the head branch", async () => {
    const n = await openPull("m-update", [{ "upd.txt": "1\n" }]);
    await advanceMain("main5.txt", "5\n");
    const main = await git("rev-parse", "main");
    const old = await git("rev-parse", "m-update");
    expect((await t.json("POST", api(`/pulls/${n}/update`), { token: bobToken })).status).toBe(200);
    const tip = await git("rev-parse", "m-update");
    expect(await parents(tip)).toEqual([old, main]);
    expect(await git("log", "-1", "--format=%s", tip)).toBe("Merge branch 'main' into m-update");
    await pullSyncIdle(t.env);
    expect((await pull(n)).head.sha).toBe(tip);
    // A reader may not update; an unknown style is refused.
    expect((await t.json("POST", api(`/pulls/${n}/update`), { token: carolToken })).status).toBe(403);
    expect((await t.json("POST", api(`/pulls/${n}/update?style=squash`), { token: bobToken })).status).toBe(422);
  });
});

describe("changes through the contents API", () => {
  test("a file committed to a request's head branch moves the request, as a push would", async () => {
    const n = await openPull("m-contents", [{ "contents.txt": "1\n" }]);
    await t.ok("POST", api("/contents/more.txt"), bobToken, { content: btoa("more\n"), branch: "m-contents", message: "more" }, 201);
    await pullSyncIdle(t.env);
    const tip = await git("rev-parse", "m-contents");
    const p = await pull(n);
    expect(p.head.sha).toBe(tip);
    expect(await git("rev-parse", `refs/pull/${n}/head`)).toBe(tip);
    expect((await t.ok("GET", api(`/pulls/${n}/files`), aliceToken)).map((f: any) => f.filename)).toEqual(["contents.txt", "more.txt"]);
  });
});

describe("merge messages and side effects", () => {
  test("the repository's template gives title and description; closing keywords close issues; the head branch can go", async () => {
    await advanceMain(".gitea/default_merge_message/MERGE_TEMPLATE.md", "Merge #${PullRequestIndex}: $PullRequestTitle\n\nFrom $HeadBranch by $PullRequestPosterName\n$ClosingIssues\n");
    const issue = await t.ok("POST", api("/issues"), aliceToken, { title: "A bug" }, 201);
    const n = await openPull("m-template", [{ "tpl.txt": "1\n" }], "Fix it", `Fixes #${issue.number}`);
    expect((await merge(n, { Do: "merge", delete_branch_after_merge: true })).status).toBe(200);
    expect(await git("log", "-1", "--format=%B", "main")).toBe(`Merge #${n}: Fix it\n\nFrom m-template by bob\nclose #${issue.number}`);
    expect((await t.ok("GET", api(`/issues/${issue.number}`), aliceToken)).state).toBe("closed");
    expect((await t.json("GET", api("/branches/m-template"), { token: aliceToken })).status).toBe(404);
    expect(await gitOk(["--git-dir", gitDir, "branch", "--list", "m-template"])).toBe("");
  });

  test("bad requests and refusals leave the repository as it was", async () => {
    const n = await openPull("m-refuse", [{ "refuse.txt": "1\n" }]);
    const before = await git("rev-parse", "main");
    expect((await merge(n, { Do: "octopus" })).status).toBe(422);
    expect((await merge(n, {})).status).toBe(422);
    expect((await t.json("POST", api(`/pulls/${n}/merge`), { body: { Do: "merge" } })).status).toBe(401);
    expect((await merge(9999, { Do: "merge" })).status).toBe(404);
    const reader = await merge(n, { Do: "merge" }, carolToken);
    expect(reader.status).toBe(405);
    expect(reader.body.message).toBe("User not allowed to merge PR");
    const stale = await merge(n, { Do: "merge", head_commit_id: before });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe("head out of date");
    await t.ok("PATCH", api(), aliceToken, { has_pull_requests: true, allow_squash_merge: false });
    expect((await merge(n, { Do: "squash" })).status).toBe(405);
    await t.ok("PATCH", api(), aliceToken, { has_pull_requests: true, allow_squash_merge: true });
    await t.ok("PATCH", api(`/pulls/${n}`), bobToken, { title: "WIP: not yet" }, 201);
    expect((await merge(n, { Do: "merge" })).status).toBe(405);
    expect(await git("rev-parse", "main")).toBe(before);
  });

  test("a conflicting request is refused and main is untouched", async () => {
    const n = await openPull("m-clash", [{ "clash.txt": "theirs\n" }]);
    await advanceMain("clash.txt", "ours\n");
    const before = await git("rev-parse", "main");
    const p = await pull(n);
    expect(p.mergeable).toBe(false);
    const r = await merge(n, { Do: "merge" });
    expect(r.status).toBe(405);
    expect(await git("rev-parse", "main")).toBe(before);
    expect((await pull(n)).merged).toBe(false);
  });
});

describe("branch protection on merge, and merging when checks succeed", () => {
  test("approvals and status checks block the merge; a repository admin may force it", async () => {
    await t.ok("POST", api("/branch_protections"), aliceToken, { rule_name: "main", enable_push: true, required_approvals: 1 }, 201);
    const n = await openPull("m-protected", [{ "prot.txt": "1\n" }]);
    const r = await merge(n, { Do: "merge" });
    expect(r.status).toBe(405);
    expect(r.body.message).toContain("Does not have enough approvals");
    // bob (a writer, not an admin) cannot force; alice (owner) can.
    expect((await merge(n, { Do: "merge", force_merge: true }, bobToken)).status).toBe(405);
    expect((await merge(n, { Do: "merge", force_merge: true })).status).toBe(200);
  });

  test("an official approval satisfies the rule; a scheduled merge waiting for it happens when it is given", async () => {
    const n = await openPull("m-approved", [{ "approved.txt": "1\n" }]);
    expect((await merge(n, { Do: "merge", merge_when_checks_succeed: true }, bobToken)).status).toBe(201);
    await autoMergeIdle(t.env);
    expect((await pull(n)).merged).toBe(false);
    // carol only reads: her approval is not official and does not count.
    await t.ok("POST", api(`/pulls/${n}/reviews`), carolToken, { event: "APPROVED", body: "fine by me" });
    await autoMergeIdle(t.env);
    expect((await pull(n)).merged).toBe(false);
    await t.ok("POST", api(`/pulls/${n}/reviews`), aliceToken, { event: "APPROVED", body: "ship it" });
    await Bun.sleep(20);
    await autoMergeIdle(t.env);
    const p = await pull(n);
    expect(p.merged).toBe(true);
    expect(p.merged_by.login).toBe("bob");
    await t.ok("DELETE", api("/branch_protections/main"), aliceToken, undefined, 204);
  });

  test("merge_when_checks_succeed waits for the required statuses, merges as the scheduler and mails them", async () => {
    await t.ok("POST", api("/branch_protections"), aliceToken, { rule_name: "main", enable_push: true, enable_status_check: true, status_check_contexts: ["ci/*"] }, 201);
    const n = await openPull("m-auto", [{ "auto.txt": "1\n" }], "Automerge me");
    const head = await git("rev-parse", "m-auto");
    expect((await merge(n, { Do: "merge" })).status).toBe(405);
    expect((await merge(n, { Do: "squash", merge_when_checks_succeed: true })).status).toBe(201);
    expect((await merge(n, { Do: "squash", merge_when_checks_succeed: true })).status).toBe(409);
    await t.ok("POST", api(`/statuses/${head}`), aliceToken, { state: "pending", context: "ci/build" }, 201);
    await autoMergeIdle(t.env);
    expect((await pull(n)).merged).toBe(false);
    // Mail of earlier merges (carol reviewed one) goes out first, so the window holds this merge's alone.
    await flushMail(t.env);
    sink.mails.length = 0;
    await t.ok("POST", api(`/statuses/${head}`), aliceToken, { state: "success", context: "ci/build" }, 201);
    await Bun.sleep(20);
    await autoMergeIdle(t.env);
    const p = await pull(n);
    expect(p.merged).toBe(true);
    expect(p.merged_by.login).toBe("alice");
    expect(await git("log", "-1", "--format=%s", "main")).toBe(`Automerge me (#${n})`);
    const timeline = await t.ok("GET", api(`/issues/${n}/timeline`), aliceToken);
    expect(timeline.map((e: any) => e.type)).toContain("pull_scheduled_merge");
    // The scheduler (alice) hears of the merge by mail, as does the poster.
    await flushMail(t.env);
    const mails = await sink.waitFor(2);
    expect(mails.flatMap((m) => m.rcptTo).sort()).toEqual(["alice@example.com", "bob@example.com"]);
    expect(mails[0]!.parsed.subject).toBe(`Re: [alice/m] Automerge me (#${n})`);
  });

  test("without required checks a scheduled merge happens right away", async () => {
    await t.ok("PATCH", api("/branch_protections/main"), aliceToken, { enable_status_check: false });
    const n = await openPull("m-auto-now", [{ "now.txt": "1\n" }]);
    expect((await merge(n, { Do: "merge", merge_when_checks_succeed: true }, bobToken)).status).toBe(201);
    await autoMergeIdle(t.env);
    const p = await pull(n);
    expect(p.merged).toBe(true);
    expect(p.merged_by.login).toBe("bob");
    await t.ok("PATCH", api("/branch_protections/main"), aliceToken, { enable_status_check: true });
  });

  test("a scheduled merge can be cancelled by its scheduler or an admin, and then does not happen", async () => {
    const n = await openPull("m-cancel", [{ "cancel.txt": "1\n" }]);
    const head = await git("rev-parse", "m-cancel");
    expect((await t.json("DELETE", api(`/pulls/${n}/merge`), { token: aliceToken })).status).toBe(404);
    expect((await merge(n, { Do: "merge", merge_when_checks_succeed: true }, bobToken)).status).toBe(201);
    const other = await t.user("dave");
    await t.ok("PUT", api("/collaborators/dave"), aliceToken, { permission: "write" }, 204);
    expect((await t.json("DELETE", api(`/pulls/${n}/merge`), { token: t.token(other) })).status).toBe(403);
    expect((await t.json("DELETE", api(`/pulls/${n}/merge`), { token: bobToken })).status).toBe(204);
    await t.ok("POST", api(`/statuses/${head}`), aliceToken, { state: "success", context: "ci/build" }, 201);
    await Bun.sleep(20);
    await autoMergeIdle(t.env);
    expect((await pull(n)).merged).toBe(false);
    const timeline = await t.ok("GET", api(`/issues/${n}/timeline`), aliceToken);
    expect(timeline.map((e: any) => e.type)).toContain("pull_cancel_scheduled_merge");
  });
});
