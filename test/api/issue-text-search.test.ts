import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";

// A text search names the list's repositories, kinds and state in its full-text query (the index's
// `scope` column, src/models/issue-text.ts) and takes its total from the index: these check the
// totals and rows against what the repositories hold, through every way a search names its
// repositories (one, a few, all but a few, too many either way) and through closing, reopening,
// retitling and switching a unit off.
const t = makeTestApp();
const root = await t.user("root", { admin: true });
const bob = await t.user("bob");
const rootToken = t.token(root);
const bobToken = t.token(bob);
const ok = t.ok.bind(t);

async function search(path: string, token: string): Promise<{ header: number; numbers: number[] }> {
  const r = await t.json("GET", path, { token });
  expect(r.status).toBe(200);
  return { header: Number(r.headers.get("x-total-count")), numbers: (r.body as { number: number }[]).map((i) => i.number).sort((a, b) => a - b) };
}

await ok("POST", "/api/v1/user/repos", rootToken, { name: "one", auto_init: true }, 201);
const one = "/api/v1/repos/root/one";
const issue = async (repo: string, title: string, closed = false) => (await ok("POST", `${repo}/issues`, rootToken, { title, closed }, 201)).number as number;

describe("text search in one repository", () => {
  test("totals and rows per kind and state follow closing, reopening and retitling", async () => {
    const a = await issue(one, "a flaky test");
    const b = await issue(one, "FLAKY build", true);
    const c = await issue(one, "another Flaky one");
    await issue(one, "nothing to see");
    await ok("POST", `${one}/branches`, rootToken, { new_branch_name: "feature" }, 201);
    await ok("PUT", `${one}/contents/x.txt`, rootToken, { content: Buffer.from("x").toString("base64"), branch: "feature", message: "x" }, 201);
    const p = (await ok("POST", `${one}/pulls`, rootToken, { title: "fix the flaky suite", head: "feature", base: "main" }, 201)).number as number;

    const expectFound = async (want: { open: number[]; closed: number[]; pulls: number[]; closedPulls: number[] }) => {
      const cases: [string, number[]][] = [
        ["state=open&type=issues", want.open],
        ["state=closed&type=issues", want.closed],
        ["state=all&type=issues", [...want.open, ...want.closed]],
        ["state=open&type=pulls", want.pulls],
        ["state=closed&type=pulls", want.closedPulls],
        ["state=open", [...want.open, ...want.pulls]],
        ["state=all", [...want.open, ...want.closed, ...want.pulls, ...want.closedPulls]],
      ];
      for (const [filter, numbers] of cases) {
        const sorted = [...numbers].sort((x, y) => x - y);
        expect({ filter, ...(await search(`${one}/issues?${filter}&q=flaky&limit=50`, rootToken)) }).toEqual({ filter, header: sorted.length, numbers: sorted });
      }
    };
    await expectFound({ open: [a, c], closed: [b], pulls: [p], closedPulls: [] });
    await ok("PATCH", `${one}/issues/${a}`, rootToken, { state: "closed" }, 201);
    await ok("PATCH", `${one}/issues/${b}`, rootToken, { state: "open" }, 201);
    await ok("PATCH", `${one}/pulls/${p}`, rootToken, { state: "closed" }, 201);
    await expectFound({ open: [b, c], closed: [a], pulls: [], closedPulls: [p] });
    await ok("PATCH", `${one}/issues/${c}`, rootToken, { title: "another steady one" }, 201);
    await expectFound({ open: [b], closed: [a], pulls: [], closedPulls: [p] });
  });

  test("a page past the end is empty and still carries the total", async () => {
    const r = await t.json("GET", `${one}/issues?state=all&q=flaky&limit=1&page=9`, { token: rootToken });
    expect(r.body).toEqual([]);
    expect(r.headers.get("x-total-count")).toBe("3");
  });

  test("a keyword too long for the trigram index (a pasted log) is matched row by row", async () => {
    const log = Array.from({ length: 400 }, (_, i) => `line ${i}: timeout`).join("\n");
    const n = (await ok("POST", `${one}/issues`, rootToken, { title: "pasted", body: `before\n${log}\nafter` }, 201)).number as number;
    const r = await t.json("GET", `/api/v1/repos/issues/search?type=issues&q=${encodeURIComponent(log)}`, { token: rootToken });
    expect(r.status).toBe(200);
    expect(r.body.map((i: { number: number }) => i.number)).toEqual([n]);
    await ok("PATCH", `${one}/issues/${n}`, rootToken, { state: "closed" }, 201);
  });

  test("a number still finds the issue with that number, besides the text", async () => {
    const r = await search(`${one}/issues?state=all&type=issues&q=%231`, rootToken);
    expect(r.numbers).toEqual([1]);
  });
});

