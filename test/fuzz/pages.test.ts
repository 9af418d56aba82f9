import { beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { populateRepo, type RepoFixture } from "../support/fixtures.ts";
import { WebClient, signedIn } from "../support/web.ts";
import { webRoutes } from "../../src/http/web/routes.ts";

/**
 * Every web page with malformed input, as an admin and signed out: path parameters and `*` rests
 * that are out of range, huge, escaped badly, NUL-bearing or climbing with `..`; query strings with
 * wrong numbers, unknown sorts and states, and forms with junk. No answer may be a 5xx, a server
 * path or anything but the door's own formats (an HTML page, a redirect, a file).
 */
const t = makeTestApp();
let fx: RepoFixture;
let admin: WebClient;
const anon = new WebClient(t);

beforeAll(async () => {
  const root = await t.user("root", { admin: true });
  fx = await populateRepo(t, t.token(root), "root", "tools");
  admin = await signedIn(t, "root");
});

const BAD_VALUES = ["0", "-1", "99999999999999999999", "1.5", "abc", "%zz", "..%2f..%2f", "%00", "x".repeat(4096), "%E0%A4%A", "a%2Fb"];
const BAD_QUERIES = [
  "page=-1",
  "page=abc",
  "page=99999999999",
  `q=${"y".repeat(5000)}`,
  "sort=nonsense&state=sideways",
  "labels=abc,-,0&milestone=x&assignee=%00&poster=-5",
  "type=zzz&display=zzz&tab=zzz",
  "go-get=1",
];

function fill(path: string, value: string): string {
  const named: Record<string, string> = { owner: fx.owner, repo: fx.name, index: String(fx.issue), sha: fx.head, org: "root", team: "Owners", username: "root", size: "40", tag: fx.tag, file: "x.bin", id: String(fx.milestone), uuid: "x" };
  return path
    .replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(named[name] ?? value).replace(/%25/g, "%"))
    .replace("*", `branch/main/${value}`);
}

function pathsFor(path: string): string[] {
  const out = new Set<string>();
  for (const value of BAD_VALUES) {
    // Each parameter in turn gets the bad value, the others a real one.
    const params = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    for (const p of params) out.add(path.replace(`:${p}`, value).replace(/:(\w+)/g, (m) => fill(m, value)).replace("*", "branch/main/README.md"));
    if (path.includes("*")) {
      out.add(fill(path, value));
      out.add(path.replace(/:(\w+)/g, (m) => fill(m, value)).replace("*", value));
    }
  }
  const good = fill(path, "README.md");
  for (const q of BAD_QUERIES) out.add(`${good}?${q}`);
  return [...out];
}

const problems = (status: number, body: string, type: string) =>
  status >= 500 || /\/tmp\/|hearth-test-|\.db\b/.test(body) || !(type.startsWith("text/html") || status < 400 || type.startsWith("text/plain") || type.startsWith("application/json"));

describe("web pages with malformed input", () => {
  for (const route of webRoutes.filter((r) => r.method === "GET")) {
    test(`GET ${route.path}`, async () => {
      const bad: string[] = [];
      for (const path of pathsFor(route.path)) {
        for (const client of [admin, anon]) {
          const res = await client.get(path);
          const body = await res.text();
          if (problems(res.status, body, res.headers.get("content-type") ?? "")) bad.push(`${res.status} ${path.slice(0, 120)}`);
        }
      }
      expect(bad).toEqual([]);
    });
  }

  // Signing out goes last: the admin's session serves every other form.
  const posts = webRoutes.filter((r) => r.method === "POST").sort((a, b) => Number(a.path === "/user/logout") - Number(b.path === "/user/logout"));
  test("the walk reaches pages as the signed-in admin", async () => {
    expect(await admin.page("/user/settings")).toContain("root");
    expect(posts.at(-1)!.path).toBe("/user/logout");
  });
  for (const route of posts) {
    test(`POST ${route.path}`, async () => {
      const bad: string[] = [];
      const forms: Record<string, string>[] = [
        {},
        { id: "abc", name: "x".repeat(5000), email: "not-an-email", password: "%00", retype: "", user_name: "../..", passcode: "abcdef", token: "%zz" },
        { id: "-1", "scope-repository": "write:nonsense", visibility: "9", website: "javascript:alert(1)", _method: "PRIMARY" },
      ];
      for (const form of forms) {
        for (const client of [admin, anon]) {
          const res = await client.post(fill(route.path, "x"), form);
          const body = await res.text();
          if (problems(res.status, body, res.headers.get("content-type") ?? "")) bad.push(`${res.status} ${JSON.stringify(form).slice(0, 80)}`);
        }
      }
      expect(bad).toEqual([]);
    });
  }
});
