import { beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { populateRepo, type RepoFixture } from "../support/fixtures.ts";
import { WebClient, signedIn, visibleText } from "../support/web.ts";

const API = "/api/v1/repos";
const b64 = (s: string | Uint8Array) => Buffer.from(s).toString("base64");
const pathOf = (url: string) => new URL(url).pathname;

/** The hrefs of a page, as written (escaped). */
const hrefs = (page: string) => [...page.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));

describe("history, commits, branches, tags and compare pages", () => {
  // Two commits a page, so paging shows with few commits.
  const t = makeTestApp("[ui]\nCOMMITS_PAGING_NUM = 2\n");
  let token: string;
  let fx: RepoFixture;
  const anon = new WebClient(t);
  let big: { sha: string; html: string };
  let rename: string;
  let slashBranchHead: string;

  beforeAll(async () => {
    const alice = await t.user("alice");
    await t.user("mallory");
    token = t.token(alice);
    fx = await populateRepo(t, token, "alice", "tools");
    await populateRepo(t, token, "alice", "secret", { private: true });
    await t.ok("POST", "/api/v1/user/repos", token, { name: "empty" }, 201);
    const change = (body: unknown) => t.ok("POST", `${API}/alice/tools/contents`, token, body, 201);

    // A branch whose name holds a slash, with a file of its own.
    await t.ok("POST", `${API}/alice/tools/branches`, token, { new_branch_name: "feature/x", old_branch_name: "main" }, 201);
    const onSlash = await t.ok("POST", `${API}/alice/tools/contents/docs/notes.md`, token, { content: b64("notes\n"), branch: "feature/x", message: "Notes on the slash branch" }, 201);
    slashBranchHead = onSlash.commit.sha;

    // A big commit on main: 150 small files, one long file, one binary file.
    const files = Array.from({ length: 150 }, (_, i) => ({ operation: "create", path: `many/f${String(i).padStart(3, "0")}.txt`, content: b64(`file ${i}\n`) }));
    files.push({ operation: "create", path: "long.txt", content: b64(Array.from({ length: 1500 }, (_, i) => `line ${i}`).join("\n") + "\n") });
    files.push({ operation: "create", path: "logo.bin", content: b64(new Uint8Array([0, 1, 2, 0, 255, 0, 7])) });
    const made = await change({ message: "Add many files\n\nThe body explains <why>.", files });
    const sha = made.commit.sha as string;
    const commit = await t.ok("GET", `${API}/alice/tools/git/commits/${sha}`, token);
    big = { sha, html: commit.html_url };

    // A rename with a small edit, then an edit of README.md.
    const moved = await change({ message: "Rename a file", files: [{ operation: "rename", path: "moved/f000.txt", from_path: "many/f000.txt" }] });
    rename = moved.commit.sha;
    const readme = await t.ok("GET", `${API}/alice/tools/contents/README.md`, token);
    await t.ok("PUT", `${API}/alice/tools/contents/README.md`, token, { content: b64("# tools\n\nEdited.\n"), sha: readme.sha, message: "Edit the README" }, 200);
  });

  describe("the history", () => {
    test("a branch's commits, newest first, each linked to its page, two a page", async () => {
      const page = await anon.page("/alice/tools/commits/branch/main");
      const text = visibleText(page);
      expect(text).toContain("Edit the README");
      expect(text).toContain("Rename a file");
      expect(text).not.toContain("Add many files");
      expect(text.indexOf("Edit the README")).toBeLessThan(text.indexOf("Rename a file"));
      expect(hrefs(page)).toContain(`/alice/tools/commit/${rename}`);
      // No total to count: the next page is offered, the previous is not.
      expect(page).toContain('rel="next"');
      expect(page).not.toContain('rel="prev"');
      const second = await anon.page("/alice/tools/commits/branch/main?page=2");
      expect(visibleText(second)).toContain("Add many files");
      expect(second).toContain('rel="prev"');
      // The commit body is one click away, escaped.
      expect(second).toContain("The body explains &lt;why&gt;.");
    });

    test("the last page has no older link, and a page past the end is 404", async () => {
      let n = 1;
      for (;;) {
        const page = await anon.page(`/alice/tools/commits/branch/main?page=${n}`);
        if (!page.includes('rel="next"')) break;
        n++;
      }
      // main: the first commit, the big one, the rename, the README's edit.
      expect(n).toBe(2);
      await anon.page(`/alice/tools/commits/branch/main?page=${n + 1}`, 404);
    });

    test("a path's history lists only the commits touching it", async () => {
      const page = await anon.page("/alice/tools/commits/branch/main/README.md");
      const text = visibleText(page);
      expect(text).toContain("Edit the README");
      expect(text).not.toContain("Rename a file");
      expect(text).toContain("History of tools / README.md");
      // A path no commit touched.
      expect(visibleText(await anon.page("/alice/tools/commits/branch/main/nothing/here"))).toContain("No commits touch this path");
    });

    test("a branch name with a slash is resolved before the path, as Gitea does", async () => {
      const page = await anon.page("/alice/tools/commits/branch/feature/x/docs/notes.md");
      expect(visibleText(page)).toContain("Notes on the slash branch");
      expect(visibleText(page)).toContain("On branch feature/x");
      expect(hrefs(page)).toContain(`/alice/tools/commit/${slashBranchHead}`);
      // The crumbs link the directory's own history.
      expect(hrefs(page)).toContain("/alice/tools/commits/branch/feature/x/docs");
      await anon.page("/alice/tools/commits/branch/feature/y", 404);
    });

    test("tags, commits and the default branch have histories; the old untyped URL redirects", async () => {
      expect(visibleText(await anon.page(`/alice/tools/commits/tag/${fx.tag}`))).toContain("On tag v1");
      expect(visibleText(await anon.page(`/alice/tools/commits/commit/${rename.slice(0, 10)}`))).toContain("Rename a file");
      expect(visibleText(await anon.page("/alice/tools/commits"))).toContain("Edit the README");
      const legacy = await anon.get("/alice/tools/commits/feature/x/docs?page=1");
      expect(legacy.status).toBe(303);
      expect(legacy.headers.get("location")).toBe("/alice/tools/commits/branch/feature/x/docs?page=1");
      const byTag = await anon.get("/alice/tools/commits/v1");
      expect(byTag.headers.get("location")).toBe("/alice/tools/commits/tag/v1");
      await anon.page("/alice/tools/commits/commit/zzzzzzz", 404);
      await anon.page("/alice/tools/commits/commit/0123456789abcdef", 404);
    });

    test("an empty repository has no history (404)", async () => {
      const owner = await signedIn(t, "alice");
      await owner.page("/alice/empty/commits", 404);
      await owner.page("/alice/empty/branches", 404);
    });
  });

  describe("a commit", () => {
    test("the API's html_url opens it: message, parents, files with counts", async () => {
      const page = await anon.page(pathOf(big.html));
      const text = visibleText(page);
      expect(text).toContain("Add many files");
      expect(text).toContain("The body explains <why>.");
      expect(text).toContain(big.sha);
      expect(text).toContain("152 changed files with 1650 additions and 0 deletions");
      const parent = (await t.ok("GET", `${API}/alice/tools/git/commits/${big.sha}`, token)).parents[0].sha as string;
      expect(hrefs(page)).toContain(`/alice/tools/commit/${parent}`);
      expect(hrefs(page)).toContain(`/alice/tools/src/commit/${big.sha}`);
    });

    test("a big commit is paged: at most 100 files a page, every file linked to its page and box", async () => {
      const first = await anon.page(`/alice/tools/commit/${big.sha}`);
      const boxes = (p: string) => [...p.matchAll(/<section class="diff-file box" id="(diff-[0-9a-f]{40})"/g)].map((m) => m[1]!);
      const onFirst = boxes(first);
      expect(onFirst.length).toBeLessThanOrEqual(100);
      expect(visibleText(first)).toContain("page 1 of");
      // Every file of the commit is in the list, each link going to the page that shows its box.
      const links = hrefs(first).filter((h) => /#diff-[0-9a-f]{40}$/.test(h));
      expect(links.length).toBe(152);
      const shown = new Set(onFirst);
      const pagesSeen = new Set<string>();
      for (const link of links) {
        const anchor = link.slice(link.indexOf("#") + 1);
        if (link.startsWith("#")) expect(shown.has(anchor)).toBe(true);
        else pagesSeen.add(link.slice(0, link.indexOf("#")));
      }
      let total = onFirst.length;
      for (const query of pagesSeen) {
        const other = await anon.page(`/alice/tools/commit/${big.sha}${query}`);
        const ids = boxes(other);
        expect(ids.length).toBeLessThanOrEqual(100);
        for (const link of links.filter((l) => l.startsWith(`${query}#`))) expect(ids).toContain(link.slice(link.indexOf("#") + 1));
        total += ids.length;
      }
      expect(total).toBe(152);
      await anon.page(`/alice/tools/commit/${big.sha}?page=${pagesSeen.size + 2}`, 404);
    });

    test("a long file is cut with links to the whole file; a binary file is not shown", async () => {
      let longPage = "";
      let binPage = "";
      for (let p = 1; p <= 3 && (!longPage || !binPage); p++) {
        const res = await anon.get(`/alice/tools/commit/${big.sha}?page=${p}`);
        if (res.status !== 200) break;
        const page = await res.text();
        if (page.includes(">long.txt</h3>")) longPage = page;
        if (page.includes(">logo.bin</h3>")) binPage = page;
      }
      expect(visibleText(longPage)).toContain("This diff is cut after 1000 lines.");
      expect(hrefs(longPage)).toContain(`/alice/tools/raw/commit/${big.sha}/long.txt`);
      expect(longPage).not.toContain("line 1200");
      expect(visibleText(binPage)).toContain("Binary file not shown.");
    });

    test("a rename is shown as one, with both names", async () => {
      const page = await anon.page(`/alice/tools/commit/${rename}`);
      const text = visibleText(page);
      expect(text).toContain("many/f000.txt → moved/f000.txt");
      expect(text).toContain("Renamed 100%");
      expect(text).toContain("File renamed without changes.");
    });

    test("the diff table has line numbers, signs and hunk headers", async () => {
      const readmeCommit = (await t.ok("GET", `${API}/alice/tools/commits?sha=main&limit=1`, token))[0];
      const page = await anon.page(pathOf(readmeCommit.html_url));
      expect(page).toContain('<table class="code diff">');
      expect(page).toMatch(/<tr class="hunk">.*@@ -1,\d+ \+1,\d+ @@/);
      expect(page).toMatch(/<tr class="add"><td class="ln"><\/td><td class="ln">3<\/td><td class="sign">\+<span class="sr-only">added<\/span><\/td><td class="code">Edited.<\/td><\/tr>/);
    });

    test(".diff and .patch answer plain text", async () => {
      const diff = await anon.get(`/alice/tools/commit/${rename}.diff`);
      expect(diff.status).toBe(200);
      expect(diff.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(await diff.text()).toContain("rename to moved/f000.txt");
      const patch = await anon.get(`/alice/tools/commit/${rename}.patch`);
      expect(patch.status).toBe(200);
      expect(await patch.text()).toStartWith(`From ${rename}`);
      await anon.page("/alice/tools/commit/0000000000000000000000000000000000000000.diff", 404);
    });

    test("what is no commit id is 404", async () => {
      await anon.page("/alice/tools/commit/main", 404);
      await anon.page("/alice/tools/commit/abc", 404);
      await anon.page("/alice/tools/commit/0123456789012345678901234567890123456789", 404);
    });
  });

  describe("branches and tags", () => {
    test("the default branch first, the others with their distance and links", async () => {
      const page = await anon.page("/alice/tools/branches");
      const text = visibleText(page);
      expect(text).toContain("Branches 3");
      expect(text.indexOf("main Default")).toBeGreaterThanOrEqual(0);
      expect(text.indexOf("main Default")).toBeLessThan(text.indexOf("feature/x"));
      // feat: one commit of its own, and main moved on by three commits since.
      expect(text).toMatch(/feat .*3 behind · 1 ahead/);
      expect(hrefs(page)).toContain("/alice/tools/compare/main...feature/x");
      expect(hrefs(page)).toContain("/alice/tools/src/branch/feature/x");
      expect(hrefs(page)).toContain("/alice/tools/archive/feature/x.zip");
    });

    test("tags with their commit, release and archives", async () => {
      const page = await anon.page("/alice/tools/tags");
      const text = visibleText(page);
      expect(text).toContain("Tags 1");
      expect(text).toContain("v1 Release");
      expect(hrefs(page)).toContain("/alice/tools/releases/tag/v1");
      expect(hrefs(page)).toContain(`/alice/tools/commit/${fx.head}`);
      expect(hrefs(page)).toContain("/alice/tools/archive/v1.tar.gz");
    });
  });

  describe("compare", () => {
    test("base...head: the commits of head and its changes since they diverged", async () => {
      const page = await anon.page("/alice/tools/compare/main...feat");
      const text = visibleText(page);
      expect(text).toContain("Commits 1");
      expect(text).toContain("1 changed file with 1 addition and 0 deletions");
      expect(text).toContain("feat.txt");
      expect(text).not.toContain("README.md");
    });

    test("base..head compares the trees directly; branch names keep their slashes", async () => {
      const direct = visibleText(await anon.page("/alice/tools/compare/main..feature/x"));
      // main moved on after feature/x left it: the direct comparison undoes main's changes too.
      expect(direct).toContain("README.md");
      expect(direct).toContain("docs/notes.md");
      expect(direct).toContain("Commits 1");
      const since = visibleText(await anon.page("/alice/tools/compare/main...feature/x"));
      expect(since).not.toContain("README.md");
      // A lone head is compared with the default branch; a commit id works as a side.
      expect(visibleText(await anon.page("/alice/tools/compare/feat"))).toContain("feat.txt");
      expect(visibleText(await anon.page(`/alice/tools/compare/${fx.head.slice(0, 10)}...feat`))).toContain("feat.txt");
    });

    test("an unknown side, or another repository, is 404", async () => {
      await anon.page("/alice/tools/compare/main...nope", 404);
      await anon.page("/alice/tools/compare/main...mallory:feat", 404);
      expect(visibleText(await anon.page("/alice/tools/compare/main...alice:feat"))).toContain("feat.txt");
    });
  });

  describe("access", () => {
    const pages = ["/commits/branch/main", "/commits", "/branches", "/tags", "/compare/main...feat"];
    test("a stranger gets 404 for every page of a private repository, its owner 200", async () => {
      const stranger = await signedIn(t, "mallory");
      const owner = await signedIn(t, "alice");
      const head = (await t.ok("GET", `${API}/alice/secret/branches/main`, token)).commit.id as string;
      for (const p of [...pages, `/commit/${head}`, `/commit/${head}.diff`]) {
        await stranger.page(`/alice/secret${p}`, 404);
        await anon.page(`/alice/secret${p}`, 404);
        await owner.page(`/alice/secret${p}`, 200);
      }
    });
  });
});

describe("history under REQUIRE_SIGNIN_VIEW", () => {
  const t = makeTestApp("[service]\nREQUIRE_SIGNIN_VIEW = true\n");
  test("the anonymous are sent to sign in", async () => {
    const alice = await t.user("alice");
    const fx = await populateRepo(t, t.token(alice), "alice", "tools");
    const anon = new WebClient(t);
    for (const p of ["/commits/branch/main", `/commit/${fx.head}`, "/branches", "/tags", "/compare/main...feat"]) {
      const res = await anon.get(`/alice/tools${p}`);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toStartWith("/user/login?redirect_to=");
    }
    const owner = await signedIn(t, "alice");
    await owner.page("/alice/tools/commits/branch/main");
  });
});
