import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { authUrl, gitOk } from "../support/git.ts";
import { expectShape } from "../support/shape.ts";
import { Commit, Compare, Note } from "../../src/shapes/commit.ts";
import { gitDirOf } from "../../src/services/repo/lookup.ts";
import { parseCommit } from "../../src/git/objects.ts";
import { gitTime } from "../../src/convert/commit.ts";

// One repository built with the real git CLI and pushed over smart HTTP through a listening app:
//
//   c1 (alice, +02:00) ── c2 ── c3 (rename) ── merge ── signed     main
//                          └── f1 (stranger) ──┘                    feature/x
//   orphan (unrelated history)                                      lonely
//   notes: refs/notes/commits annotates c1

const t = makeTestApp("", { listen: true });
const alice = await t.user("alice", { password: "alice-pass" });
const bob = await t.user("bob");
const aliceToken = t.token(alice);
const bobToken = t.token(bob);
const api = (repo: string, rest = "") => `/api/v1/repos/alice/${repo}${rest}`;
const gitDir = gitDirOf(t.env, { name: "alice" }, { name: "hist" });

async function createRepo(name: string, body: Record<string, unknown>) {
  const r = await t.json("POST", "/api/v1/user/repos", { token: aliceToken, body: { name, ...body } });
  expect(r.status).toBe(201);
}

await createRepo("hist", { auto_init: true });
await createRepo("empty", {});
await createRepo("secret", { auto_init: true, private: true });

