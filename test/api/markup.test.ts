import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { updateUser } from "../../src/models/user.ts";
import { Visibility } from "../../src/db/schema/index.ts";

/**
 * POST /markdown, /markdown/raw and /markup: Gitea's rendering (GitHub-flavoured Markdown through
 * its sanitizer), with every mention, issue reference and commit id linked only when it names
 * something that exists and that the caller may see.
 */

const t = makeTestApp();
const alice = await t.user("alice");
const bob = await t.user("bob");
const hidden = await t.user("hidden");
updateUser(t.env.db, hidden.id, { visibility: Visibility.Private });
const aliceToken = t.token(alice);
const bobToken = t.token(bob);
const ok = t.ok.bind(t);
const R = "http://hearth.test";

await ok("POST", "/api/v1/orgs", aliceToken, { username: "acme" }, 201);
await ok("POST", "/api/v1/user/repos", aliceToken, { name: "proj", auto_init: true }, 201);
await ok("POST", "/api/v1/user/repos", aliceToken, { name: "secret", private: true, auto_init: true }, 201);
await ok("POST", "/api/v1/repos/alice/proj/issues", aliceToken, { title: "an issue" }, 201);
await ok("POST", "/api/v1/repos/alice/secret/issues", aliceToken, { title: "a hidden issue" }, 201);
await ok("POST", "/api/v1/repos/alice/proj/branches", aliceToken, { new_branch_name: "feat", old_branch_name: "main" }, 201);
await ok("POST", "/api/v1/repos/alice/proj/contents/f.txt", aliceToken, { content: btoa("f\n"), branch: "feat" }, 201);
await ok("POST", "/api/v1/repos/alice/proj/pulls", aliceToken, { head: "feat", base: "main", title: "a pull" }, 201);
const head = (await ok("GET", "/api/v1/repos/alice/proj/branches/main", aliceToken)).commit.id as string;
const secretHead = (await ok("GET", "/api/v1/repos/alice/secret/branches/main", aliceToken)).commit.id as string;

async function render(body: Record<string, unknown>, token: string | undefined = bobToken, path = "/api/v1/markdown") {
  const r = await t.request("POST", path, { token, body });
  return { status: r.status, type: r.headers.get("content-type"), html: await r.text() };
}
const html = async (body: Record<string, unknown>, token?: string) => {
  const r = await render(body, token);
  expect({ status: r.status, type: r.type }).toEqual({ status: 200, type: "text/html; charset=utf-8" });
  return r.html;
};

describe("GitHub-flavoured Markdown", () => {
  test("tables, strikethrough, task lists and headings render as Gitea's", async () => {
    const out = await html({ Text: "# Title here\n\n| a | b |\n|:--|--:|\n| 1 | ~~2~~ |\n\n- [ ] todo\n- [x] done\n" });
    expect(out).toContain('<h1 id="user-content-title-here">Title here</h1>');
    expect(out).toContain('<th align="left">a</th>');
    expect(out).toContain('<td align="right"><del>2</del></td>');
    expect(out).toContain('<li class="task-list-item"><input type="checkbox" disabled="" data-source-position="52" /> todo</li>');
    expect(out).toContain('<input type="checkbox" disabled="" data-source-position="63" checked="" /> done');
  });

  test("bare URLs, www. hosts and e-mail addresses become links; bare host names and code do not", async () => {
    const out = await html({ Text: "see https://example.com/a?b=1, www.example.org and mail@example.com; example.net `https://in.code`" });
    expect(out).toContain('<a href="https://example.com/a?b=1" rel="nofollow">https://example.com/a?b=1</a>');
    expect(out).toContain('<a href="http://www.example.org" rel="nofollow">www.example.org</a>');
    expect(out).toContain('<a href="mailto:mail@example.com" rel="nofollow">mail@example.com</a>');
    expect(out).toContain("example.net <code>https://in.code</code>");
  });

  test("fenced code is highlighted by the fence's language only; an unknown one stays escaped", async () => {
    const out = await html({ Text: "```go\nfunc main() {}\n```\n\n```nosuchlang\n<b>x</b>\n```\n\n```\nif (x) {}\n```\n" });
    expect(out).toContain('<pre class="code-block"><code class="hljs language-go"><span class="hljs-function"><span class="hljs-keyword">func</span>');
    expect(out).toContain('<code class="language-nosuchlang">&lt;b&gt;x&lt;/b&gt;\n</code>');
    expect(out).toContain("<pre class=\"code-block\"><code>if (x) {}\n</code></pre>");
  });

  test("a comment keeps its line breaks; a document does not", async () => {
    expect(await html({ Text: "one\ntwo", Mode: "comment" })).toBe("<p>one<br />\ntwo</p>\n");
    expect(await html({ Text: "one\ntwo", Mode: "gfm" })).toBe("<p>one\ntwo</p>\n");
  });
});

