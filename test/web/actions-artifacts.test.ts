import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { quietly, stepEnv as stepEnvFor } from "../support/artifact-client.ts";
import { ownerRunner, pushFiles, waitForRuns } from "../support/actions-pages.ts";
import { CHROMIUM, launchChromium } from "../support/browser.ts";
import type { MockRunner } from "../support/mock-runner.ts";
import { WebClient, signedIn, visibleText } from "../support/web.ts";
import type { ActionRunRow } from "../../src/db/schema/index.ts";
import { artifactsOfRunNamed, ArtifactStatus, updateArtifact } from "../../src/models/actions-artifact.ts";
import { writeTx } from "../../src/db/client.ts";
import { artifactStore, sweepArtifacts } from "../../src/services/actions/artifacts.ts";
import { eventsIdle } from "../../src/services/events/bus.ts";
import { zipEntries, zipEntryData, type RandomAccess } from "../../src/lib/zip.ts";
import { nowUnix } from "../../src/lib/time.ts";

/**
 * A run's artifacts on its page, black box: a job uploads them the real way (the @actions/artifact
 * client of upload-artifact@v4 with the job's runtime token, and upload-artifact@v3's legacy
 * protocol request by request, one file gzipped in two pieces), then the run page lists them, a
 * download is the v4 zip as stored or a zip of the v3 files made on the fly, an expired one is
 * listed but not downloadable, writers delete and readers cannot, a private run stays hidden, and
 * tokens with the repository scope download too.
 */
const t = makeTestApp("", { listen: true });
const anon = new WebClient(t);
let owner: WebClient;
let reader: WebClient;
let runner: MockRunner;
let aliceToken: string;
let publicRun: ActionRunRow;
let privateRun: ActionRunRow;

const WORKFLOW = `name: CI
on: [push]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/upload-artifact@v4
`;

const V3_TEXT = "hello v3 ".repeat(300);
const BIG = Buffer.alloc(300_000, 7);

/** The environment act_runner gives a step, for the @actions/artifact client. */
const stepEnv = (token: string) => stepEnvFor(t.baseUrl, token);

/** upload-artifact@v4: the real client zips `files` (relative to a fresh directory) and uploads them. */
async function uploadV4(token: string, name: string, files: Record<string, Uint8Array | string>, retentionDays?: number): Promise<void> {
  stepEnv(token);
  const dir = mkdtempSync(join(tmpdir(), "hearth-art-"));
  const paths = Object.entries(files).map(([rel, content]) => {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), content);
    return join(dir, rel);
  });
  const { DefaultArtifactClient } = await import("@actions/artifact");
  const res = await quietly(() => new DefaultArtifactClient().uploadArtifact(name, paths, dir, retentionDays ? { retentionDays } : {}));
  expect(res.id).toBeGreaterThan(0);
}

/** upload-artifact@v3's protocol: create, PUT each file in Content-Range pieces, PATCH to confirm. */
async function uploadV3(token: string, runId: number, name: string): Promise<void> {
  const base = `${t.baseUrl}api/actions_pipeline/_apis/pipelines/workflows/${runId}/artifacts`;
  const auth = { Authorization: `Bearer ${token}` };
  const md5 = (b: Uint8Array) => createHash("md5").update(b).digest("base64");
  const created = await fetch(`${base}?api-version=6.0-preview`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({ Type: "actions_storage", Name: name, RetentionDays: 30 }),
  });
  const { fileContainerResourceUrl: uploadUrl } = (await created.json()) as { fileContainerResourceUrl: string };
  const put = async (itemPath: string, body: Uint8Array, start: number, total: number, extra: Record<string, string> = {}) => {
    const res = await fetch(`${uploadUrl}&itemPath=${encodeURIComponent(itemPath)}`, {
      method: "PUT",
      headers: { ...auth, "Content-Type": "application/octet-stream", "Content-Range": `bytes ${start}-${start + body.length - 1}/${total}`, "x-actions-results-md5": md5(body), ...extra },
      body,
    });
    expect(res.status).toBe(200);
  };
  const gz = Bun.gzipSync(Buffer.from(V3_TEXT));
  const half = Math.floor(gz.length / 2);
  const gzHeaders = { "Content-Encoding": "gzip", "x-tfs-filelength": String(V3_TEXT.length) };
  await put(`${name}/dir/a.txt`, gz.subarray(0, half), 0, gz.length, gzHeaders);
  await put(`${name}/dir/a.txt`, gz.subarray(half), half, gz.length, gzHeaders);
  await put(`${name}/b.txt`, Buffer.from("plain"), 0, 5);
  const confirmed = await fetch(`${base}?artifactName=${encodeURIComponent(name)}`, { method: "PATCH", headers: auth });
  expect(confirmed.status).toBe(200);
}

