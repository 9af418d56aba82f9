/**
 * The hook types' payload formats, against the texts of Gitea's services/webhook/*_test.go (the
 * fixtures below are Gitea's test payloads in their JSON form; Gitea's tests run with
 * AppURL https://try.gitea.io/, which is the users' html_url here).
 */
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import type { WebhookRow } from "../../src/db/schema/index.ts";
import type { HookEventType } from "../../src/services/webhook/event-types.ts";
import { formatDelivery, UnsupportedEventError } from "../../src/services/webhook/formats/index.ts";
import { hookConfigFromMeta, validateHookMeta } from "../../src/services/webhook/formats/meta.ts";
import { isValidSlackChannel } from "../../src/services/webhook/formats/slack.ts";
import { sanitizeTelegramHTML } from "../../src/services/webhook/formats/telegram.ts";
import { matrixTxnId } from "../../src/services/webhook/formats/matrix.ts";
import { goJSON } from "../../src/services/webhook/formats/json.ts";

type Json = Record<string, any>;

const user1 = { id: 1, login: "user1", full_name: "User One", avatar_url: "http://localhost:3000/user1/avatar", html_url: "https://try.gitea.io/user1" };
const repo = { id: 1, name: "repo", full_name: "test/repo", html_url: "http://localhost:3000/test/repo" };
const repo2 = { id: 2, name: "repo2", full_name: "test/repo2", html_url: "http://localhost:3000/test/repo2" };

const createPayload = () => ({ sha: "2020558fe2e34debb818a514715839cabd25e777", ref: "refs/heads/test", ref_type: "branch", repository: repo, sender: user1 });
const deletePayload = () => ({ ref: "refs/heads/test", ref_type: "branch", pusher_type: "user", repository: repo, sender: user1 });
const forkPayload = () => ({ forkee: repo2, repository: repo, sender: user1 });

function pushPayload(message = "commit message"): Json {
  const commit = {
    id: "2020558fe2e34debb818a514715839cabd25e778",
    message,
    url: "http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778",
    author: { name: "user1", email: "user1@localhost", username: "user1" },
    committer: { name: "user1", email: "user1@localhost", username: "user1" },
    verification: null,
    timestamp: "0001-01-01T00:00:00Z",
    added: null,
    removed: null,
    modified: null,
  };
  return {
    ref: "refs/heads/test",
    before: "2020558fe2e34debb818a514715839cabd25e777",
    after: "2020558fe2e34debb818a514715839cabd25e778",
    compare_url: "",
    commits: [commit, commit],
    total_commits: 2,
    head_commit: commit,
    repository: repo,
    pusher: user1,
    sender: user1,
  };
}

const milestone = { id: 1, title: "Milestone Title", description: "Milestone Description" };

const issuePayload = (action = "opened"): Json => ({
  action,
  number: 2,
  issue: {
    id: 2,
    number: 2,
    url: "http://localhost:3000/api/v1/repos/test/repo/issues/2",
    html_url: "http://localhost:3000/test/repo/issues/2",
    title: "crash",
    body: "issue body",
    user: user1,
    assignees: [user1],
    milestone,
  },
  repository: repo,
  sender: user1,
  commit_id: "",
});

const issueCommentPayload = (): Json => ({
  action: "created",
  issue: {
    id: 2,
    number: 2,
    url: "http://localhost:3000/api/v1/repos/test/repo/issues/2",
    html_url: "http://localhost:3000/test/repo/issues/2",
    title: "crash",
    body: "this happened",
    user: user1,
  },
  comment: { html_url: "http://localhost:3000/test/repo/issues/2#issuecomment-4", issue_url: "http://localhost:3000/test/repo/issues/2", pull_request_url: "", body: "more info needed" },
  repository: repo,
  sender: user1,
  is_pull: false,
});

const pullRequestCommentPayload = (): Json => ({
  action: "created",
  issue: {
    id: 12,
    number: 12,
    url: "http://localhost:3000/api/v1/repos/test/repo/pulls/12",
    html_url: "http://localhost:3000/test/repo/pulls/12",
    title: "Fix bug",
    body: "fixes bug #2",
    user: user1,
  },
  comment: { html_url: "http://localhost:3000/test/repo/pulls/12#issuecomment-4", issue_url: "", pull_request_url: "http://localhost:3000/test/repo/pulls/12", body: "changes requested" },
  repository: repo,
  sender: user1,
  is_pull: true,
});

const pullRequestPayload = (action = "opened", merged = false): Json => ({
  action,
  number: 12,
  pull_request: {
    id: 12,
    number: 12,
    url: "http://localhost:3000/test/repo/pulls/12",
    html_url: "http://localhost:3000/test/repo/pulls/12",
    title: "Fix bug",
    body: "fixes bug #2",
    mergeable: true,
    merged,
    user: user1,
    assignees: [user1],
    milestone,
  },
  repository: repo,
  sender: user1,
  commit_id: "",
  review: { type: "", content: "good job" },
});