describe("mentions", () => {
  test("an account the caller may see is linked, a missing or hidden one is not", async () => {
    const out = await html({ Text: "hi @alice, @acme and @nobody and @hidden; mail@alice.example", Mode: "comment" });
    expect(out).toContain(`<a href="${R}/alice" rel="nofollow">@alice</a>`);
    expect(out).toContain(`<a href="${R}/acme" rel="nofollow">@acme</a>`);
    expect(out).toContain("and @nobody and @hidden;");
    expect(out).not.toContain(`${R}/hidden`);
    // The account itself (and site admins) see a private account.
    expect(await html({ Text: "@hidden", Mode: "comment" }, t.token(hidden))).toContain(`<a href="${R}/hidden" rel="nofollow">@hidden</a>`);
  });

  test("raw Markdown links nothing, and nothing inside code or links is touched", async () => {
    expect(await html({ Text: "@alice #1" })).toBe("<p>@alice #1</p>\n");
    const out = await html({ Text: "`@alice` [@alice](https://x.test) **@alice**", Mode: "comment" });
    expect(out).toBe(
      `<p><code>@alice</code> <a href="https://x.test" rel="nofollow">@alice</a> <strong><a href="${R}/alice" rel="nofollow">@alice</a></strong></p>\n`,
    );
  });
});

describe("issue references", () => {
  test("#1 and !2 in a comment link the repository's issue and pull request; missing numbers stay text", async () => {
    const out = await html({ Text: "see #1, !2 and #99", Mode: "comment", Context: "/alice/proj" });
    expect(out).toBe(
      `<p>see <a href="${R}/alice/proj/issues/1" class="ref-issue" rel="nofollow">#1</a>, ` +
        `<a href="${R}/alice/proj/pulls/2" class="ref-issue" rel="nofollow">!2</a> and #99</p>\n`,
    );
  });

  test("a file links owner/repo#1 but not a bare #1", async () => {
    const out = await html({ Text: "#1 and alice/proj#1", Mode: "gfm", Context: "/alice/proj/src/branch/main" });
    expect(out).toBe(`<p>#1 and <a href="${R}/alice/proj/issues/1" class="ref-issue" rel="nofollow">alice/proj#1</a></p>\n`);
  });

  test("a private repository's issues are linked for who may read them, never for a stranger", async () => {
    const text = "alice/secret#1 and alice/proj#2";
    const strangers = await html({ Text: text, Mode: "comment" }, bobToken);
    expect(strangers).toBe(`<p>alice/secret#1 and <a href="${R}/alice/proj/pulls/2" class="ref-issue" rel="nofollow">alice/proj#2</a></p>\n`);
    const owners = await html({ Text: text, Mode: "comment" }, aliceToken);
    expect(owners).toContain(`<a href="${R}/alice/secret/issues/1" class="ref-issue" rel="nofollow">alice/secret#1</a>`);
    // A Context naming the private repository gives a stranger nothing either.
    expect(await html({ Text: "#1", Mode: "comment", Context: "/alice/secret" }, bobToken)).toBe("<p>#1</p>\n");
    // Nor does a public-only token to its owner.
    const publicOnly = t.token(alice, ["public-only", "read:repository", "read:issue"]);
    expect(await html({ Text: text, Mode: "comment" }, publicOnly)).not.toContain("alice/secret/issues");
  });
});

describe("commit ids", () => {
  test("a full or abbreviated id of a commit of the repository is linked; other hex is not", async () => {
    const short = head.slice(0, 7);
    const out = await html({ Text: `${head} and ${short} but not deadbeefcafe`, Mode: "gfm", Context: "/alice/proj/src/branch/main" });
    // Gitea shows at most ten digits of an id: the full one shortened, an abbreviated one as written.
    const link = (text: string) => `<a href="${R}/alice/proj/commit/${head}" rel="nofollow"><code>${text}</code></a>`;
    expect(out).toBe(`<p>${link(head.slice(0, 10))} and ${link(short)} but not deadbeefcafe</p>\n`);
  });

  test("owner/repo@sha is linked where the caller may read the code", async () => {
    const text = `alice/proj@${head} alice/secret@${secretHead}`;
    const out = await html({ Text: text, Mode: "comment" }, bobToken);
    expect(out).toContain(`<a href="${R}/alice/proj/commit/${head}" class="commit" rel="nofollow">alice/proj@${head.slice(0, 10)}</a>`);
    expect(out).toContain(`alice/secret@${secretHead}</p>`);
    expect(await html({ Text: text, Mode: "comment" }, aliceToken)).toContain(`${R}/alice/secret/commit/${secretHead}`);
  });

  test("commit ids in a repository the caller cannot see stay text", async () => {
    const out = await html({ Text: secretHead, Mode: "gfm", Context: "/alice/secret/src/branch/main" }, bobToken);
    expect(out).toBe(`<p>${secretHead}</p>\n`);
  });
});