/** Pushes the workflow to `repo`, runs its job with `upload` using the job's runtime token, and finishes it. */
async function runWithArtifacts(repo: string, repoId: number, upload: (token: string, run: ActionRunRow) => Promise<void>): Promise<ActionRunRow> {
  await pushFiles(t, "alice", repo, { ".gitea/workflows/ci.yml": WORKFLOW }, "Add CI");
  const [run] = await waitForRuns(t, repoId, 1);
  const { task } = await runner.fetchTask();
  if (!task) throw new Error("no task");
  await upload((task.context as Record<string, any>).gitea_runtime_token as string, run!);
  await runner.runTask(task, { steps: [{ lines: ["uploaded"] }] });
  await eventsIdle(t.env);
  return run!;
}

beforeAll(async () => {
  const alice = await t.user("alice");
  await t.user("bob");
  aliceToken = t.token(alice);
  for (const [name, isPrivate] of [["tools", false], ["secret", true]] as const) {
    await t.ok("POST", "/api/v1/user/repos", aliceToken, { name, auto_init: true, private: isPrivate }, 201);
  }
  await t.ok("PUT", "/api/v1/repos/alice/tools/collaborators/bob", aliceToken, { permission: "read" }, 204);
  owner = await signedIn(t, "alice");
  reader = await signedIn(t, "bob");
  runner = await ownerRunner(t, alice.id);
  const toolsId = (await t.ok("GET", "/api/v1/repos/alice/tools", aliceToken)).id as number;
  const secretId = (await t.ok("GET", "/api/v1/repos/alice/secret", aliceToken)).id as number;
  publicRun = await runWithArtifacts("tools", toolsId, async (token, run) => {
    await uploadV4(token, "build output", { "a.txt": "hello artifact\n", "sub/b.bin": BIG });
    await uploadV4(token, "old", { "old.txt": "stale" }, 1);
    await uploadV3(token, run.id, "logs");
  });
  privateRun = await runWithArtifacts("secret", secretId, (token) => uploadV4(token, "secret-build", { "s.txt": "private bytes" }));
  // A day and a half later, "old" (kept one day) is past its retention; the others are not.
  expect(sweepArtifacts(t.env, nowUnix() + 36 * 3600).expired).toBe(1);
});

const access = (b: Uint8Array): RandomAccess => ({ size: b.length, read: async (o, n) => b.subarray(o, o + n) });

/** The entries of a zip and each one's bytes (stored or deflated). */
async function unzipped(zip: Uint8Array): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const e of await zipEntries(access(zip))) {
    const { start, end } = await zipEntryData(access(zip), e);
    const raw = zip.subarray(start, end);
    out.set(e.name, Buffer.from(e.method === 8 ? Bun.inflateSync(new Uint8Array(raw)) : raw));
  }
  return out;
}

const runPath = () => `/alice/tools/actions/runs/${publicRun.index}`;

describe("the run page's artifacts", () => {
  test("lists each artifact once with its size; an expired one is marked and not linked", async () => {
    const page = await anon.page(runPath());
    const text = visibleText(page);
    expect(text).toContain("Artifacts");
    // v4 artifacts' sizes are their zips'; the v3 one sums its files as uploaded.
    const logsSize = V3_TEXT.length + 5;
    expect(text).toMatch(new RegExp(`logs ${(logsSize / 1024).toFixed(1)} KiB`));
    const [zip] = artifactsOfRunNamed(t.env.db, publicRun.id, "build output");
    expect(text).toContain(`build output ${zip!.fileSize} B`);
    expect(text).toMatch(/old Expired \d+ B/);
    expect(page).toContain(`href="${runPath()}/artifacts/build%20output"`);
    expect(page).toContain(`href="${runPath()}/artifacts/logs"`);
    expect(page).not.toContain(`${runPath()}/artifacts/old"`);
    // Listed by name, each name once though logs has a row per file.
    expect([...text.matchAll(/\b(build output|logs|old)\b/g)].map((m) => m[1])).toEqual(["build output", "logs", "old"]);
  });

  test("each run lists its own artifacts", async () => {
    const text = visibleText(await owner.page(`/alice/secret/actions/runs/${privateRun.index}`));
    expect(text).toContain("secret-build");
    expect(text).not.toContain("build output");
    expect(visibleText(await anon.page(runPath()))).not.toContain("secret-build");
  });
});