const releasePayload = (): Json => ({
  action: "published",
  release: { tag_name: "v1.0", target_commitish: "master", name: "First stable release", body: "Note of first stable release", html_url: "http://localhost:3000/test/repo/releases/tag/v1.0" },
  repository: repo,
  sender: user1,
});

const repositoryPayload = (): Json => ({ action: "created", repository: repo, organization: user1, sender: user1 });
const wikiPayload = (action: string): Json => ({ action, repository: repo, sender: user1, page: "index", comment: "Wiki change comment" });
const packagePayload = (): Json => ({
  action: "created",
  repository: null,
  package: { id: 1, type: "container", name: "GiteaContainer", version: "latest", html_url: "http://localhost:3000/user1/-/packages/container/GiteaContainer/latest" },
  organization: { username: "org1" },
  sender: user1,
});
const statusPayload = (): Json => ({
  sha: "2020558fe2e34debb818a514715839cabd25e778",
  context: "ci/build",
  description: "all good",
  state: "success",
  target_url: "https://ci.example.com/1",
  repository: repo,
  sender: user1,
});

function hook(type: string, meta = "", url = `https://${type}.example.com/`): WebhookRow {
  return {
    id: 1,
    repoId: 1,
    ownerId: 0,
    isSystemWebhook: false,
    url,
    httpMethod: "POST",
    contentType: 1,
    secret: "",
    events: "{}",
    isActive: true,
    type,
    meta,
    lastStatus: 0,
    headerAuthorizationEncrypted: "",
    createdUnix: 0,
    updatedUnix: 0,
  };
}

/** The body a hook of `type` sends for `event`, parsed. */
function body(type: string, event: HookEventType, payload: Json, meta = ""): Json {
  const out = formatDelivery(hook(type, meta), event, payload);
  expect(out.contentType).toBe("application/json");
  return JSON.parse(out.body);
}

describe("slack", () => {
  const text = (event: HookEventType, payload: Json) => body("slack", event, payload).text;
  const R = "<http://localhost:3000/test/repo|test/repo>";
  const BY = "by <https://try.gitea.io/user1|user1>";

  test("refs, fork and push", () => {
    expect(text("create", createPayload())).toBe(`[${R}:<http://localhost:3000/test/repo/src/branch/test|test>] branch created by user1`);
    expect(text("delete", deletePayload())).toBe(`[${R}:test] branch deleted by user1`);
    expect(text("fork", forkPayload())).toBe(`<http://localhost:3000/test/repo2|test/repo2> is forked to ${R}`);
    expect(text("push", pushPayload())).toBe(`[${R}:<http://localhost:3000/test/repo/src/branch/test|test>] 2 new commits pushed by user1`);
  });

  test("push lists its commits in an attachment in the hook's colour", () => {
    const meta = JSON.stringify({ channel: "#dev", username: "gitea-bot", icon_url: "https://x/icon.png", color: "good" });
    const b = body("slack", "push", { ...pushPayload("fix <thing> & more\n\nbody"), compare_url: "http://localhost:3000/test/repo/compare/a...b" }, meta);
    expect(b.channel).toBe("#dev");
    expect(b.username).toBe("gitea-bot");
    expect(b.icon_url).toBe("https://x/icon.png");
    expect(b.text).toContain("<http://localhost:3000/test/repo/compare/a...b|2 new commits>");
    expect(b.attachments).toHaveLength(1);
    expect(b.attachments[0].color).toBe("good");
    expect(b.attachments[0].title).toBe("http://localhost:3000/test/repo");
    const line = "<http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778|2020558>: fix &lt;thing&gt; &amp; more - user1";
    expect(b.attachments[0].text).toBe(`${line}\n${line}`);
  });

  test("issues, comments, pull requests, reviews", () => {
    expect(text("issues", issuePayload("opened"))).toBe(`[${R}] Issue opened: <http://localhost:3000/test/repo/issues/2|#2 crash> ${BY}`);
    expect(text("issues", issuePayload("closed"))).toBe(`[${R}] Issue closed: <http://localhost:3000/test/repo/issues/2|#2 crash> ${BY}`);
    expect(text("issue_comment", issueCommentPayload())).toBe(`[${R}] New comment on issue <http://localhost:3000/test/repo/issues/2|#2 crash> ${BY}`);
    expect(text("pull_request", pullRequestPayload())).toBe(`[${R}] Pull request opened: <http://localhost:3000/test/repo/pulls/12|#12 Fix bug> ${BY}`);
    expect(text("pull_request_comment", pullRequestCommentPayload())).toBe(
      `[${R}] New comment on pull request <http://localhost:3000/test/repo/pulls/12|#12 Fix bug> ${BY}`,
    );
    expect(text("pull_request_review_approved", pullRequestPayload("reviewed"))).toBe(
      `[${R}] Pull request review approved: [#12 Fix bug](http://localhost:3000/test/repo/pulls/12) ${BY}`,
    );
    expect(text("pull_request", pullRequestPayload("closed", true))).toBe(`[${R}] Pull request merged: <http://localhost:3000/test/repo/pulls/12|#12 Fix bug> ${BY}`);
  });

  test("an opened issue carries its body, a closed one none", () => {
    const opened = body("slack", "issues", issuePayload("opened"));
    expect(opened.attachments).toEqual([{ fallback: "", color: "eb6420", title: "#2 crash", title_link: "http://localhost:3000/test/repo/issues/2", text: "issue body" }]);
    expect(body("slack", "issues", issuePayload("closed")).attachments).toBeNull();
  });

  test("repository, package, wiki, release, status", () => {
    expect(text("repository", repositoryPayload())).toBe(`[${R}] Repository created ${BY}`);
    expect(text("package", packagePayload())).toBe(
      `Package created: <http://localhost:3000/user1/-/packages/container/GiteaContainer/latest|GiteaContainer:latest> ${BY}`,
    );
    const page = "<http://localhost:3000/test/repo/wiki/index|index>";
    expect(text("wiki", wikiPayload("created"))).toBe(`[${R}] New wiki page '${page}' (Wiki change comment) ${BY}`);
    expect(text("wiki", wikiPayload("edited"))).toBe(`[${R}] Wiki page '${page}' edited (Wiki change comment) ${BY}`);
    expect(text("wiki", wikiPayload("deleted"))).toBe(`[${R}] Wiki page '${page}' deleted ${BY}`);
    expect(text("release", releasePayload())).toBe(`[${R}] Release created: <http://localhost:3000/test/repo/releases/tag/v1.0|v1.0> ${BY}`);
    expect(text("status", statusPayload())).toBe(
      `Commit Status changed: <https://ci.example.com/1|ci/build[2020558fe2e34debb818a514715839cabd25e778]:all good> ${BY}`,
    );
  });

  test("IsValidSlackChannel", () => {
    const cases: [string, boolean][] = [["gitea", true], ["#gitea", true], ["  ", false], ["#", false], [" #", false], ["gitea   ", false], ["  gitea", false]];
    for (const [name, ok] of cases) expect(isValidSlackChannel(name)).toBe(ok);
  });
});