const work = join(mkdtempSync(join(tmpdir(), "hearth-commits-")), "w");
const ALICE = { GIT_AUTHOR_NAME: "Alice", GIT_AUTHOR_EMAIL: "ALICE@example.com", GIT_COMMITTER_NAME: "Alice", GIT_COMMITTER_EMAIL: "alice@example.com" };
const STRANGER = { GIT_AUTHOR_NAME: "Stranger", GIT_AUTHOR_EMAIL: "nobody@elsewhere.test", GIT_COMMITTER_NAME: "Stranger", GIT_COMMITTER_EMAIL: "nobody@elsewhere.test" };
const at = (date: string) => ({ GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
const g = (args: string[], env: Record<string, string> = {}) => gitOk(args, { cwd: work, env: { ...ALICE, ...env } });
const head = async () => (await g(["rev-parse", "HEAD"])).trim();

await gitOk(["clone", "-q", authUrl(t.baseUrl, "alice/hist.git", "alice", "alice-pass"), work]);
const initial = await head();
await Bun.write(join(work, "a.txt"), "one\ntwo\nthree\n");
await Bun.write(join(work, "src/main.go"), "package main\n");
await g(["add", "."]);
await g(["commit", "-q", "-m", "c1: add files\n\nwith a body"], at("2024-01-02T03:04:05+02:00"));
const c1 = await head();
await Bun.write(join(work, "a.txt"), "one\n2\nthree\nfour\n");
await Bun.write(join(work, "b.txt"), "bee\n");
await g(["rm", "-q", "src/main.go"]);
await g(["add", "."]);
await g(["commit", "-q", "-m", "c2: modify, add, remove"], at("2024-01-03T00:00:00Z"));
const c2 = await head();
await g(["checkout", "-q", "-b", "feature/x"]);
await Bun.write(join(work, "f.txt"), "feature\n");
await g(["add", "f.txt"]);
await g(["commit", "-q", "-m", "f1: feature"], { ...STRANGER, ...at("2024-01-04T00:00:00-05:30") });
const f1 = await head();
await g(["checkout", "-q", "main"]);
await g(["mv", "b.txt", "c.txt"]);
await g(["commit", "-q", "-m", "c3: rename"], at("2024-01-05T00:00:00Z"));
const c3 = await head();
await g(["merge", "-q", "--no-ff", "feature/x", "-m", "merge feature"], at("2024-01-06T00:00:00Z"));
const merge = await head();
// An SSH-signed commit: hearth has no keys to check it against, but shows signature and payload.
const keyDir = mkdtempSync(join(tmpdir(), "hearth-key-"));
await gitOk(["--version"]);
const keygen = Bun.spawnSync(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", join(keyDir, "k")]);
const canSign = keygen.exitCode === 0;
if (canSign) {
  await g(["-c", "gpg.format=ssh", "-c", `user.signingkey=${join(keyDir, "k")}`, "commit", "-q", "-S", "--allow-empty", "-m", "signed"], at("2024-01-07T00:00:00Z"));
} else {
  await g(["commit", "-q", "--allow-empty", "-m", "signed"], at("2024-01-07T00:00:00Z"));
}
const signed = await head();
await g(["notes", "add", "-m", "a note on c1", c1], at("2024-01-08T00:00:00Z"));
const notesCommit = (await g(["rev-parse", "refs/notes/commits"])).trim();
await g(["checkout", "-q", "--orphan", "lonely"]);
await g(["commit", "-q", "-m", "unrelated"], at("2024-01-09T00:00:00Z"));
const lonely = await head();
await g(["tag", "-a", "v1", "-m", "v1", c2]);
await g(["push", "-q", "origin", "main", "feature/x", "lonely", "v1", "refs/notes/commits"]);

// git's order: newest committer date first, a parent never before its children.
const MAIN = [signed, merge, c3, f1, c2, c1, initial];

describe("GET /repos/{owner}/{repo}/commits", () => {
  test("lists the default branch newest first, with Gitea's paging headers", async () => {
    const r = await t.json("GET", api("hist", "/commits"), { token: aliceToken });
    expect(r.status).toBe(200);
    expect(r.body.map((c: any) => c.sha)).toEqual(MAIN);
    for (const c of r.body) expectShape(c, Commit);
    expect(r.headers.get("x-total-count")).toBe("7");
    expect(r.headers.get("x-total")).toBe("7");
    expect(r.headers.get("x-page")).toBe("1");
    expect(r.headers.get("x-perpage")).toBe("30");
    expect(r.headers.get("x-pagecount")).toBe("1");
    expect(r.headers.get("x-hasmore")).toBe("false");
    expect(r.headers.get("link")).toBeNull();
    expect(r.headers.get("access-control-expose-headers")).toContain("X-HasMore");
  });

  test("pages by limit with Link, X-HasMore and X-PageCount", async () => {
    const r = await t.json("GET", api("hist", "/commits?limit=2&page=2"), { token: aliceToken });
    expect(r.body.map((c: any) => c.sha)).toEqual([c3, f1]);
    expect(r.headers.get("x-pagecount")).toBe("4");
    expect(r.headers.get("x-hasmore")).toBe("true");
    expect(r.headers.get("x-perpage")).toBe("2");
    const link = r.headers.get("link")!;
    expect(link).toContain(`<${t.baseUrl}api/v1/repos/alice/hist/commits?limit=2&page=3>; rel="next"`);
    expect(link).toContain('rel="last"');
    expect(link).toContain('rel="prev"');
    const last = await t.json("GET", api("hist", "/commits?limit=2&page=4"), { token: aliceToken });
    expect(last.body.map((c: any) => c.sha)).toEqual([initial]);
    expect(last.headers.get("x-hasmore")).toBe("false");
    const past = await t.json("GET", api("hist", "/commits?limit=2&page=9"), { token: aliceToken });
    expect([past.status, past.body]).toEqual([200, []]);
    // Gitea caps the page size at [git] COMMITS_RANGE_SIZE (50) and reads junk as the defaults.
    const junk = await t.json("GET", api("hist", "/commits?limit=abc&page=-3"), { token: aliceToken });
    expect([junk.status, junk.body.length, junk.headers.get("x-page"), junk.headers.get("x-perpage")]).toEqual([200, 7, "1", "30"]);
  });

  test("renders Gitea's Commit JSON", async () => {
    const r = await t.json("GET", api("hist", `/commits?sha=${c2}&limit=2`), { token: aliceToken });
    const [json] = r.body;
    const url = `${t.baseUrl}api/v1/repos/alice/hist/git/commits/${c2}`;
    expect(json).toMatchObject({
      url,
      sha: c2,
      created: "2024-01-03T00:00:00Z",
      html_url: `${t.baseUrl}alice/hist/commit/${c2}`,
      commit: {
        url,
        author: { name: "Alice", email: "ALICE@example.com", date: "2024-01-03T00:00:00Z" },
        committer: { name: "Alice", email: "alice@example.com", date: "2024-01-03T00:00:00Z" },
        message: "c2: modify, add, remove\n",
        // Gitea's quirk: the tree is named by the commit id.
        tree: { url: `${t.baseUrl}api/v1/repos/alice/hist/git/trees/${c2}`, sha: c2, created: "2024-01-03T00:00:00Z" },
        verification: { verified: false, reason: "gpg.error.not_signed_commit", signature: "", signer: null, payload: "" },
      },
      parents: [{ url: `${t.baseUrl}api/v1/repos/alice/hist/git/commits/${c1}`, sha: c1, created: "0001-01-01T00:00:00Z" }],
      stats: { total: 5, additions: 3, deletions: 2 },
    });
    // The e-mail matches alice case-insensitively: both signatures are her User.
    expect(json.author.login).toBe("alice");
    expect(json.committer.login).toBe("alice");
    expect(json.author.email).toBe("alice@example.com");
    const files = [...json.files].sort((a: any, b: any) => a.filename.localeCompare(b.filename));
    expect(files).toEqual([
      { filename: "a.txt", status: "modified" },
      { filename: "b.txt", status: "added" },
      { filename: "src/main.go", status: "removed" },
    ]);
    // The offset of the signature is kept; the body of the message too.
    expect(r.body[1].commit.author.date).toBe("2024-01-02T03:04:05+02:00");
    expect(r.body[1].created).toBe("2024-01-02T03:04:05+02:00");
    expect(r.body[1].commit.message).toBe("c1: add files\n\nwith a body\n");
  });

  test("stat, files and verification can each be turned off", async () => {
    const r = await t.json("GET", api("hist", `/commits?sha=${c2}&limit=1&stat=false&files=0&verification=f`), { token: aliceToken });
    expect(r.body[0].stats).toBeNull();
    expect(r.body[0].files).toBeNull();
    expect(r.body[0].commit.verification).toBeNull();
    // Anything ParseBool does not read as true is false; empty means the default (on).
    const odd = await t.json("GET", api("hist", `/commits?sha=${c2}&limit=1&stat=yes&files=`), { token: aliceToken });
    expect(odd.body[0].stats).toBeNull();
    expect(odd.body[0].files).not.toBeNull();
  });

  test("an unknown author e-mail gives null users; renames are a removal and an addition", async () => {
    const r = await t.json("GET", api("hist", "/commits?sha=feature/x&limit=1"), { token: bobToken });
    expect(r.body[0].sha).toBe(f1);
    expect(r.body[0].author).toBeNull();
    expect(r.body[0].committer).toBeNull();
    expect(r.body[0].commit.author.date).toBe("2024-01-04T00:00:00-05:30");
    const ren = await t.json("GET", api("hist", `/git/commits/${c3}`), { token: aliceToken });
    const files = [...ren.body.files].sort((a: any, b: any) => a.filename.localeCompare(b.filename));
    expect(files).toEqual([
      { filename: "b.txt", status: "removed" },
      { filename: "c.txt", status: "added" },
    ]);
    // Stats follow git's rename detection: a pure rename changes no lines.
    expect(ren.body.stats).toEqual({ total: 0, additions: 0, deletions: 0 });
  });

  test("path, not, since and until narrow the history", async () => {
    const byPath = await t.json("GET", api("hist", "/commits?path=a.txt"), { token: aliceToken });
    expect(byPath.body.map((c: any) => c.sha)).toEqual([c2, c1]);
    expect(byPath.headers.get("x-total-count")).toBe("2");
    const dir = await t.json("GET", api("hist", "/commits?path=src"), { token: aliceToken });
    expect(dir.body.map((c: any) => c.sha)).toEqual([c2, c1]);
    const none = await t.json("GET", api("hist", "/commits?path=no/such/file"), { token: aliceToken });
    expect([none.status, none.body.message]).toEqual([404, "FileCommitsCount"]);
    const not = await t.json("GET", api("hist", `/commits?not=${c2}`), { token: aliceToken });
    expect(not.body.map((c: any) => c.sha)).toEqual([signed, merge, c3, f1]);
    expect(not.headers.get("x-total-count")).toBe("4");
    const window = await t.json("GET", api("hist", "/commits?since=2024-01-03T00:00:00Z&until=2024-01-05T12:00:00Z"), { token: aliceToken });
    expect(window.body.map((c: any) => c.sha)).toEqual([c3, f1, c2]);
    const tag = await t.json("GET", api("hist", "/commits?sha=v1"), { token: aliceToken });
    expect(tag.body.map((c: any) => c.sha)).toEqual([c2, c1, initial]);
  });

  test("unknown revisions are 404, hostile input never 500", async () => {
    for (const q of ["sha=nope", "sha=%0Amain", "not=nope", "sha=--all", "sha=-n1", `sha=${"f".repeat(40)}`, "path=a%00b", "since=%0A", "sha=main:a.txt"]) {
      const r = await t.json("GET", api("hist", `/commits?${q}`), { token: aliceToken });
      expect({ q, status: r.status }).toEqual({ q, status: 404 });
    }
    const long = await t.json("GET", api("hist", `/commits?sha=${"a".repeat(5000)}`), { token: aliceToken });
    expect(long.status).toBe(404);
    const dashPath = await t.json("GET", api("hist", "/commits?path=--output=/tmp/x"), { token: aliceToken });
    expect([dashPath.status, dashPath.body.message]).toEqual([404, "FileCommitsCount"]);
  });

  test("an empty repository is 409, a private one 404 to others", async () => {
    const empty = await t.json("GET", api("empty", "/commits"), { token: aliceToken });
    expect([empty.status, empty.body.message]).toEqual([409, "Git Repository is empty."]);
    expect((await t.json("GET", api("secret", "/commits"))).status).toBe(404);
    expect((await t.json("GET", api("secret", "/commits"), { token: bobToken })).status).toBe(404);
    expect((await t.json("GET", api("secret", "/commits"), { token: aliceToken })).status).toBe(200);
    // Public repositories are readable anonymously.
    expect((await t.json("GET", api("hist", "/commits?limit=1"))).status).toBe(200);
  });
});

test("with the code unit off, readers get Gitea's 403 and repository admins still read", async () => {
  await createRepo("nocode", { auto_init: true });
  const off = await t.json("PATCH", api("nocode"), { token: aliceToken, body: { has_code: false } });
  expect(off.status).toBe(200);
  for (const path of ["/commits", "/git/commits/main", "/compare/main...main", "/git/notes/main", "/languages", "/git/trees/main", "/editorconfig/a.go"]) {
    const r = await t.json("GET", api("nocode", path), { token: bobToken });
    expect({ path, status: r.status, message: r.body.message }).toEqual({
      path,
      status: 403,
      message: "user should have specific read permission or be a repo admin or a site admin",
    });
  }
  expect((await t.json("GET", api("nocode", "/commits"), { token: aliceToken })).status).toBe(200);
});

describe("GET /repos/{owner}/{repo}/git/commits/{sha}", () => {
  test("by sha, short sha, branch and tag", async () => {
    for (const ref of [c1, c1.slice(0, 10), "main", "v1"]) {
      const r = await t.json("GET", api("hist", `/git/commits/${encodeURIComponent(ref)}`), { token: aliceToken });
      expect(r.status).toBe(200);
      expectShape(r.body, Commit);
    }
    const tag = await t.json("GET", api("hist", "/git/commits/v1"), { token: aliceToken });
    expect(tag.body.sha).toBe(c2);
    const short = await t.json("GET", api("hist", `/git/commits/${c1.slice(0, 10)}`), { token: aliceToken });
    expect(short.body.sha).toBe(c1);
  });

  test("a merge lists both parents and what it brought in from the first parent's view", async () => {
    const r = await t.json("GET", api("hist", `/git/commits/${merge}`), { token: aliceToken });
    expect(r.body.parents.map((p: any) => p.sha)).toEqual([c3, f1]);
    expect(r.body.files).toEqual([{ filename: "f.txt", status: "added" }]);
    expect(r.body.stats).toEqual({ total: 1, additions: 1, deletions: 0 });
    const root = await t.json("GET", api("hist", `/git/commits/${initial}`), { token: aliceToken });
    expect(root.body.parents).toEqual([]);
    expect(root.body.files.length).toBeGreaterThan(0);
    expect(root.body.files.every((f: any) => f.status === "added")).toBe(true);
  });

  test("{sha}.diff and {sha}.patch: the commit against its first parent, a root commit whole", async () => {
    const diff = await t.request("GET", api("hist", `/git/commits/${c2}.diff`), { token: aliceToken });
    expect(diff.status).toBe(200);
    expect(diff.headers.get("content-type")).toStartWith("text/plain");
    expect(await diff.text()).toBe(await gitOk(["--git-dir", gitDir, "diff", "-M", `${c2}^`, c2]));
    const patch = await (await t.request("GET", api("hist", `/git/commits/${c2}.patch`), { token: aliceToken })).text();
    expect(patch).toStartWith(`From ${c2} `);
    expect(patch).not.toContain("\n-- \n");
    const root = await (await t.request("GET", api("hist", `/git/commits/${initial}.patch`), { token: aliceToken })).text();
    expect(root).toStartWith(`From ${initial} `);
    expect((await t.request("GET", api("hist", `/git/commits/${"0".repeat(40)}.diff`), { token: aliceToken })).status).toBe(404);
    // Without a known suffix it is the commit's JSON, as before.
    expect((await t.json("GET", api("hist", `/git/commits/${c2}`), { token: aliceToken })).body.sha).toBe(c2);
  });

  test.if(canSign)("a signed commit shows its signature and signed payload, unverified", async () => {
    const r = await t.json("GET", api("hist", `/git/commits/${signed}`), { token: aliceToken });
    const v = r.body.commit.verification;
    expect(v.verified).toBe(false);
    expect(v.reason).toBe("gpg.error.no_gpg_keys_found");
    expect(v.signature).toStartWith("-----BEGIN SSH SIGNATURE-----\n");
    expect(v.signature).toEndWith("-----END SSH SIGNATURE-----\n");
    expect(v.payload).toStartWith("tree ");
    expect(v.payload).not.toContain("gpgsig");
    expect(v.payload).toEndWith("\n\nsigned\n");
    // The payload is exactly what the signature covers: git verifies it against the same bytes.
    const raw = await gitOk(["--git-dir", gitDir, "cat-file", "commit", signed]);
    expect(parseCommit(signed, raw).payload).toBe(v.payload);
  });

  test("Gitea's 422 for what cannot be a ref, 404 naming the input otherwise", async () => {
    const bad = await t.json("GET", api("hist", "/git/commits/HEAD~1"), { token: aliceToken });
    expect([bad.status, bad.body.message]).toEqual([422, "no valid ref or sha: HEAD~1"]);
    for (const s of ["main..v1", "a:b", "x%20y", ".hidden", "-n"]) {
      const r = await t.json("GET", api("hist", `/git/commits/${s}`), { token: aliceToken });
      expect({ s, status: r.status }).toEqual({ s, status: s === "-n" ? 404 : 422 });
    }
    const missing = await t.json("GET", api("hist", `/git/commits/${"0".repeat(40)}`), { token: aliceToken });
    expect([missing.status, missing.body.message]).toEqual([404, "0".repeat(40)]);
    const tree = (await gitOk(["--git-dir", gitDir, "rev-parse", `${c1}^{tree}`])).trim();
    const notCommit = await t.json("GET", api("hist", `/git/commits/${tree}`), { token: aliceToken });
    expect(notCommit.status).toBe(404);
    expect((await t.json("GET", api("empty", "/git/commits/main"), { token: aliceToken })).status).toBe(404);
  });
});

describe("GET /repos/{owner}/{repo}/compare/{basehead}", () => {
  test("base...head lists head's commits since the merge base", async () => {
    const r = await t.json("GET", api("hist", `/compare/${c2}...feature/x`), { token: aliceToken });
    expect(r.status).toBe(200);
    expectShape(r.body, Compare);
    expect(r.body.total_commits).toBe(1);
    expect(r.body.commits[0].sha).toBe(f1);
    expect(r.body.commits[0].stats).toEqual({ total: 1, additions: 1, deletions: 0 });
    const main = await t.json("GET", api("hist", "/compare/feature/x...main"), { token: aliceToken });
    expect(main.body.commits.map((c: any) => c.sha)).toEqual([signed, merge, c3]);
    // `..` reads the same way; an encoded slash too.
    const two = await t.json("GET", api("hist", "/compare/feature%2Fx..main"), { token: aliceToken });
    expect(two.body.commits.map((c: any) => c.sha)).toEqual([signed, merge, c3]);
  });

  test("a lone head compares with the default branch; tags, shas and owner: prefixes resolve", async () => {
    const lone = await t.json("GET", api("hist", "/compare/v1"), { token: aliceToken });
    expect(lone.body).toEqual({ total_commits: 0, commits: [] });
    const bySha = await t.json("GET", api("hist", `/compare/${c1.slice(0, 8)}...alice:${c2}`), { token: aliceToken });
    expect(bySha.body.commits.map((c: any) => c.sha)).toEqual([c2]);
    const full = await t.json("GET", api("hist", `/compare/v1...alice/hist:main?files=false&verification=false`), { token: aliceToken });
    expect(full.body.total_commits).toBe(4);
    expect(full.body.commits[0].files).toBeNull();
    expect(full.body.commits[0].commit.verification).toBeNull();
    // Unrelated histories have no merge base: no commits.
    const unrelated = await t.json("GET", api("hist", "/compare/main...lonely"), { token: aliceToken });
    expect(unrelated.body).toEqual({ total_commits: 0, commits: [] });
    const same = await t.json("GET", api("hist", "/compare/main...main"), { token: aliceToken });
    expect(same.body.total_commits).toBe(0);
  });

  test("unknown refs and owners are 404 with Gitea's messages", async () => {
    const base = await t.json("GET", api("hist", "/compare/notexists...main"), { token: aliceToken });
    expect(base.status).toBe(404);
    expect(base.body.message).toContain("could not find 'notexists' to be a commit, branch or tag in the base");
    const head = await t.json("GET", api("hist", "/compare/main...notexists"), { token: aliceToken });
    expect(head.body.message).toContain("could not find 'notexists' to be a commit, branch or tag in the head");
    const colons = await t.json("GET", api("hist", "/compare/main...one:two:many"), { token: aliceToken });
    expect([colons.status, colons.body.message]).toEqual([404, "must contain zero or one colon (:) but contains 2"]);
    const owner = await t.json("GET", api("hist", "/compare/main...ghost:main"), { token: aliceToken });
    expect([owner.status, owner.body.message]).toEqual([404, "the owner ghost does not exist"]);
    for (const s of ["main...%0A", "main...-n", "main...HEAD~1", `main...${"z".repeat(3000)}`, "main...%E0%A4%A"]) {
      const r = await t.json("GET", api("hist", `/compare/${s}`), { token: aliceToken });
      expect({ s, status: r.status }).toEqual({ s, status: 404 });
    }
    const empty = await t.json("GET", api("empty", "/compare/main...main"), { token: aliceToken });
    expect([empty.status, empty.body.message]).toEqual([404, "Git Repository is empty."]);
  });
});

describe("GET /repos/{owner}/{repo}/git/notes/{sha}", () => {
  test("the note on a commit, with the notes commit that wrote it", async () => {
    const r = await t.json("GET", api("hist", `/git/notes/${c1}`), { token: aliceToken });
    expect(r.status).toBe(200);
    expectShape(r.body, Note);
    expect(r.body.message).toBe("a note on c1\n");
    expect(r.body.commit.sha).toBe(notesCommit);
    expect(r.body.commit.stats).not.toBeNull();
    const short = await t.json("GET", api("hist", `/git/notes/${c1.slice(0, 12)}?files=false`), { token: aliceToken });
    expect(short.body.message).toBe("a note on c1\n");
    expect(short.body.commit.files).toBeNull();
  });

  test("no note is 404, a bad pattern 422", async () => {
    expect((await t.json("GET", api("hist", `/git/notes/${c2}`), { token: aliceToken })).status).toBe(404);
    expect((await t.json("GET", api("hist", "/git/notes/nope"), { token: aliceToken })).status).toBe(404);
    const bad = await t.json("GET", api("hist", "/git/notes/HEAD~1"), { token: aliceToken });
    expect([bad.status, bad.body.message]).toEqual([422, "no valid ref or sha: HEAD~1"]);
    expect((await t.json("GET", api("empty", `/git/notes/${c1}`), { token: aliceToken })).status).toBe(404);
  });
});

describe("git times", () => {
  test("render in the signature's offset, Z for zero", () => {
    expect(gitTime({ unix: 1704157445, tz: "+0200" })).toBe("2024-01-02T03:04:05+02:00");
    expect(gitTime({ unix: 1704157445, tz: "-0000" })).toBe("2024-01-02T01:04:05Z");
    expect(gitTime({ unix: 1704157445, tz: "-0930" })).toBe("2024-01-01T15:34:05-09:30");
  });
});
