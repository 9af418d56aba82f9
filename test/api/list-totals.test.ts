import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";

// The lists read their X-Total-Count from the repository's counters, which every change moves in
// its own transaction: these walk issues through their life and compare each total with the rows.
const t = makeTestApp();
const alice = await t.user("alice");
const token = t.token(alice);
const ok = t.ok.bind(t);
await ok("POST", "/api/v1/user/repos", token, { name: "proj", auto_init: true }, 201);
await ok("POST", "/api/v1/user/repos", token, { name: "other" }, 201);
const base = "/api/v1/repos/alice/proj";

async function totals(path: string): Promise<{ header: number; rows: number }> {
  const r = await t.json("GET", `${path}${path.includes("?") ? "&" : "?"}limit=50`, { token });
  expect(r.status).toBe(200);
  const list = Array.isArray(r.body) ? r.body : r.body.data;
  return { header: Number(r.headers.get("x-total-count")), rows: list.length };
}

async function expectTotals(open: number, closed: number) {
  for (const [state, n] of [["open", open], ["closed", closed], ["all", open + closed]] as const) {
    const listed = await totals(`${base}/issues?state=${state}&type=issues`);
    expect(listed).toEqual({ header: n, rows: n });
    const both = await totals(`${base}/issues?state=${state}`);
    expect(both.header).toBe(both.rows);
    const searched = await totals(`/api/v1/repos/issues/search?state=${state}&type=issues`);
    expect(searched).toEqual({ header: n, rows: n });
  }
  const repo = await ok("GET", base, token);
  expect(repo.open_issues_count).toBe(open);
}