describe("discord", () => {
  const embed = (event: HookEventType, payload: Json, meta = "") => {
    const b = body("discord", event, payload, meta);
    expect(b.embeds).toHaveLength(1);
    expect(b.embeds[0].author).toEqual({ name: "user1", url: "https://try.gitea.io/user1", icon_url: "http://localhost:3000/user1/avatar" });
    return b.embeds[0];
  };
  const commitLine = (summary: string) => `[2020558](http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778) ${summary} - user1`;

  test("refs and fork", () => {
    expect(embed("create", createPayload())).toMatchObject({ title: "[test/repo] branch test created", description: "", url: "http://localhost:3000/test/repo/src/test", color: 0x1ac600 });
    expect(embed("delete", deletePayload())).toMatchObject({ title: "[test/repo] branch test deleted", url: "http://localhost:3000/test/repo/src/test", color: 0xff3232 });
    expect(embed("fork", forkPayload())).toMatchObject({ title: "test/repo2 is forked to test/repo", url: "http://localhost:3000/test/repo" });
  });

  test("push: the summary line of each commit, cut at 50 characters", () => {
    expect(embed("push", pushPayload())).toMatchObject({
      title: "[test/repo:test] 2 new commits",
      description: `${commitLine("commit message")}\n${commitLine("commit message")}`,
      url: "http://localhost:3000/test/repo/src/test",
    });
    const multiline = embed("push", pushPayload("chore: This is a commit summary\n\nThis is a commit description."));
    expect(multiline.description).toBe(`${commitLine("chore: This is a commit summary")}\n${commitLine("chore: This is a commit summary")}`);
    const long = embed("push", pushPayload("This is a commit summary ⚠️⚠️⚠️⚠️ containing 你好 ⚠️⚠️️\n\nThis is the message body"));
    const cut = commitLine("This is a commit summary ⚠️⚠️⚠️⚠️ containing 你好...");
    expect(long.description).toBe(`${cut}\n${cut}`);
  });

  test("issues, comments, pull requests, reviews, release", () => {
    expect(embed("issues", issuePayload("opened"))).toMatchObject({ title: "[test/repo] Issue opened: #2 crash", description: "issue body", url: "http://localhost:3000/test/repo/issues/2", color: 0xeb6420 });
    expect(embed("issues", issuePayload("closed"))).toMatchObject({ title: "[test/repo] Issue closed: #2 crash", description: "" });
    expect(embed("issue_comment", issueCommentPayload())).toMatchObject({
      title: "[test/repo] New comment on issue #2 crash",
      description: "more info needed",
      url: "http://localhost:3000/test/repo/issues/2#issuecomment-4",
    });
    expect(embed("pull_request", pullRequestPayload())).toMatchObject({ title: "[test/repo] Pull request opened: #12 Fix bug", description: "fixes bug #2", url: "http://localhost:3000/test/repo/pulls/12" });
    expect(embed("pull_request", pullRequestPayload("closed", true))).toMatchObject({ title: "[test/repo] Pull request merged: #12 Fix bug", color: 0x7289da });
    expect(embed("pull_request_comment", pullRequestCommentPayload())).toMatchObject({ title: "[test/repo] New comment on pull request #12 Fix bug", description: "changes requested" });
    expect(embed("pull_request_review_approved", pullRequestPayload("reviewed"))).toMatchObject({ title: "[test/repo] Pull request review approved: #12 Fix bug", description: "good job", color: 0x1ac600 });
    expect(embed("pull_request_review_rejected", pullRequestPayload("reviewed"))).toMatchObject({ title: "[test/repo] Pull request review rejected: #12 Fix bug", color: 0xff3232 });
    expect(embed("release", releasePayload())).toMatchObject({ title: "[test/repo] Release created: v1.0", description: "Note of first stable release", url: "http://localhost:3000/test/repo/releases/tag/v1.0" });
    expect(embed("wiki", wikiPayload("deleted"))).toMatchObject({ title: "[test/repo] Wiki page 'index' deleted", description: "", url: "http://localhost:3000/test/repo/wiki/index" });
    expect(embed("package", packagePayload())).toMatchObject({ title: "Package created: GiteaContainer:latest", url: "http://localhost:3000/user1/-/packages/container/GiteaContainer/latest" });
  });

  test("the hook's username and icon; no avatar_url without an icon", () => {
    const withIcon = body("discord", "push", pushPayload(), JSON.stringify({ username: "bot", icon_url: "https://x/i.png" }));
    expect(withIcon.username).toBe("bot");
    expect(withIcon.avatar_url).toBe("https://x/i.png");
    const plain = body("discord", "push", pushPayload());
    expect(plain.username).toBe("");
    expect("avatar_url" in plain).toBe(false);
  });
});