describe("text search across repositories", () => {
  const site = "/api/v1/repos/issues/search?type=issues&q=needle&limit=50";
  const total = async (path: string, token: string) => (await search(path, token)).header;

  test("a site administrator finds every repository's issues but those of a switched-off tracker; others what they may read", async () => {
    await ok("POST", "/api/v1/user/repos", rootToken, { name: "two" }, 201);
    await ok("POST", "/api/v1/user/repos", rootToken, { name: "secret", private: true }, 201);
    await issue("/api/v1/repos/root/two", "needle two");
    await issue("/api/v1/repos/root/secret", "needle secret");
    await issue(one, "needle one");
    expect(await total(site, rootToken)).toBe(3);
    expect(await total(site, bobToken)).toBe(2);
    await ok("PATCH", "/api/v1/repos/root/two", rootToken, { has_issues: false }, 200);
    expect(await total(site, rootToken)).toBe(2);
    expect(await total(site, bobToken)).toBe(1);
  });

  test("a reader of many repositories but a few, and then of many but many", async () => {
    const many = await t.user("many");
    const manyToken = t.token(many);
    await Promise.all(Array.from({ length: 70 }, (_, i) => ok("POST", "/api/v1/user/repos", manyToken, { name: `r${i}` }, 201)));
    await ok("POST", "/api/v1/repos/many/r7/issues", manyToken, { title: "needle seven" }, 201);
    await ok("POST", "/api/v1/repos/many/r8/issues", manyToken, { title: "needle eight", closed: true }, 201);
    // bob reads 71 repositories, all but two: the query leaves those two out.
    expect(await total(site, bobToken)).toBe(2);
    expect(await total(`${site}&state=all`, bobToken)).toBe(3);
    await Promise.all(Array.from({ length: 70 }, (_, i) => ok("POST", "/api/v1/user/repos", rootToken, { name: `hidden${i}`, private: true }, 201)));
    await issue("/api/v1/repos/root/hidden3", "needle hidden");
    // Now 72 are left out: too many to name either way, so the matches are checked against the issues.
    expect(await total(site, bobToken)).toBe(2);
    expect(await total(`${site}&state=all`, bobToken)).toBe(3);
    expect(await total(site, rootToken)).toBe(4);
  });
});

describe("a text search with more matches than are sorted in memory", () => {
  test("pages walk the list in order and the totals come from the matches", async () => {
    await ok("POST", "/api/v1/user/repos", rootToken, { name: "busy" }, 201);
    const busy = "/api/v1/repos/root/busy";
    // 2,100 matches (over the 2,000 sorted from the matches themselves), every third created closed.
    const n = 2_100;
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = next++; i < n; i = next++) await ok("POST", `${busy}/issues`, rootToken, { title: `bulk ${i}`, closed: i % 3 === 0 }, 201);
      }),
    );
    await issue(busy, "unrelated");
    const closed = Math.ceil(n / 3);
    const page = async (query: string) => {
      const r = await t.json("GET", `${busy}/issues?type=issues&q=bulk&limit=50&${query}`, { token: rootToken });
      return { total: Number(r.headers.get("x-total-count")), numbers: (r.body as { number: number; title: string }[]).map((i) => i.number) };
    };
    const open = await page("state=open");
    expect(open.total).toBe(n - closed);
    // Newest first: numbers count down, closed ones (every third created) left out.
    expect(open.numbers).toEqual([...open.numbers].sort((a, b) => b - a));
    expect(open.numbers.length).toBe(50);
    const all = await page("state=all&page=42");
    expect(all.total).toBe(n);
    expect(all.numbers.length).toBe(n - 41 * 50);
    expect(Math.min(...all.numbers)).toBe(1);
    expect((await page("state=closed&page=3")).total).toBe(closed);
    expect((await page("state=all&page=43")).numbers).toEqual([]);
    expect((await page("state=all&page=43")).total).toBe(n);
    // Across the site, for the administrator (issues and pull requests as two ordered branches).
    const r = await t.json("GET", "/api/v1/repos/issues/search?q=bulk&state=all&limit=50", { token: rootToken });
    expect(r.headers.get("x-total-count")).toBe(String(n));
    expect((r.body as unknown[]).length).toBe(50);
  });
});