describe("totals follow every change", () => {
  test("create, create closed, close, reopen, delete", async () => {
    await expectTotals(0, 0);
    await ok("POST", `${base}/issues`, token, { title: "one" }, 201);
    await ok("POST", `${base}/issues`, token, { title: "two" }, 201);
    await ok("POST", `${base}/issues`, token, { title: "three", closed: true }, 201);
    await expectTotals(2, 1);
    await ok("PATCH", `${base}/issues/1`, token, { state: "closed" }, 201);
    await expectTotals(1, 2);
    await ok("PATCH", `${base}/issues/1`, token, { state: "closed" }, 201);
    await expectTotals(1, 2);
    await ok("PATCH", `${base}/issues/3`, token, { state: "open" }, 201);
    await expectTotals(2, 1);
    await t.ok("DELETE", `${base}/issues/3`, token, undefined, 204);
    await expectTotals(1, 1);
    await t.ok("DELETE", `${base}/issues/1`, token, undefined, 204);
    await expectTotals(1, 0);
  });

  test("pull requests count apart from issues, and closing one moves only its counters", async () => {
    await ok("POST", `${base}/branches`, token, { new_branch_name: "feature" }, 201);
    await ok("PUT", `${base}/contents/x.txt`, token, { content: Buffer.from("x").toString("base64"), branch: "feature", message: "x" }, 201);
    const pr = await ok("POST", `${base}/pulls`, token, { title: "change", head: "feature", base: "main" }, 201);
    expect(await totals(`${base}/pulls?state=open`)).toEqual({ header: 1, rows: 1 });
    expect((await totals(`${base}/issues?state=open&type=pulls`)).header).toBe(1);
    await ok("PATCH", `${base}/pulls/${pr.number}`, token, { state: "closed" }, 201);
    expect(await totals(`${base}/pulls?state=open`)).toEqual({ header: 0, rows: 0 });
    expect(await totals(`${base}/pulls?state=closed`)).toEqual({ header: 1, rows: 1 });
    const repo = await ok("GET", base, token);
    expect(repo.open_pr_counter).toBe(0);
    expect(repo.open_issues_count).toBe(1);
  });

  test("a filtered list is counted from the rows, and a page past the end is empty with the same total", async () => {
    await ok("POST", `${base}/issues`, token, { title: "needle in a haystack" }, 201);
    const filtered = await totals(`${base}/issues?state=all&type=issues&q=needle`);
    expect(filtered).toEqual({ header: 1, rows: 1 });
    const beyond = await t.json("GET", `${base}/issues?state=all&page=99&limit=50`, { token });
    expect(beyond.body).toEqual([]);
    expect(Number(beyond.headers.get("x-total-count"))).toBeGreaterThan(0);
  });

  test("a repository's comments are listed from the repository's own rows, in creation order", async () => {
    await ok("POST", `/api/v1/repos/alice/other/issues`, token, { title: "elsewhere" }, 201);
    await ok("POST", `/api/v1/repos/alice/other/issues/1/comments`, token, { body: "not here" }, 201);
    await ok("POST", `${base}/issues/2/comments`, token, { body: "first" }, 201);
    await ok("POST", `${base}/issues/4/comments`, token, { body: "second" }, 201);
    const r = await t.json("GET", `${base}/issues/comments?limit=1&page=2`, { token });
    expect(r.headers.get("x-total-count")).toBe("2");
    expect(r.body.map((c: { body: string }) => c.body)).toEqual(["second"]);
 
    const extra = await ok("POST", `${base}/issues/4/comments`, token, { body: "third" }, 201);
    await t.ok("DELETE", `${base}/issues/comments/${extra.id}`, token, undefined, 204);
    expect((await totals(`${base}/issues/comments`)).header).toBe(2);
    // Deleting an issue takes its comments out of the repository's total.
    await t.ok("DELETE", `${base}/issues/4`, token, undefined, 204);
    expect(await totals(`${base}/issues/comments`)).toEqual({ header: 1, rows: 1 });
  });

  test("text search finds substrings in titles and bodies, ignoring case, and follows edits and deletions", async () => {
    const hay = await ok("POST", `${base}/issues`, token, { title: "Crash in the ParserModule", body: "stack: Überlauf at line 3" }, 201);
    const search = async (q: string) =>
      ((await t.json("GET", `${base}/issues?state=all&type=issues&q=${encodeURIComponent(q)}`, { token })).body as { number: number }[]).map((i) => i.number);
    expect(await search("parsermod")).toEqual([hay.number]);
    expect(await search("ÜBERLAUF")).toEqual([hay.number]);
    expect(await search("in")).toContain(hay.number); // shorter than a trigram: matched row by row
    expect(await search('"quoted"')).toEqual([]);
    await ok("PATCH", `${base}/issues/${hay.number}`, token, { title: "Renamed entirely" }, 201);
    expect(await search("parsermod")).toEqual([]);
    expect(await search("renamed ENT")).toEqual([hay.number]);
    await t.ok("DELETE", `${base}/issues/${hay.number}`, token, undefined, 204);
    expect(await search("renamed")).toEqual([]);
  });

  test("a list narrowed by one label or one milestone counts from its counters, and they follow closing and created-closed issues", async () => {
    const label = await ok("POST", `${base}/labels`, token, { name: "counted", color: "#00aabb" }, 201);
    const milestone = await ok("POST", `${base}/milestones`, token, { title: "m-counted" }, 201);
    const make = (title: string, closed = false) => ok("POST", `${base}/issues`, token, { title, labels: [label.id], milestone: milestone.id, closed }, 201);
    const a = await make("labelled a");
    await make("labelled b");
    await make("labelled c, closed at birth", true);
    const check = async (open: number, closed: number) => {
      for (const [state, n] of [["open", open], ["closed", closed], ["all", open + closed]] as const) {
        expect(await totals(`${base}/issues?state=${state}&labels=counted`)).toEqual({ header: n, rows: n });
        expect(await totals(`${base}/issues?state=${state}&milestones=m-counted`)).toEqual({ header: n, rows: n });
      }
    };
    await check(2, 1);
    await ok("PATCH", `${base}/issues/${a.number}`, token, { state: "closed" }, 201);
    await check(1, 2);
    await t.ok("DELETE", `${base}/issues/${a.number}`, token, undefined, 204);
    await check(1, 1);
  });
});