describe("dingtalk", () => {
  const card = (event: HookEventType, payload: Json) => body("dingtalk", event, payload).actionCard;
  /** The page the card's button opens (DingTalk's browser link wraps it). */
  const realURL = (singleURL: string) => {
    const u = new URL(singleURL);
    expect(`${u.protocol}//${u.host}${u.pathname}`).toBe("dingtalk://dingtalkclient/page/link");
    return u.searchParams.get("url");
  };

  test("Gitea's cards", () => {
    const push = card("push", pushPayload());
    const line = "[2020558](http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778) commit message - user1";
    expect(push.text).toBe(`${line}\r\n${line}`);
    expect(push.title).toBe("[test/repo:test] 2 new commits");
    expect(push.singleTitle).toBe("view commits");
    expect(realURL(push.singleURL)).toBe("http://localhost:3000/test/repo/src/test");

    const issue = card("issues", issuePayload("opened"));
    expect(issue).toMatchObject({ text: "[test/repo] Issue opened: #2 crash by user1\r\n\r\nissue body", title: "#2 crash", singleTitle: "view issue", hideAvatar: "0" });
    expect(realURL(issue.singleURL)).toBe("http://localhost:3000/test/repo/issues/2");
    expect(card("issues", issuePayload("closed")).text).toBe("[test/repo] Issue closed: #2 crash by user1");

    const comment = card("issue_comment", issueCommentPayload());
    expect(comment).toMatchObject({ text: "[test/repo] New comment on issue #2 crash by user1\r\n\r\nmore info needed", title: "#2 crash", singleTitle: "view issue comment" });
    expect(realURL(comment.singleURL)).toBe("http://localhost:3000/test/repo/issues/2#issuecomment-4");

    expect(card("pull_request", pullRequestPayload())).toMatchObject({ text: "[test/repo] Pull request opened: #12 Fix bug by user1\r\n\r\nfixes bug #2", title: "#12 Fix bug" });
    expect(card("pull_request_review_approved", pullRequestPayload("reviewed"))).toMatchObject({
      text: "[test/repo] Pull request review approved : #12 Fix bug\r\n\r\ngood job",
      title: "[test/repo] Pull request review approved : #12 Fix bug",
    });
    const release = card("release", releasePayload());
    expect(release).toMatchObject({ text: "[test/repo] Release created: v1.0 by user1", singleTitle: "view release" });
    expect(realURL(release.singleURL)).toBe("http://localhost:3000/test/repo/releases/tag/v1.0");
    expect(card("create", createPayload())).toMatchObject({ text: "[test/repo] branch test created", singleTitle: "view ref test" });
  });

  test("a deleted repository is a text message", () => {
    const b = body("dingtalk", "repository", { ...repositoryPayload(), action: "deleted" });
    expect(b.msgtype).toBe("text");
    expect(b.text.content).toBe("[test/repo] Repository deleted");
    expect(body("dingtalk", "push", pushPayload()).msgtype).toBe("actionCard");
  });
});

