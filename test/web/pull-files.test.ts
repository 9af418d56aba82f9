import { beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { populateRepo, type RepoFixture } from "../support/fixtures.ts";
import { WebClient, signedIn, visibleText } from "../support/web.ts";
import { pullDiffOrPatch } from "../../src/http/web/pages/repo/pull-files.ts";
import type { PageContext } from "../../src/http/web/page.ts";
import { doerFor, type Doer } from "../../src/services/access/permission.ts";
import type { UserRow } from "../../src/db/schema/index.ts";
import { NotFound, Redirect } from "../../src/lib/errors.ts";
import { ReadRefused } from "../../src/services/access/refusals.ts";

const API = "/api/v1/repos";
const b64 = (s: string) => Buffer.from(s).toString("base64");
const hrefs = (page: string) => [...page.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));
const boxes = (page: string) => [...page.matchAll(/<section class="diff-file box" id="(diff-[0-9a-f]{40})"/g)].map((m) => m[1]!);

describe("a pull request's files and commits", () => {
  const t = makeTestApp();
  let token: string;
  let fx: RepoFixture;
  let secret: RepoFixture;
  let bigPull: number;
  let bigHead: string;
  const anon = new WebClient(t);
  const users = new Map<string, UserRow>();

  beforeAll(async () => {
    const alice = await t.user("alice");
    users.set("alice", alice);
    users.set("mallory", await t.user("mallory"));
    token = t.token(alice);
    fx = await populateRepo(t, token, "alice", "tools");
    secret = await populateRepo(t, token, "alice", "secret", { private: true });
    // A request changing 130 files in two commits.
    await t.ok("POST", `${API}/alice/tools/branches`, token, { new_branch_name: "big", old_branch_name: "main" }, 201);
    const files = Array.from({ length: 120 }, (_, i) => ({ operation: "create", path: `gen/g${String(i).padStart(3, "0")}.ts`, content: b64(`export const n = ${i};\n`) }));
    await t.ok("POST", `${API}/alice/tools/contents`, token, { branch: "big", message: "Generate files", files }, 201);
    const more = Array.from({ length: 10 }, (_, i) => ({ operation: "create", path: `more/m${i}.md`, content: b64(`# ${i}\n`) }));
    bigHead = (await t.ok("POST", `${API}/alice/tools/contents`, token, { branch: "big", message: "Add more files", files: more }, 201)).commit.sha;
    bigPull = (await t.ok("POST", `${API}/alice/tools/pulls`, token, { head: "big", base: "main", title: "A big change" }, 201)).number;
  });

  test("the files page shows the request's changes from the merge base", async () => {
    const page = await anon.page(`/alice/tools/pulls/${fx.pull}/files`);
    const text = visibleText(page);
    expect(text).toContain("1 changed file with 1 addition and 0 deletions");
    expect(text).toContain("feat.txt");
    expect(text).toContain("alice wants to merge 1 commit from feat into main");
    expect(page).toMatch(/<tr class="add"><td class="ln"><\/td><td class="ln">1<\/td><td class="sign">\+<span class="sr-only">added<\/span><\/td><td class="code">feat<\/td><\/tr>/);
    // The tabs lead to the conversation and the commits, the current one marked.
    expect(hrefs(page)).toContain(`/alice/tools/pulls/${fx.pull}`);
    expect(hrefs(page)).toContain(`/alice/tools/pulls/${fx.pull}/commits`);
    expect(page).toContain(`<a href="/alice/tools/pulls/${fx.pull}/files" aria-current="page">`);
  });

  test("a big request is paged like a commit, every file linked to its page and box", async () => {
    const first = await anon.page(`/alice/tools/pulls/${bigPull}/files`);
    expect(visibleText(first)).toContain("130 changed files with 130 additions and 0 deletions");
    expect(boxes(first).length).toBe(100);
    const links = hrefs(first).filter((h) => /#diff-[0-9a-f]{40}$/.test(h));
    expect(links.length).toBe(130);
    const second = await anon.page(`/alice/tools/pulls/${bigPull}/files?page=2`);
    const onSecond = boxes(second);
    expect(onSecond.length).toBe(30);
    for (const link of links.filter((l) => l.startsWith("?page=2#"))) expect(onSecond).toContain(link.slice(link.indexOf("#") + 1));
    expect(links.filter((l) => l.startsWith("?page=2#")).length).toBe(30);
    await anon.page(`/alice/tools/pulls/${bigPull}/files?page=3`, 404);
    // The files' links open them at the head commit.
    expect(hrefs(first)).toContain(`/alice/tools/src/commit/${bigHead}/gen/g000.ts`);
  });

  test("the commits page lists the request's commits, newest first", async () => {
    const page = await anon.page(`/alice/tools/pulls/${bigPull}/commits`);
    const text = visibleText(page);
    expect(text.indexOf("Add more files")).toBeGreaterThan(0);
    expect(text.indexOf("Add more files")).toBeLessThan(text.indexOf("Generate files"));
    expect(hrefs(page)).toContain(`/alice/tools/commit/${bigHead}`);
    expect(page).toContain(`<a href="/alice/tools/pulls/${bigPull}/commits" aria-current="page">Commits <span class="counter">2</span></a>`);
    expect(page).toContain(`<a href="/alice/tools/pulls/${bigPull}/files">Files changed <span class="counter">130</span></a>`);
    const files = await anon.page(`/alice/tools/pulls/${bigPull}/files`);
    expect(files).toContain(`<a href="/alice/tools/pulls/${bigPull}/commits">Commits <span class="counter">2</span></a>`);
  });

  test("an issue's number, or a missing one, is 404", async () => {
    await anon.page(`/alice/tools/pulls/${fx.issue}/files`, 404);
    await anon.page("/alice/tools/pulls/999/files", 404);
    await anon.page("/alice/tools/pulls/999/commits", 404);
  });

  test("a private repository's request is 404 to strangers; with pull requests off, 404 to all", async () => {
    const stranger = await signedIn(t, "mallory");
    const owner = await signedIn(t, "alice");
    for (const p of ["files", "commits"]) {
      await anon.page(`/alice/secret/pulls/${secret.pull}/${p}`, 404);
      await stranger.page(`/alice/secret/pulls/${secret.pull}/${p}`, 404);
      await owner.page(`/alice/secret/pulls/${secret.pull}/${p}`);
    }
    await t.ok("PATCH", `${API}/alice/secret`, token, { has_pull_requests: false }, 200);
    await owner.page(`/alice/secret/pulls/${secret.pull}/files`, 404);
    await t.ok("PATCH", `${API}/alice/secret`, token, { has_pull_requests: true }, 200);
  });

  describe("pullDiffOrPatch, for /pulls/{index}.diff and .patch", () => {
    const call = (doerName: string | undefined, owner: string, repo: string, index: string, kind: "diff" | "patch", query = "") => {
      const url = new URL(`http://hearth.test/${owner}/${repo}/pulls/${index}.${kind}${query}`);
      const doer = doerName ? doerFor(users.get(doerName)!, undefined) : undefined;
      const ctx = { env: t.env, base: "", url, query: url.searchParams, doer } as unknown as PageContext & { doer: Doer | undefined };
      return pullDiffOrPatch(ctx, owner, repo, index, kind);
    };

    test("reached through /pulls/{index}.diff and .patch", async () => {
      const diff = await anon.get(`/alice/tools/pulls/${fx.pull}.diff`);
      expect(diff.status).toBe(200);
      expect(await diff.text()).toContain("diff --git a/feat.txt b/feat.txt");
      const patch = await anon.get(`/alice/tools/pulls/${fx.pull}.patch`);
      expect(await patch.text()).toMatch(/^From [0-9a-f]{40} /);
      await anon.page(`/alice/secret/pulls/${secret.pull}.diff`, 404);
    });

    test("the diff and the patch of a request, as plain text", async () => {
      const diff = await call(undefined, "alice", "tools", String(fx.pull), "diff");
      expect(diff.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      const text = await diff.text();
      expect(text).toContain("diff --git a/feat.txt b/feat.txt");
      expect(text).toContain("+feat");
      const patch = await (await call(undefined, "alice", "tools", String(fx.pull), "patch")).text();
      expect(patch).toMatch(/^From [0-9a-f]{40} /);
      expect(patch).toContain("Subject: [PATCH]");
    });

    /** An error the web door answers with 404 (what may not be read does not exist). */
    const notFound = async (p: Promise<Response>) => {
      const err = await p.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err instanceof NotFound || err instanceof ReadRefused).toBe(true);
    };

    test("what the caller may not see is refused as the pages refuse it", async () => {
      await notFound(call(undefined, "alice", "secret", String(secret.pull), "diff"));
      await notFound(call("mallory", "alice", "secret", String(secret.pull), "diff"));
      expect((await call("alice", "alice", "secret", String(secret.pull), "diff")).status).toBe(200);
      await notFound(call(undefined, "alice", "tools", String(fx.issue), "diff"));
      await notFound(call(undefined, "alice", "tools", "x", "patch"));
      await notFound(call(undefined, "alice", "nothing", "1", "patch"));
    });

    test("a renamed repository redirects to its new name", async () => {
      await t.ok("POST", "/api/v1/user/repos", token, { name: "old-name", auto_init: true }, 201);
      await t.ok("PATCH", `${API}/alice/old-name`, token, { name: "new-name" }, 200);
      const err = await call(undefined, "alice", "old-name", "1", "diff").then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(Redirect);
      expect((err as Redirect).location).toBe("/alice/new-name/pulls/1.diff");
    });
  });
});

describe("pull request files under REQUIRE_SIGNIN_VIEW", () => {
  const t = makeTestApp("[service]\nREQUIRE_SIGNIN_VIEW = true\n");
  test("the anonymous are sent to sign in", async () => {
    const alice = await t.user("alice");
    const fx = await populateRepo(t, t.token(alice), "alice", "tools");
    const anon = new WebClient(t);
    for (const p of ["files", "commits"]) {
      const res = await anon.get(`/alice/tools/pulls/${fx.pull}/${p}`);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toStartWith("/user/login?redirect_to=");
    }
    await (await signedIn(t, "alice")).page(`/alice/tools/pulls/${fx.pull}/files`);
  });
});