describe("links in a repository", () => {
  const text = "[doc](other.md) [up](../README.md) [root](/LICENSE) [ext](https://example.com/x) [top](#Intro)\n\n![pic](img/a.png) [![in](b.png)](https://example.com)";

  test("a file's relative links open files at its revision, images load from /media", async () => {
    const out = await render({ Text: text, Mode: "file", FilePath: "docs/README.md", Context: "/alice/proj/src/branch/main/docs" }, bobToken, "/api/v1/markup");
    expect(out.status).toBe(200);
    const src = `${R}/alice/proj/src/branch/main`;
    const media = `${R}/alice/proj/media/branch/main`;
    expect(out.html).toBe(
      `<p><a href="${src}/docs/other.md" rel="nofollow">doc</a> <a href="${src}/README.md" rel="nofollow">up</a> ` +
        `<a href="${src}/LICENSE" rel="nofollow">root</a> <a href="https://example.com/x" rel="nofollow">ext</a> ` +
        `<a href="#user-content-Intro" rel="nofollow">top</a></p>\n` +
        `<p><a href="${media}/docs/img/a.png" target="_blank" rel="nofollow noopener"><img src="${media}/docs/img/a.png" alt="pic" /></a> ` +
        `<a href="https://example.com" rel="nofollow"><img src="${media}/docs/b.png" alt="in" /></a></p>\n`,
    );
  });

  test("tags and commits are revisions too; a repository without one resolves at its default branch", async () => {
    expect(await html({ Text: "[a](x.md)", Mode: "gfm", Context: "/alice/proj/src/tag/v1.0" })).toContain(`${R}/alice/proj/src/tag/v1.0/x.md`);
    expect(await html({ Text: "[a](x.md)", Mode: "gfm", Context: `/alice/proj/src/commit/${head}` })).toContain(`${R}/alice/proj/src/commit/${head}/x.md`);
    expect(await html({ Text: "[a](x.md)", Mode: "gfm", Context: "/alice/proj" })).toContain(`${R}/alice/proj/src/branch/main/x.md`);
  });

  test("a comment's links are relative to its repository, a wiki page's to the wiki", async () => {
    expect(await html({ Text: "[a](x.md) ![i](p.png)", Mode: "comment", Context: "/alice/proj" })).toContain(
      `<a href="${R}/alice/proj/x.md" rel="nofollow">a</a> <a href="${R}/alice/proj/p.png" target="_blank"`,
    );
    const wiki = await html({ Text: "[a](Other-Page) ![i](p.png)", Wiki: true, Context: "/alice/proj" });
    expect(wiki).toContain(`<a href="${R}/alice/proj/wiki/Other-Page" rel="nofollow">a</a>`);
    expect(wiki).toContain(`<img src="${R}/alice/proj/wiki/raw/p.png" alt="i" />`);
  });

  test("raw Markdown joins relative links to the Context, or to the site", async () => {
    expect(await html({ Text: "[a](x.md)", Context: "/alice/proj/src/branch/main" })).toBe(
      `<p><a href="${R}/alice/proj/src/branch/main/x.md" rel="nofollow">a</a></p>\n`,
    );
    expect(await html({ Text: "[a](x.md)" })).toBe(`<p><a href="${R}/x.md" rel="nofollow">a</a></p>\n`);
  });

  test("links follow ROOT_URL's sub-path", async () => {
    const sub = makeTestApp("[server]\nROOT_URL = http://hearth.test/sub/\n");
    const carol = await sub.user("carol");
    const tok = sub.token(carol);
    await sub.ok("POST", "/api/v1/user/repos", tok, { name: "r", auto_init: true }, 201);
    const r = await sub.request("POST", "/api/v1/markdown", {
      token: tok,
      body: { Text: "@carol [a](x.md)", Mode: "gfm", Context: "/sub/carol/r/src/branch/main" },
    });
    expect(await r.text()).toBe(
      `<p><a href="${R}/sub/carol" rel="nofollow">@carol</a> <a href="${R}/sub/carol/r/src/branch/main/x.md" rel="nofollow">a</a></p>\n`,
    );
  });
});

const HOSTILE = [
  /<(?:script|iframe|style|form|object|embed|button|math|textarea|noscript|meta|base|audio|source)\b/,
  /\b(?:href|src|cite|action|srcset)\s*=\s*"\s*(?:javascript|vbscript|data):/,
  /<input\b(?![^>]*type="checkbox")[^>]*>/,
  /style="[^"]*(?:position|url\(|display)/,
  /class="[^"]*\bui\b/,
];