describe("telegram", () => {
  const text = (event: HookEventType, payload: Json) => {
    const b = body("telegram", event, payload);
    expect(b.parse_mode).toBe("HTML");
    expect(b.disable_web_page_preview).toBe(true);
    return b.text;
  };
  const a = (href: string, t: string) => `<a href="${href}" rel="nofollow">${t}</a>`;
  const R = a("http://localhost:3000/test/repo", "test/repo");
  const BY = `by ${a("https://try.gitea.io/user1", "user1")}`;

  test("sanitizing: links gain nofollow, other tags go", () => {
    expect(sanitizeTelegramHTML(`<a href=".">testMsg</a> <bad>`).trim()).toBe(`<a href="." rel="nofollow">testMsg</a>`);
  });

  test("Gitea's messages", () => {
    expect(text("create", createPayload())).toBe(`[${R}] branch ${a("http://localhost:3000/test/repo/src/test", "test")} created`);
    expect(text("fork", forkPayload())).toBe(`test/repo2 is forked to ${R}`);
    const commit = `[${a("http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778", "2020558")}] commit message - user1`;
    expect(text("push", pushPayload())).toBe(`[${R}:${a("http://localhost:3000/test/repo/src/test", "test")}] 2 new commits\n${commit}\n${commit}`);
    expect(text("issues", issuePayload("opened"))).toBe(`[${R}] Issue opened: ${a("http://localhost:3000/test/repo/issues/2", "#2 crash")} ${BY}\n\nissue body`);
    expect(text("issues", issuePayload("closed"))).toBe(`[${R}] Issue closed: ${a("http://localhost:3000/test/repo/issues/2", "#2 crash")} ${BY}`);
    expect(text("issue_comment", issueCommentPayload())).toBe(`[${R}] New comment on issue ${a("http://localhost:3000/test/repo/issues/2", "#2 crash")} ${BY}\nmore info needed`);
    expect(text("pull_request", pullRequestPayload())).toBe(`[${R}] Pull request opened: ${a("http://localhost:3000/test/repo/pulls/12", "#12 Fix bug")} ${BY}\nfixes bug #2`);
    expect(text("pull_request_review_approved", pullRequestPayload("reviewed"))).toBe("[test/repo] Pull request review approved: #12 Fix bug\ngood job");
    expect(text("repository", repositoryPayload())).toBe(`[${R}] Repository created`);
    expect(text("wiki", wikiPayload("created"))).toBe(`[${R}] New wiki page &#39;${a("http://localhost:3000/test/repo/wiki/index", "index")}&#39; (Wiki change comment) ${BY}`);
    expect(text("release", releasePayload())).toBe(`[${R}] Release created: ${a("http://localhost:3000/test/repo/releases/tag/v1.0", "v1.0")} ${BY}`);
  });

  test("markup in a body stays text", () => {
    const p = issuePayload("opened");
    p.issue.body = "<script>alert(1)</script> & 'x'";
    expect(text("issues", p)).toEndWith("\n\n&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#39;x&#39;");
  });

  test("sent to the hook's own URL (bot and chat are in it)", () => {
    const out = formatDelivery(hook("telegram", "", "https://api.telegram.org/bot123:abc/sendMessage?chat_id=-1"), "push", pushPayload());
    expect(out.url).toBeUndefined();
    expect(out.method).toBeUndefined();
  });
});

describe("msteams", () => {
  test("a MessageCard with facts and a View in Gitea button", () => {
    const b = body("msteams", "push", pushPayload());
    expect(b["@type"]).toBe("MessageCard");
    expect(b["@context"]).toBe("https://schema.org/extensions");
    expect(b.themeColor).toBe("1ac600");
    expect(b.title).toBe("[test/repo:test] 2 new commits");
    expect(b.summary).toBe(b.title);
    const line = "[2020558](http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778) commit message - user1";
    expect(b.sections).toEqual([
      {
        activityTitle: "User One",
        activitySubtitle: "user1",
        activityImage: "http://localhost:3000/user1/avatar",
        facts: [
          { name: "Repository:", value: "test/repo" },
          { name: "Commit count:", value: "2" },
        ],
        text: `${line}\n\n${line}`,
      },
    ]);
    expect(b.potentialAction).toEqual([{ "@type": "OpenUri", name: "View in Gitea", targets: [{ os: "default", uri: "http://localhost:3000/test/repo/src/test" }] }]);
  });

  test("issues, pull requests, reviews, releases", () => {
    const issue = body("msteams", "issues", issuePayload("opened"));
    expect(issue.title).toBe("[test/repo] Issue opened: #2 crash");
    expect(issue.sections[0].text).toBe("issue body");
    expect(issue.sections[0].facts[1]).toEqual({ name: "Issue #:", value: "2" });
    const merged = body("msteams", "pull_request", pullRequestPayload("closed", true));
    expect(merged.title).toBe("[test/repo] Pull request merged: #12 Fix bug");
    expect(merged.themeColor).toBe("7289da");
    expect(body("msteams", "pull_request_review_comment", pullRequestPayload("reviewed"))).toMatchObject({ title: "[test/repo] Pull request review comment: #12 Fix bug", themeColor: "4f545c" });
    const release = body("msteams", "release", releasePayload());
    expect(release.title).toBe("[test/repo] Release created: v1.0");
    expect(release.sections[0].facts[1]).toEqual({ name: "Tag:", value: "v1.0" });
    expect(release.potentialAction[0].targets[0].uri).toBe("http://localhost:3000/test/repo/releases/tag/v1.0");
  });
});

