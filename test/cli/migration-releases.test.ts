import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { parse, stringify } from "yaml";
import { makeTestApp, ROOT_URL } from "../support/app.ts";
import { attachments, releases, type RepoRow } from "../../src/db/schema/index.ts";
import { getRepoByOwner } from "../../src/models/repo.ts";
import { createApp } from "../../src/http/app.ts";
import { runGit } from "../../src/git/exec.ts";

/**
 * Releases and their assets through `hearth dump-repo` / `hearth restore-repo` (Gitea's release.yml
 * and `release_assets/{tag}/{name}`): real CLI processes on the work directory of an in-process
 * hearth, whose API then shows what was restored.
 */

const REPO = join(import.meta.dir, "../..");
const t = makeTestApp();
const app = createApp(t.env);
const out = mkdtempSync(join(tmpdir(), "hearth-dump-rel-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function hearth(args: string[]) {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("HEARTH")) env[k] = v;
  const proc = Bun.spawn([process.execPath, "src/main.ts", ...args], {
    cwd: REPO,
    env: { ...env, HEARTH_WORK_DIR: t.dir, HEARTH__LOG__LEVEL: "none" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

async function ok(args: string[]): Promise<string> {
  const r = await hearth(args);
  if (r.code !== 0) throw new Error(`hearth ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

async function fails(args: string[]): Promise<string> {
  const r = await hearth(args);
  expect(r.code).not.toBe(0);
  expect(r.stderr).toMatch(/^hearth: [^\n]+\n$/);
  return r.stderr.slice("hearth: ".length, -1);
}

const root = await t.user("root", { admin: true });
const alice = await t.user("alice");
const rootToken = t.token(root);
const aliceToken = t.token(alice);
const db = t.env.db;

/** The file as the whole request body, named by `?name=` (Gitea 1.25's raw asset upload). */
async function uploadAsset(releasePath: string, name: string, data: Uint8Array | string): Promise<any> {
  const res = await app.handle(
    new Request(`${ROOT_URL}${releasePath.slice(1)}/assets?name=${encodeURIComponent(name)}`, {
      method: "POST",
      headers: { Authorization: `token ${aliceToken}`, "Content-Type": "application/octet-stream" },
      body: data,
    }),
  );
  expect(res.status).toBe(201);
  return res.json();
}

const download = async (url: string, token = rootToken) => {
  const res = await t.request("GET", url.slice(ROOT_URL.length - 1), { token });
  expect({ url, status: res.status }).toEqual({ url, status: 200 });
  return new Uint8Array(await res.arrayBuffer());
};

const zip = new Uint8Array(4096).map((_, i) => (i * 31 + 7) % 256);
zip.set([0x50, 0x4b, 0x03, 0x04]);
const text = "release notes\nline two\n";
const hidden = new Uint8Array([0, 1, 2, 3, 255]);

await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "proj", auto_init: true }, 201);
const projGit = join(t.settings.repository.root, "alice", "proj.git");
await runGit(["tag", "v1.0", "main"], { gitDir: projGit });
await runGit(["branch", "feature", "main"], { gitDir: projGit });
const base = "/api/v1/repos/alice/proj/releases";
// A release of an existing tag, a prerelease whose tag publishing creates, and a draft without a tag.
const r1 = await t.ok("POST", base, aliceToken, { tag_name: "v1.0", name: "One", body: "First\n\n- yes: no" }, 201);
const r2 = await t.ok("POST", base, aliceToken, { tag_name: "v2.0-rc1", target_commitish: "feature", name: "Two", prerelease: true }, 201);
const r3 = await t.ok("POST", base, aliceToken, { tag_name: "v3.0", name: "Three", draft: true }, 201);
const zipAsset = await uploadAsset(`${base}/${r1.id}`, "app.zip", zip);
const txtAsset = await uploadAsset(`${base}/${r1.id}`, "notes.txt", text);
await uploadAsset(`${base}/${r3.id}`, "draft.bin", hidden);
// Names that cannot be files of release_assets/v3.0/ as they are: taken already, or leaving the directory.
const sameName = await uploadAsset(`${base}/${r3.id}`, "draft.bin", "second");
const upward = await uploadAsset(`${base}/${r3.id}`, "../up.txt", "up");
await download(zipAsset.browser_download_url);
await download(zipAsset.browser_download_url);
// An imported release: its publisher is known only by name.
db.update(releases).set({ publisherId: -1, originalAuthor: "octocat", originalAuthorId: 583231 }).where(eq(releases.id, r2.id)).run();

const dumpDir = join(out, "dump");
const dumped = join(dumpDir, "alice", "proj");
const load = (dir: string, file: string) => parse(readFileSync(join(dir, file), "utf8"));
const restoredGit = (name: string) => join(t.settings.repository.root, "alice", `${name}.git`);

describe("dump-repo", () => {
  test("release.yml holds Gitea's Release records, newest first, drafts included", async () => {
    await ok(["dump-repo", "--repo_dir", dumpDir, "--owner_name", "alice", "--repo_name", "proj"]);
    expect(load(dumped, "repo.yml")).toMatchObject({ releases: true, assets: true });
    const list = load(dumped, "release.yml") as Record<string, any>[];
    expect(list.map((r) => r.tag_name)).toEqual(["v3.0", "v2.0-rc1", "v1.0"]);
    for (const r of list) {
      expect(Object.keys(r)).toEqual([
        "tag_name", "target_commitish", "name", "body", "draft", "prerelease",
        "publisher_id", "publisher_name", "publisher_email", "assets", "created", "published",
      ]);
      expect(r.published).toBe(r.created);
    }
    const [three, two, one] = list;
    expect(three).toMatchObject({ name: "Three", draft: true, prerelease: false, publisher_name: "alice" });
    expect(two).toMatchObject({ target_commitish: "feature", prerelease: true, publisher_id: 583231, publisher_name: "octocat", publisher_email: "", assets: [] });
    expect(one).toMatchObject({ name: "One", body: "First\n\n- yes: no", draft: false, publisher_id: alice.id, publisher_name: "alice", publisher_email: alice.email });
    expect(one!.assets).toEqual([
      {
        id: zipAsset.id, name: "app.zip", content_type: "application/zip", size: zip.length, download_count: 2,
        created: one!.assets[0].created, updated: one!.assets[0].created, download_url: "release_assets/v1.0/app.zip",
      },
      {
        id: txtAsset.id, name: "notes.txt", content_type: "text/plain; charset=utf-8", size: text.length, download_count: 0,
        created: one!.assets[1].created, updated: one!.assets[1].created, download_url: "release_assets/v1.0/notes.txt",
      },
    ]);
    expect(Date.parse(one!.assets[0].created)).toBe(Date.parse(zipAsset.created_at));
  });

  test("release_assets/{tag}/ holds each release's asset files, byte for byte", () => {
    expect(readdirSync(join(dumped, "release_assets"), { recursive: true }).map(String).sort()).toEqual([
      "v1.0", "v1.0/app.zip", "v1.0/notes.txt", "v2.0-rc1", "v3.0", `v3.0/${sameName.id}-draft.bin`, `v3.0/asset-${upward.id}`, "v3.0/draft.bin",
    ].sort());
    const three = (load(dumped, "release.yml") as Record<string, any>[])[0]!;
    expect(three.assets.map((a: any) => [a.name, a.download_url])).toEqual([
      ["../up.txt", `release_assets/v3.0/asset-${upward.id}`],
      ["draft.bin", "release_assets/v3.0/draft.bin"],
      ["draft.bin", `release_assets/v3.0/${sameName.id}-draft.bin`],
    ]);
    expect(readFileSync(join(dumped, `release_assets/v3.0/${sameName.id}-draft.bin`), "utf8")).toBe("second");
    expect(new Uint8Array(readFileSync(join(dumped, "release_assets/v1.0/app.zip")))).toEqual(zip);
    expect(readFileSync(join(dumped, "release_assets/v1.0/notes.txt"), "utf8")).toBe(text);
    expect(new Uint8Array(readFileSync(join(dumped, "release_assets/v3.0/draft.bin")))).toEqual(hidden);
  });

  test("without release_assets the assets are described, not copied, with their download address", async () => {
    const dir = join(out, "noassets");
    await ok(["dump-repo", "-r", dir, "--owner_name", "alice", "--repo_name", "proj", "--units", "releases"]);
    const d = join(dir, "alice", "proj");
    expect(readdirSync(d).sort()).toEqual(["git", "release.yml", "repo.yml", "topic.yml"]);
    expect(load(d, "repo.yml")).toMatchObject({ releases: true, assets: false, issues: false });
    const one = (load(d, "release.yml") as Record<string, any>[])[2]!;
    // The address is the dumping process's ROOT_URL; the path is the asset's download route.
    const urls = one.assets.map((a: { download_url: string }) => new URL(a.download_url).pathname);
    expect(urls).toEqual([`/attachments/${zipAsset.uuid}`, `/attachments/${txtAsset.uuid}`]);
    expect(one.assets[0].content_type).toBeNull();
  });
});

describe("restore-repo", () => {
  test("releases, assets and their bytes come back; dumping the copy gives the same release.yml", async () => {
    await ok(["restore-repo", "--repo_dir", dumped, "--owner_name", "alice", "--repo_name", "copy"]);
    // Dumped again before any download counts up: only the asset ids (new rows) differ.
    const again = join(out, "again");
    await ok(["dump-repo", "-r", again, "--owner_name", "alice", "--repo_name", "copy"]);
    // File names made from an asset's id (for names that cannot be files) follow the new ids.
    const file = (url: string) => url.replace(/\/asset-\d+$/, "/asset-N").replace(/\/\d+-([^/]+)$/, "/N-$1");
    const strip = (list: Record<string, any>[]) =>
      list.map((r) => ({ ...r, assets: r.assets.map(({ id: _, ...a }: any) => ({ ...a, download_url: file(a.download_url) })) }));
    expect(strip(load(join(again, "alice", "copy"), "release.yml"))).toEqual(strip(load(dumped, "release.yml")));

    const list = await t.ok("GET", "/api/v1/repos/alice/copy/releases", rootToken);
    expect(list.map((r: { tag_name: string }) => r.tag_name)).toEqual(["v3.0", "v2.0-rc1", "v1.0"]);
    const [three, two, one] = list;
    expect(one).toMatchObject({ name: "One", body: "First\n\n- yes: no", draft: false, prerelease: false, created_at: r1.created_at, author: { login: "alice" } });
    expect(two).toMatchObject({ target_commitish: "feature", prerelease: true, draft: false, author: { login: "Ghost" } });
    expect(three).toMatchObject({ draft: true, author: { login: "alice" } });
    expect(one.assets.map((a: any) => [a.name, a.size, a.download_count])).toEqual([["app.zip", zip.length, 2], ["notes.txt", text.length, 0]]);
    expect(one.assets[0].created_at).toBe(zipAsset.created_at);
    // New rows and files: the copy's assets are its own.
    expect(one.assets[0].uuid).not.toBe(zipAsset.uuid);
    expect(await download(one.assets[0].browser_download_url)).toEqual(zip);
    expect(new TextDecoder().decode(await download(one.assets[1].browser_download_url))).toBe(text);
    expect(three.assets.map((a: { name: string }) => a.name)).toEqual(["../up.txt", "draft.bin", "draft.bin"]);
    expect(await download(three.assets[1].browser_download_url)).toEqual(hidden);
    expect(new TextDecoder().decode(await download(three.assets[0].browser_download_url))).toBe("up");

    const copy = getRepoByOwner(db, alice.id, "copy") as RepoRow;
    const rows = db.select().from(releases).where(eq(releases.repoId, copy.id)).all();
    const byTag = new Map(rows.map((r) => [r.tagName, r]));
    const tagCommit = async (tag: string) => (await runGit(["rev-parse", `refs/tags/${tag}^{commit}`], { gitDir: restoredGit("copy") })).stdout.toString().trim();
    expect(byTag.get("v1.0")).toMatchObject({ sha1: await tagCommit("v1.0"), numCommits: 1, isTag: false });
    expect(byTag.get("v2.0-rc1")).toMatchObject({ publisherId: -1, originalAuthor: "octocat", originalAuthorId: 583231 });
    expect(byTag.get("v3.0")).toMatchObject({ sha1: "", isDraft: true });
    expect((await t.ok("GET", "/api/v1/repos/alice/copy", rootToken)).release_counter).toBe(2);

  });

  test("a published release whose tag is not in the git data becomes a draft without a commit (Gitea's SyncTags)", async () => {
    const dir = join(out, "notag");
    cpSync(dumped, dir, { recursive: true });
    await runGit(["update-ref", "-d", "refs/tags/v2.0-rc1"], { gitDir: join(dir, "git") });
    await ok(["restore-repo", "-r", dir, "--owner_name", "alice", "--repo_name", "notag"]);
    const repo = getRepoByOwner(db, alice.id, "notag") as RepoRow;
    const row = db.select().from(releases).where(eq(releases.repoId, repo.id)).all().find((r) => r.tagName === "v2.0-rc1");
    expect(row).toMatchObject({ isDraft: true, sha1: "", numCommits: 0 });
    expect(repo.numReleases).toBe(1);
  });

  test("--units releases restores the releases without assets, and a dump without asset files needs it", async () => {
    const d = join(out, "noassets", "alice", "proj");
    expect(await fails(["restore-repo", "-r", d, "--owner_name", "alice", "--repo_name", "na1"])).toMatch(
      new RegExp(`^release.yml: item 0: field "assets\\[0\\].download_url": "http://[^"]+/attachments/${upward.uuid}" is not a file of the dump \\(dumped without release_assets\\?\\) \\(and 4 more problems\\)$`),
    );
    expect(getRepoByOwner(db, alice.id, "na1")).toBeUndefined();
    await ok(["restore-repo", "-r", d, "--owner_name", "alice", "--repo_name", "na2", "--units", "releases"]);
    const list = await t.ok("GET", "/api/v1/repos/alice/na2/releases", rootToken);
    expect(list.map((r: { tag_name: string; assets: unknown[] }) => [r.tag_name, r.assets.length])).toEqual([["v3.0", 0], ["v2.0-rc1", 0], ["v1.0", 0]]);
  });
});

describe("dump-repo of a repository whose asset file is lost", () => {
  test("fails, naming the asset, and leaves nothing behind", async () => {
    const repo = getRepoByOwner(db, alice.id, "notag") as RepoRow;
    const lost = db.select().from(attachments).where(eq(attachments.repoId, repo.id)).all().find((a) => a.name === "app.zip")!;
    rmSync(join(t.settings.server.appDataPath, "attachments", lost.uuid[0]!, lost.uuid[1]!, lost.uuid));
    const dir = join(out, "lost");
    expect(await fails(["dump-repo", "-r", dir, "--owner_name", "alice", "--repo_name", "notag"])).toBe(
      `release v1.0: the file of asset "app.zip" (id ${lost.id}) is missing from attachment storage`,
    );
    expect(existsSync(join(dir, "alice", "notag"))).toBe(false);
  });
});

describe("a bad release.yml is refused with nothing written", () => {
  let n = 0;
  function brokenDump(edit: (list: any[], dir: string) => void): string {
    const dir = join(out, `broken${++n}`);
    cpSync(dumped, dir, { recursive: true });
    const list = load(dir, "release.yml");
    edit(list, dir);
    writeFileSync(join(dir, "release.yml"), stringify(list));
    return dir;
  }
  const storedFiles = () => {
    const dir = join(t.settings.server.appDataPath, "attachments");
    return existsSync(dir) ? readdirSync(dir, { recursive: true }).length : 0;
  };
  const counts = () => ({
    releases: db.select({ n: sql<number>`count(*)` }).from(releases).get()!.n,
    attachments: db.select({ n: sql<number>`count(*)` }).from(attachments).get()!.n,
    files: storedFiles(),
  });

  async function refused(dir: string, name: string): Promise<string> {
    const before = counts();
    const reason = await fails(["restore-repo", "-r", dir, "--owner_name", "alice", "--repo_name", name]);
    expect(counts()).toEqual(before);
    expect(getRepoByOwner(db, alice.id, name)).toBeUndefined();
    expect(existsSync(restoredGit(name))).toBe(false);
    return reason;
  }

  test("schema, tag, duplicate and asset file problems", async () => {
    const reasons = await Promise.all([
      refused(brokenDump((l) => (l[0].color = "red")), "bad1"),
      refused(brokenDump((l) => delete l[1].publisher_id), "bad2"),
      refused(brokenDump((l) => (l[2].tag_name = "v1..0")), "bad3"),
      refused(brokenDump((l) => (l[0].tag_name = "V1.0")), "bad4"),
      refused(brokenDump((l) => (l[2].assets[0].size = 10)), "bad5"),
      refused(brokenDump((l) => (l[2].assets[1].download_url = "../../../etc/passwd")), "bad6"),
      refused(brokenDump((_, dir) => rmSync(join(dir, "release_assets/v3.0/draft.bin"))), "bad7"),
      refused(brokenDump((l) => (l[2].assets[0].download_count = "many")), "bad8"),
      refused(brokenDump((l) => (l[1].created = "2024-13-01T00:00:00Z")), "bad9"),
      refused(brokenDump((l) => (l[1].target_commitish = "a b")), "bad10"),
    ]);
    expect(reasons).toEqual([
      'release.yml: item 0: field "color": must NOT have additional properties',
      "release.yml: item 1: field \"publisher_id\": must have required property 'publisher_id'",
      'release.yml: item 2: field "tag_name": invalid tag name "v1..0"',
      'release.yml: item 2: field "tag_name": duplicate tag "v1.0"',
      `release.yml: item 2: field "assets[0].size": is 10, the file has ${zip.length} bytes`,
      'release.yml: item 2: field "assets[1].download_url": "../../../etc/passwd" is outside the dump',
      'release.yml: item 0: field "assets[1].download_url": file "release_assets/v3.0/draft.bin" is missing',
      'release.yml: item 2: field "assets[0].download_count": must be integer',
      'release.yml: item 1: field "created": must match format "date-time"',
      'release.yml: item 1: field "target_commitish": invalid git reference "a b"',
    ]);
  });
});