/** Whether a tag carries an event handler: its attribute names, with the quoted values taken out. */
const handlerAttributes = (html: string) =>
  [...html.matchAll(/<[a-z][^>]*>/g)].some((tag) => /\son\w+\s*=/.test(tag[0].replace(/"[^"]*"/g, '""')));

describe("hostile input is inert", () => {
  const attempts = [
    "<script>alert(1)</script>",
    '<img src="x" onerror="alert(1)">',
    '<a href="javascript:alert(1)">a</a>',
    '<a href="JaVaScRiPt:alert(1)">b</a>',
    '<a href="jav&#x09;ascript:alert(1)">c</a>',
    '<a href=" javascript:alert(1)">d</a>',
    '<a href="&#106;avascript:alert(1)">e</a>',
    '<a href="vbscript:msgbox(1)">f</a>',
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">g</a>',
    "[h](javascript:alert(1))",
    "[i](JAVASCRIPT:alert(1))",
    "![j](data:image/png;base64,AAAA)",
    '<iframe src="https://evil.example"></iframe>',
    '<div style="position:fixed;top:0;background:url(javascript:alert(1))">k</div>',
    "<style>body{display:none}</style>",
    '<svg onload="alert(1)"><path d="M0"/></svg>',
    '<form action="https://evil.example"><input type="text" name="q"><button>go</button></form>',
    '<object data="x.swf"></object><embed src="x.swf">',
    '<a href="#" onclick="alert(1)" class="ui button">l</a>',
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    '<details open ontoggle="alert(1)"><summary>m</summary></details>',
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
    '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">',
    '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">n</a>',
    '<a href="javascript&colon;alert(1)">o</a>',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)"><base href="javascript:alert(1)//">',
    '<video src=x onerror=alert(1)><source src=x onerror=alert(1)></video><audio src=x onerror=alert(1)>',
    '<blockquote cite="javascript:alert(1)">p</blockquote><img src="x" srcset="javascript:alert(1)">',
  ];

  for (const attempt of attempts) {
    test(attempt, async () => {
      for (const mode of ["markdown", "comment", "gfm"]) {
        const out = (await html({ Text: attempt, Mode: mode, Context: "/alice/proj" })).toLowerCase();
        // Text may say anything (escaped); no element, attribute or URL may act on it.
        const found = HOSTILE.filter((re) => re.test(out)).map(String);
        if (handlerAttributes(out)) found.push("an on* attribute");
        expect({ attempt, mode, found }).toEqual({ attempt, mode, found: [] });
      }
    });
  }

  test("what Gitea allows of style and class survives", async () => {
    const out = await html({ Text: '<span style="color: red; position: absolute" class="nx">a</span> <p class="ref-issue">b</p>' });
    expect(out).toContain('<span style="color:red" class="nx">a</span>');
    expect(out).toContain("<p>b</p>");
  });
});

describe("the operations", () => {
  test("POST /markdown/raw renders its text/plain body as raw Markdown", async () => {
    const r = await t.request("POST", "/api/v1/markdown/raw", {
      token: bobToken,
      body: "**bold** @alice <script>x</script>",
      headers: { "Content-Type": "text/plain" },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await r.text()).toBe("<p><strong>bold</strong> @alice </p>\n");
  });

  test("lower-case field names are read as Go reads them", async () => {
    expect(await html({ text: "@alice", mode: "comment" })).toBe(`<p><a href="${R}/alice" rel="nofollow">@alice</a></p>\n`);
  });

  test("an unknown mode or a file it cannot render is Gitea's 422; a wrong type too", async () => {
    const bad = await t.json("POST", "/api/v1/markdown", { token: bobToken, body: { Text: "x", Mode: "nope" } });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe("Unknown mode: nope");
    const file = await t.json("POST", "/api/v1/markup", { token: bobToken, body: { Text: "x", Mode: "file", FilePath: "a.rst" } });
    expect(file.status).toBe(422);
    expect(file.body.message).toBe('unsupported file to render: "a.rst"');
    expect((await t.json("POST", "/api/v1/markdown", { token: bobToken, body: { Text: 5 } })).status).toBe(422);
  });

  test("signing in is required, as Gitea's reqToken; any token scope will do", async () => {
    expect((await t.request("POST", "/api/v1/markdown", { body: { Text: "x" } })).status).toBe(401);
    expect((await render({ Text: "x" }, t.token(bob, ["read:user"]))).status).toBe(200);
  });

  test("an empty text is an empty document", async () => {
    expect(await html({})).toBe("");
  });
});