describe("feishu", () => {
  const text = (event: HookEventType, payload: Json) => {
    const b = body("feishu", event, payload);
    expect(b.msg_type).toBe("text");
    return b.content.text;
  };

  test("Gitea's texts", () => {
    expect(text("create", createPayload())).toBe("[test/repo] branch test created");
    expect(text("delete", deletePayload())).toBe("[test/repo] branch test deleted");
    expect(text("fork", forkPayload())).toBe("test/repo2 is forked to test/repo");
    const line = "[2020558](http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778) commit message - user1";
    expect(text("push", pushPayload())).toBe(`[test/repo:test] \r\n${line}\r\n${line}`);
    expect(text("issues", issuePayload("opened"))).toBe(
      "[Issue-test/repo #2]: opened\ncrash\nhttp://localhost:3000/test/repo/issues/2\nIssue by user1\nOperator: user1\nAssignees: user1\n\nissue body",
    );
    expect(text("issues", issuePayload("closed"))).toBe(
      "[Issue-test/repo #2]: closed\ncrash\nhttp://localhost:3000/test/repo/issues/2\nIssue by user1\nOperator: user1\nAssignees: user1\n\nissue body",
    );
    expect(text("issue_comment", issueCommentPayload())).toBe("[Comment-test/repo #2]: created\ncrash\nhttp://localhost:3000/test/repo/issues/2\nIssue by user1\nOperator: user1\n\nmore info needed");
    expect(text("pull_request", pullRequestPayload())).toBe(
      "[PullRequest-test/repo #12]: opened\nFix bug\nhttp://localhost:3000/test/repo/pulls/12\nPullRequest by user1\nOperator: user1\nAssignees: user1\n\nfixes bug #2",
    );
    expect(text("pull_request_comment", pullRequestCommentPayload())).toBe(
      "[Comment-test/repo #12]: created\nFix bug\nhttp://localhost:3000/test/repo/pulls/12\nPullRequest by user1\nOperator: user1\n\nchanges requested",
    );
    expect(text("pull_request_review_approved", pullRequestPayload("reviewed"))).toBe("[test/repo] Pull request review approved : #12 Fix bug\r\n\r\ngood job");
    expect(text("repository", repositoryPayload())).toBe("[test/repo] Repository created");
    expect(text("package", packagePayload())).toBe("Package created: GiteaContainer:latest by user1");
    expect(text("wiki", wikiPayload("created"))).toBe("[test/repo] New wiki page 'index' (Wiki change comment) by user1");
    expect(text("wiki", wikiPayload("deleted"))).toBe("[test/repo] Wiki page 'index' deleted by user1");
    expect(text("release", releasePayload())).toBe("[test/repo] Release created: v1.0 by user1");
  });

  test("an assignment names who assigned whom", () => {
    expect(text("issue_assign", issuePayload("assigned"))).toBe(
      "[Issue-test/repo #2]: assigned\ncrash\nhttp://localhost:3000/test/repo/issues/2\nIssue by user1\nOperator: user1\nuser1 assign this to user1\nAssignees: user1\n\nissue body",
    );
  });
});

