import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { renderMarkdown } from "../../src/services/markup/markdown.ts";
import { resolveRepo } from "../../src/services/repo/lookup.ts";
import { sanitize } from "../../src/services/markup/sanitize.ts";

/**
 * The renderer as the web pages call it: a repository context as the viewer sees it, links
 * relative to the site (not absolute like the API's), and its cost on a README of realistic size.
 */

const t = makeTestApp();
const alice = await t.user("alice");
const tok = t.token(alice);
await t.ok("POST", "/api/v1/user/repos", tok, { name: "tools", auto_init: true, default_branch: "trunk" }, 201);
await t.ok("POST", "/api/v1/repos/alice/tools/issues", tok, { title: "first" }, 201);
const repo = resolveRepo(t.env, alice, "alice", "tools");
const render = (text: string, ctx: Parameters<typeof renderMarkdown>[2]) => renderMarkdown(t.env, text, ctx);

describe("links as the web pages get them", () => {
  test("a README at the repository's home resolves at its default branch, relative to the site", async () => {
    const out = await render("[a](docs/a.md) ![i](i.png) @alice #1 alice/tools#1", { mode: "document", repo, viewer: alice });
    expect(out).toBe(
      '<p><a href="/alice/tools/src/branch/trunk/docs/a.md" rel="nofollow">a</a> ' +
        '<a href="/alice/tools/media/branch/trunk/i.png" target="_blank" rel="nofollow noopener"><img src="/alice/tools/media/branch/trunk/i.png" alt="i" /></a> ' +
        '<a href="/alice" rel="nofollow">@alice</a> #1 <a href="/alice/tools/issues/1" class="ref-issue" rel="nofollow">alice/tools#1</a></p>\n',
    );
  });

  test("a link can name its own type (/:root/, /:media/, /:raw/), and a full path under the revision is kept", async () => {
    const ctx = { mode: "document" as const, repo, refPath: "branch/trunk", treePath: "docs" };
    expect(await render("[u](/:root/alice) [m](/:media/x.bin) [r](/:raw/y.txt)", ctx)).toBe(
      '<p><a href="/alice" rel="nofollow">u</a> <a href="/alice/tools/media/branch/trunk/docs/x.bin" rel="nofollow">m</a> ' +
        '<a href="/alice/tools/raw/branch/trunk/docs/y.txt" rel="nofollow">r</a></p>\n',
    );
    expect(await render("[k](/alice/tools/src/branch/trunk/docs/b.md)", ctx)).toContain('href="/alice/tools/src/branch/trunk/docs/b.md"');
  });

  test("raw HTML: relative sources are resolved, rooted links are the author's, ids are prefixed", async () => {
    const out = await render('<img src="a.png"> <a href="/explore">e</a> <a href="b.md" name="n">b</a>\n\n<h2 id="x">h</h2>', {
      mode: "document",
      repo,
    });
    expect(out).toBe(
      '<p><img src="/alice/tools/media/branch/trunk/a.png" /> <a href="/explore" rel="nofollow">e</a> ' +
        '<a href="/alice/tools/src/branch/trunk/b.md" name="user-content-n" rel="nofollow">b</a></p>\n<h2 id="user-content-x">h</h2>',
    );
  });
});

describe("headings", () => {
  test("ids are Gitea's: letters and digits of any script, lowercased, spaces as dashes, numbered when repeated", async () => {
    const out = await render("# Über Größe `code` [link](x)\n## Über Größe code link\n### !!!\n## 日本語 テキスト", { mode: "markdown" });
    expect([...out.matchAll(/id="([^"]+)"/g)].map((m) => m[1])).toEqual([
      "user-content-über-größe-code-link",
      "user-content-über-größe-code-link-1",
      "user-content-heading",
      "user-content-日本語-テキスト",
    ]);
  });
});

describe("the general sanitizer", () => {
  test("other HTML gets the same policy: no scripts, handlers or unsafe URLs, nofollow links", () => {
    expect(sanitize('<p onclick="x()">a<script>b</script><a href="javascript:x" target="_blank">c</a><a href="https://e.x" target="_blank">d</a></p>')).toBe(
      '<p>a<a target="_blank">c</a><a href="https://e.x" target="_blank" rel="nofollow noopener">d</a></p>',
    );
  });
});

describe("cost", () => {
  test("a 26 KB README renders in milliseconds once warm", async () => {
    // Mostly prose, as READMEs are, with the usual lists, tables, code, quotes, badges and references.
    const prose =
      "This library does one thing and does it well: it takes a description of the work, plans it, and runs it " +
      "with as little waiting as the machine allows. See the [guide](docs/guide.md) or https://example.com/docs, " +
      "ask @alice, or read #1 and alice/tools#1 for the history of 0123456789abcdef0123456789abcdef01234567.";
    const section = (n: number) =>
      [
        `## ${n}. Getting started with part ${n}`,
        "",
        prose,
        "",
        prose.replace("one thing", "another thing"),
        "",
        "- install it with `npm install tools`",
        "- [ ] write the configuration",
        "- [x] ~~read the manual~~",
        "",
        ...(n % 3 === 0 ? ["| option | default | meaning |", "|:--|:-:|--:|", `| \`size\` | ${n} | how big |`, ""] : []),
        ...(n % 2 === 0
          ? ["```ts", `export async function run${n}(size: number): Promise<void> {`, "  await new Promise((r) => setTimeout(r, size)); // wait", "}", "```", ""]
          : []),
        "> **Note** this is a quote with <kbd>Ctrl</kbd>+<kbd>C</kbd> and a ![badge](img/badge.svg).",
        "",
      ].join("\n");
    let readme = '<p align="center"><img src="logo.png" width="120"></p>\n\n# tools\n\n';
    for (let n = 1; readme.length < 26 * 1024; n++) readme += section(n);
    const ctx = { mode: "document" as const, repo, viewer: alice };
    // CPU time, which a busy machine disturbs less than the clock.
    const cpu = () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    };
    const t0 = performance.now();
    const first = await render(readme, ctx);
    const cold = performance.now() - t0;
    const times: number[] = [];
    for (let i = 0; i < 15; i++) {
      const s = cpu();
      await render(readme, ctx);
      times.push(cpu() - s);
    }
    times.sort((a, b) => a - b);
    const median = times[7]!;
    console.log(`README ${readme.length} bytes: first ${cold.toFixed(1)} ms, warm median ${median.toFixed(1)} ms CPU, min ${times[0]!.toFixed(1)} ms CPU`);
    expect(first).toContain('<pre class="code-block"><code class="hljs language-ts">');
    expect(first).toContain('<a href="/alice" rel="nofollow">@alice</a>');
    // Under 10 ms on a quiet machine (see the log line); the bound only catches a regression in
    // kind, with room for a machine busy with other work.
    expect(median).toBeLessThan(100);
  });
});