describe("downloads", () => {
  test("a v4 artifact is its stored zip, named after the artifact", async () => {
    const res = await anon.get(`${runPath()}/artifacts/build%20output`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toStartWith('attachment; filename="build output.zip"');
    const body = new Uint8Array(await res.arrayBuffer());
    const [row] = artifactsOfRunNamed(t.env.db, publicRun.id, "build output");
    expect(Buffer.from(body).equals(readFileSync(artifactStore(t.env).file(row!.storagePath)!))).toBe(true);
    expect(Number(res.headers.get("content-length"))).toBe(body.length);
    const files = await unzipped(body);
    expect(files.get("a.txt")?.toString()).toBe("hello artifact\n");
    expect(files.get("sub/b.bin")?.equals(BIG)).toBe(true);
  });

  test("a v3 artifact is a zip of its files made on the fly, gzip undone, each under its path", async () => {
    const res = await anon.get(`${runPath()}/artifacts/logs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toStartWith('attachment; filename="logs.zip"');
    const body = new Uint8Array(await res.arrayBuffer());
    const files = await unzipped(body);
    expect([...files.keys()]).toEqual(["dir/a.txt", "b.txt"]);
    expect(files.get("dir/a.txt")!.toString()).toBe(V3_TEXT);
    expect(files.get("b.txt")!.toString()).toBe("plain");
    const unzip = Bun.which("unzip");
    if (unzip) {
      const path = join(mkdtempSync(join(tmpdir(), "hearth-dl-")), "logs.zip");
      writeFileSync(path, body);
      const check = Bun.spawnSync([unzip, "-t", path]);
      expect([check.exitCode, check.stdout.toString()]).toEqual([0, expect.stringContaining("No errors detected")]);
    }
  });

  test("an expired, unknown or another run's artifact is the 404 page", async () => {
    for (const path of [`${runPath()}/artifacts/old`, `${runPath()}/artifacts/nothing`, `/alice/tools/actions/runs/${publicRun.index + 5}/artifacts/logs`]) {
      const res = await anon.get(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.headers.get("content-type")).toStartWith("text/html");
    }
  });

  test("a v3 artifact whose files would make a zip of 4 GiB or more is refused before anything is sent", async () => {
    // Announced sizes decide: a gzipped file of the logs said to unpack to 5 GiB.
    const [gzipped] = artifactsOfRunNamed(t.env.db, publicRun.id, "logs");
    expect(gzipped!.contentEncoding).toBe("gzip");
    writeTx(t.env.db, (tx) => updateArtifact(tx, gzipped!.id, { fileSize: 5 * 2 ** 30 }));
    try {
      const res = await anon.get(`${runPath()}/artifacts/logs`);
      expect(res.status).toBe(413);
      expect(res.headers.get("content-type")).toStartWith("text/html");
      expect(visibleText(await res.text())).toContain("too large to download as one zip");
    } finally {
      writeTx(t.env.db, (tx) => updateArtifact(tx, gzipped!.id, { fileSize: gzipped!.fileSize }));
    }
  });

  test("a private run's artifacts are hidden from the anonymous, and reach its owner", async () => {
    const path = `/alice/secret/actions/runs/${privateRun.index}`;
    expect((await anon.get(path)).status).toBe(404);
    expect((await anon.get(`${path}/artifacts/secret-build`)).status).toBe(404);
    const res = await owner.get(`${path}/artifacts/secret-build`);
    expect(res.status).toBe(200);
    expect((await unzipped(new Uint8Array(await res.arrayBuffer()))).get("s.txt")?.toString()).toBe("private bytes");
  });

  test("a token with the repository scope downloads; one without it is refused", async () => {
    const path = `/alice/secret/actions/runs/${privateRun.index}/artifacts/secret-build`;
    const alice = (await t.ok("GET", "/api/v1/users/alice", undefined)) as { id: number };
    const { getUserById } = await import("../../src/models/user.ts");
    const user = getUserById(t.env.db, alice.id)!;
    const scoped = await t.request("GET", path, { token: t.token(user, ["read:repository"]) });
    expect(scoped.status).toBe(200);
    expect(scoped.headers.get("content-type")).toBe("application/zip");
    await scoped.arrayBuffer();
    const unscoped = await t.request("GET", path, { token: t.token(user, ["read:user"]) });
    expect(unscoped.status).toBe(403);
    await unscoped.text();
  });
});

describe("deleting", () => {
  test("a reader sees no delete button and cannot delete", async () => {
    const page = await reader.page(runPath());
    expect(page).toContain(`${runPath()}/artifacts/logs"`);
    expect(page).not.toContain("/delete");
    const res = await reader.post(`${runPath()}/artifacts/logs/delete`, {});
    expect(res.status).toBe(403);
    expect(artifactsOfRunNamed(t.env.db, publicRun.id, "logs").map((a) => a.status)).toEqual([ArtifactStatus.UploadConfirmed, ArtifactStatus.UploadConfirmed]);
    expect((await anon.post(`${runPath()}/artifacts/logs/delete`, {})).status).toBeGreaterThanOrEqual(300);
    expect(artifactsOfRunNamed(t.env.db, publicRun.id, "logs").every((a) => a.status === ArtifactStatus.UploadConfirmed)).toBe(true);
  });

  test("a writer deletes: every file of the name goes to the sweep, the page stops listing it", async () => {
    const page = await owner.page(runPath());
    expect(page).toContain(`action="${runPath()}/artifacts/logs/delete"`);
    // Expired artifacts have nothing left to delete.
    expect(page).not.toContain(`action="${runPath()}/artifacts/old/delete"`);
    const res = await owner.post(`${runPath()}/artifacts/logs/delete`, {});
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(runPath());
    expect(artifactsOfRunNamed(t.env.db, publicRun.id, "logs").map((a) => a.status)).toEqual([ArtifactStatus.PendingDeletion, ArtifactStatus.PendingDeletion]);
    const after = visibleText(await owner.page(runPath()));
    expect(after).toContain("The artifact “logs” was deleted.");
    expect(after).not.toMatch(/\blogs\b.*KiB/);
    expect((await owner.get(`${runPath()}/artifacts/logs`)).status).toBe(404);
    // Again: nothing left of that name.
    await owner.post(`${runPath()}/artifacts/logs/delete`, {});
    expect(visibleText(await owner.page(runPath()))).toContain("This run has no artifact “logs” to delete.");
    expect(sweepArtifacts(t.env, nowUnix()).deleted).toBe(2);
  });
});

describe.skipIf(!CHROMIUM)("in Chromium with JavaScript off", () => {
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  test("the run page shows the artifacts and the link downloads the zip", async () => {
    const ctx = await browser.newContext({ javaScriptEnabled: false, acceptDownloads: true });
    const page = await ctx.newPage();
    await page.goto(`${t.baseUrl}user/login`);
    await page.getByLabel("Username or email address").fill("alice");
    await page.getByLabel("Password", { exact: true }).fill("password123");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.goto(`${t.baseUrl}alice/tools/actions/runs/${publicRun.index}`);
    const section = page.getByRole("region", { name: "Artifacts" });
    await expect(section.getByRole("link", { name: "build output" }).count()).resolves.toBe(1);
    await expect(section.getByRole("button", { name: "Delete build output" }).count()).resolves.toBe(1);
    // HEARTH_SCREENSHOTS=dir keeps the picture for a person to look at.
    await page.screenshot({ path: join(process.env.HEARTH_SCREENSHOTS ?? tmpdir(), "run-artifacts.png"), fullPage: true });
    const [download] = await Promise.all([page.waitForEvent("download"), section.getByRole("link", { name: "build output" }).click()]);
    expect(download.suggestedFilename()).toBe("build output.zip");
    const saved = readFileSync((await download.path())!);
    expect((await unzipped(new Uint8Array(saved))).get("a.txt")?.toString()).toBe("hello artifact\n");
    await ctx.close();
  });

  test("axe finds no critical or serious problem on the run page, light or dark, signed in or not", async () => {
    const problems: string[] = [];
    for (const scheme of ["light", "dark"] as const) {
      const ctx = await browser.newContext({ bypassCSP: true, colorScheme: scheme });
      const page = await ctx.newPage();
      for (const signIn of [false, true]) {
        if (signIn) {
          await page.goto(`${t.baseUrl}user/login`);
          await page.getByLabel("Username or email address").fill("alice");
          await page.getByLabel("Password", { exact: true }).fill("password123");
          await page.getByRole("button", { name: "Sign in" }).click();
        }
        await page.goto(`${t.baseUrl}alice/tools/actions/runs/${publicRun.index}`);
        expect(await page.getByRole("region", { name: "Artifacts" }).isVisible()).toBe(true);
        await page.addScriptTag({ path: require.resolve("axe-core/axe.min.js") });
        const result = (await page.evaluate(`axe.run(document, { resultTypes: ["violations"] })`)) as {
          violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
        };
        for (const v of result.violations) {
          if (v.impact === "critical" || v.impact === "serious") problems.push(`${scheme} ${signIn ? "owner" : "anonymous"}: ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`);
        }
      }
      await ctx.close();
    }
    expect(problems).toEqual([]);
  });
});