describe("matrix", () => {
  const matrixHook = (meta = JSON.stringify({ homeserver_url: "https://matrix.example.com", room_id: "!room:example.com", message_type: 2 })) =>
    hook("matrix", meta, "https://matrix.example.com/_matrix/client/r0/rooms/%21room%3Aexample.com/send/m.room.message");
  const msg = (event: HookEventType, payload: Json) => JSON.parse(formatDelivery(matrixHook(), event, payload).body);

  test("Gitea's bodies: HTML and its Markdown twin", () => {
    const create = msg("create", createPayload());
    expect(create.body).toBe("[[test/repo](http://localhost:3000/test/repo):[test](http://localhost:3000/test/repo/src/branch/test)] branch created by user1");
    expect(create.formatted_body).toBe(`[<a href="http://localhost:3000/test/repo">test/repo</a>:<a href="http://localhost:3000/test/repo/src/branch/test">test</a>] branch created by user1`);
    expect(create.format).toBe("org.matrix.custom.html");
    expect(create.msgtype).toBe("m.text");
    expect("io.gitea.commits" in create).toBe(false);

    const push = msg("push", pushPayload());
    const c = "[2020558](http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778): commit message - user1";
    expect(push.body).toBe(`[[test/repo](http://localhost:3000/test/repo)] user1 pushed 2 commits to [test](http://localhost:3000/test/repo/src/branch/test):\n${c}\n${c}`);
    expect(push["io.gitea.commits"]).toHaveLength(2);
    expect(push["io.gitea.commits"][0].id).toBe("2020558fe2e34debb818a514715839cabd25e778");

    expect(msg("issues", issuePayload("opened")).formatted_body).toBe(
      `[<a href="http://localhost:3000/test/repo">test/repo</a>] Issue opened: <a href="http://localhost:3000/test/repo/issues/2">#2 crash</a> by <a href="https://try.gitea.io/user1">user1</a>`,
    );
    expect(msg("pull_request_review_approved", pullRequestPayload("reviewed")).body).toBe(
      "[[test/repo](http://localhost:3000/test/repo)] Pull request review approved: [#12 Fix bug](http://localhost:3000/test/repo/pulls/12) by [user1](https://try.gitea.io/user1)",
    );
    expect(msg("package", packagePayload()).body).toBe(
      "[[GiteaContainer](http://localhost:3000/user1/-/packages/container/GiteaContainer/latest)] Package published by [user1](https://try.gitea.io/user1)",
    );
    expect(msg("release", releasePayload()).body).toBe(
      "[[test/repo](http://localhost:3000/test/repo)] Release created: [v1.0](http://localhost:3000/test/repo/releases/tag/v1.0) by [user1](https://try.gitea.io/user1)",
    );
    expect(msg("status", statusPayload()).body).toBe("Commit Status changed: [ci/build [2020558fe2]](https://ci.example.com/1) - all good");
  });

  test("PUT to the room's send endpoint, the transaction id being the SHA-1 of the body", () => {
    const out = formatDelivery(matrixHook(), "push", pushPayload());
    expect(out.method).toBe("PUT");
    const txn = createHash("sha1").update(out.body).digest("hex");
    expect(out.url).toBe(`https://matrix.example.com/_matrix/client/r0/rooms/%21room%3Aexample.com/send/m.room.message/${txn}`);
    // The same payload is the same transaction: a redelivery is not posted twice.
    expect(formatDelivery(matrixHook(), "push", pushPayload()).url).toBe(out.url);
    expect(matrixTxnId("Hello World")).toBe("0a4d55a8d778e5022fab701977c5d840bbc486d0");
  });

  test("message types; a body of 64 KiB is refused", () => {
    const notice = formatDelivery(matrixHook(JSON.stringify({ homeserver_url: "", room_id: "", message_type: 1 })), "push", pushPayload());
    expect(JSON.parse(notice.body).msgtype).toBe("m.notice");
    // No meta (a hook made through Gitea's API): the web form's default.
    expect(JSON.parse(formatDelivery(matrixHook(""), "push", pushPayload()).body).msgtype).toBe("m.notice");
    expect(() => formatDelivery(matrixHook(), "push", pushPayload("x".repeat(70 * 1024)))).toThrow(/payload size/);
  });
});

describe("wechatwork", () => {
  test("markdown messages", () => {
    const push = body("wechatwork", "push", pushPayload("fix\n\nbody"));
    expect(push.msgtype).toBe("markdown");
    const line = ` > [2020558](http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778) \r\n ><font color="info">fix\r\nbody</font> \n ><font color="warning">Author: user1</font>`;
    expect(push.markdown.content).toBe(`# test/repo:test <font color="warning">    </font>\r\n\r\n${line}\n${line}`);
    expect(body("wechatwork", "issues", issuePayload("opened")).markdown.content).toBe(
      ` ><font color="info">[test/repo] Issue opened: #2 crash by user1</font>\n >issue body \n ><font color="warning"> #2 crash</font> \n [http://localhost:3000/test/repo/issues/2](http://localhost:3000/test/repo/issues/2)`,
    );
    expect(body("wechatwork", "pull_request", pullRequestPayload("closed", true)).markdown.content).toBe(
      `> <font color="info"> [test/repo] Pull request merged: #12 Fix bug by user1 </font> \r\n > <font color="comment">#12 Fix bug </font> \r\n > <font color="comment"> </font> \r\n`,
    );
    expect(body("wechatwork", "release", releasePayload()).markdown.content).toBe("[test/repo] Release created: v1.0 by user1");
    expect(body("wechatwork", "pull_request_review_rejected", pullRequestPayload("reviewed")).markdown.content).toBe(
      "# [test/repo] Pull request review rejected : #12 Fix bug\r\n\r\n >good job",
    );
  });
});

describe("packagist", () => {
  const meta = JSON.stringify({ username: "u", api_token: "t", package_url: "https://packagist.org/packages/acme/lib" });
  test("a push asks Packagist to update the package", () => {
    const out = formatDelivery(hook("packagist", meta, "https://packagist.org/api/update-package?username=u&apiToken=t"), "push", pushPayload());
    expect(out.contentType).toBe("application/json");
    expect(out.url).toBeUndefined();
    expect(JSON.parse(out.body)).toEqual({ repository: { url: "https://packagist.org/packages/acme/lib" } });
  });
  test("other events send Gitea's empty payload", () => {
    expect(body("packagist", "release", releasePayload(), meta)).toEqual({ repository: { url: "" } });
  });
});

describe("gitea and gogs", () => {
  test("both send the stored payload itself, as JSON or as a form", () => {
    const payload = pushPayload();
    for (const type of ["gitea", "gogs"]) {
      const json = formatDelivery(hook(type), "push", payload);
      expect(json.contentType).toBe("application/json");
      expect(JSON.parse(json.body)).toEqual(payload);
      const form = formatDelivery({ ...hook(type), contentType: 2 }, "push", payload);
      expect(form.contentType).toBe("application/x-www-form-urlencoded");
      expect(JSON.parse(new URLSearchParams(form.body).get("payload") ?? "")).toEqual(payload);
    }
  });
});

describe("events a chat type has no message for", () => {
  test("fail the delivery as in Gitea", () => {
    for (const type of ["slack", "discord", "dingtalk", "telegram", "msteams", "feishu", "matrix", "wechatwork", "packagist"]) {
      expect(() => formatDelivery(hook(type), "workflow_job", {})).toThrow(UnsupportedEventError);
    }
  });
});

describe("Go's JSON", () => {
  test("indented by two spaces, HTML characters escaped", () => {
    expect(goJSON({ a: "<b>&</b>", n: [1] })).toBe('{\n  "a": "\\u003cb\\u003e\\u0026\\u003c/b\\u003e",\n  "n": [\n    1\n  ]\n}');
  });
});

describe("validateHookMeta", () => {
  test("slack needs a valid channel (Gitea's messages and statuses)", () => {
    expect(validateHookMeta("slack", { url: "https://x", content_type: "json" })).toEqual({ error: "Missing config option: channel", status: 422 });
    expect(validateHookMeta("slack", { channel: "Not Valid" })).toEqual({ error: "Invalid slack channel name", status: 400 });
    const ok = validateHookMeta("slack", { channel: "  #dev ", username: "bot", color: "good" });
    expect(ok).toEqual({ meta: '{"channel":"#dev","username":"bot","icon_url":"","color":"good"}' });
    if (!("meta" in ok)) throw new Error("unreachable");
    expect(hookConfigFromMeta("slack", ok.meta)).toEqual({ channel: "#dev", username: "bot", icon_url: "", color: "good" });
  });

  test("types Gitea's API gives no settings need none; given ones are kept", () => {
    for (const type of ["gitea", "gogs", "dingtalk", "msteams", "feishu", "wechatwork", "telegram", "discord", "matrix", "packagist"]) {
      expect(validateHookMeta(type, { url: "https://x", content_type: "json" })).toEqual({ meta: "" });
    }
    expect(validateHookMeta("discord", { username: "bot", icon_url: "https://x/i.png" })).toEqual({ meta: '{"username":"bot","icon_url":"https://x/i.png"}' });
    expect(validateHookMeta("telegram", { bot_token: "1:a", chat_id: "-5" })).toEqual({ meta: '{"bot_token":"1:a","chat_id":"-5","thread_id":""}' });
    expect(validateHookMeta("packagist", { username: "u", api_token: "t", package_url: "https://p" })).toEqual({
      meta: '{"username":"u","api_token":"t","package_url":"https://p"}',
    });
    expect(validateHookMeta("matrix", { room_id: "!r:x" })).toEqual({ meta: '{"homeserver_url":"","room_id":"!r:x","message_type":1}' });
    expect(validateHookMeta("matrix", { room_id: "!r:x", message_type: "m.text" })).toEqual({ meta: '{"homeserver_url":"","room_id":"!r:x","message_type":2}' });
    expect(validateHookMeta("matrix", { message_type: "3" })).toEqual({ error: "Invalid config option: message_type", status: 422 });
    expect(hookConfigFromMeta("discord", '{"username":"bot"}')).toEqual({});
  });

  test("an edit changes settings only when the config names them", () => {
    const slack = '{"channel":"#dev","username":"bot","icon_url":"","color":""}';
    expect(validateHookMeta("slack", { url: "https://y" }, slack)).toEqual({ meta: slack });
    expect(validateHookMeta("slack", { channel: "#ops" }, slack)).toEqual({ meta: '{"channel":"#ops","username":"","icon_url":"","color":""}' });
    const matrix = '{"homeserver_url":"https://m","room_id":"!r:x","message_type":2}';
    expect(validateHookMeta("matrix", { url: "https://y" }, matrix)).toEqual({ meta: matrix });
    expect(validateHookMeta("matrix", { room_id: "!s:x" }, matrix)).toEqual({ meta: '{"homeserver_url":"https://m","room_id":"!s:x","message_type":2}' });
    expect(validateHookMeta("gitea", { url: "https://y" }, "")).toEqual({ meta: "" });
  });
});
