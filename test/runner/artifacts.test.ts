import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { settled as settledActions } from "../support/actions.ts";
import { quietly, stepEnv as stepEnvFor } from "../support/artifact-client.ts";
import { MockRunner } from "../support/mock-runner.ts";
import type { Task } from "../../src/http/runner/gen/runner/v1/messages_pb.ts";
import { registrationToken } from "../../src/services/actions/runners.ts";
import { listRuns } from "../../src/models/actions-run.ts";
import { artifactById, ArtifactStatus } from "../../src/models/actions-artifact.ts";
import { countQueueItems } from "../../src/models/queue.ts";
import { artifactStore, authenticateArtifactCall, downloadTarget, sweepArtifacts } from "../../src/services/actions/artifacts.ts";
import { ARTIFACT_SWEEP_QUEUE, queueArtifactSweep } from "../../src/services/actions/artifact-sweep-queue.ts";
import { HearthError } from "../../src/lib/errors.ts";
import * as v from "valibot";
import { ActionArtifact, ActionArtifactsResponse } from "../../src/shapes/actions-artifact.ts";
import { nowUnix } from "../../src/lib/time.ts";

/**
 * Artifacts over the v4 protocol as `actions/upload-artifact@v4` and `download-artifact@v4` speak
 * it: the real @actions/artifact client (v2, the one those actions bundle) uploads and downloads
 * with a job's ACTIONS_RUNTIME_TOKEN against this server; then the protocol's exact requests and
 * answers by hand (Azure block uploads, protojson casing, Gitea's refusals), the API's artifact
 * operations, deletion, and the retention sweep.
 */
const t = makeTestApp("", { listen: true });
const alice = await t.user("alice");
const bob = await t.user("bob");
const aliceToken = t.token(alice);
const bobToken = t.token(bob);
await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "ci", auto_init: true }, 201);
const repo = await t.ok("GET", "/api/v1/repos/alice/ci", aliceToken);

const TWIRP = `${t.baseUrl}twirp/github.actions.results.api.v1.ArtifactService`;

const settled = () => settledActions(t);

const WORKFLOW = `name: CI
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/upload-artifact@v4
  test:
    needs: build
    runs-on: ubuntu-latest
    steps:
      - uses: actions/download-artifact@v4
`;

await t.ok(
  "POST",
  "/api/v1/repos/alice/ci/contents/.gitea/workflows/ci.yml",
  aliceToken,
  { content: Buffer.from(WORKFLOW).toString("base64"), message: "add CI" },
  201,
);
await settled();
const run = listRuns(t.env.db, { repoId: repo.id }, { offset: 0, limit: 10 }).rows[0]!;
const runner = await MockRunner.register(t.baseUrl, { token: registrationToken(t.env, { repoId: repo.id }), name: "r1", labels: ["ubuntu-latest"] });
const build: Task = (await runner.fetchTask()).task!;
const buildCtx = build.context as Record<string, any>;
const buildToken = buildCtx.gitea_runtime_token as string;
const buildJobId = JSON.parse(Buffer.from(buildToken.split(".")[1]!, "base64url").toString()).JobID as number;

/** The environment act_runner gives a step, for the @actions/artifact client. */
const stepEnv = (token: string) => stepEnvFor(t.baseUrl, token);

/** A twirp call as the client makes it: POST JSON with proto field names and a Bearer token. */
type AnyJson = Omit<Response, "json"> & { json(): Promise<any> };

function rpc(method: string, body: unknown, token: string | null = buildToken): Promise<AnyJson> {
  return fetch(`${TWIRP}/${method}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const ids = { workflow_run_backend_id: String(run.id), workflow_job_run_backend_id: String(buildJobId) };
const sha256 = (b: Uint8Array | string) => createHash("sha256").update(b).digest("hex");

let uploadedId = 0;
let uploadedDigest = "";

describe("the @actions/artifact client (upload-artifact@v4) against hearth", () => {
  test("the runtime token names the run and job the client sends as backend ids", () => {
    const claims = JSON.parse(Buffer.from(buildToken.split(".")[1]!, "base64url").toString());
    expect(claims.scp).toBe(`Actions.Results:${run.id}:${buildJobId}`);
    expect(claims.TaskID).toBe(Number(build.id));
  });

  test("uploads a zip of files with a retention, confirmed and checked by SHA-256", async () => {
    stepEnv(buildToken);
    const dir = mkdtempSync(join(tmpdir(), "hearth-art-"));
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "a.txt"), "hello artifact\n");
    writeFileSync(join(dir, "sub", "b.bin"), Buffer.alloc(300_000, 7));
    const { DefaultArtifactClient } = await import("@actions/artifact");
    const client = new DefaultArtifactClient();
    const res = await quietly(() => client.uploadArtifact("build-output", [join(dir, "a.txt"), join(dir, "sub", "b.bin")], dir, { retentionDays: 5 }));
    expect(res.id).toBeGreaterThan(0);
    uploadedId = res.id!;
    uploadedDigest = res.digest!;
    const row = artifactById(t.env.db, uploadedId)!;
    expect(row).toMatchObject({ runId: run.id, repoId: repo.id, artifactName: "build-output", artifactPath: "build-output.zip", contentEncoding: "application/zip" });
    expect(row.status).toBe(ArtifactStatus.UploadConfirmed);
    expect(row.fileSize).toBe(res.size!);
    const stored = readFileSync(artifactStore(t.env).file(row.storagePath)!);
    expect(sha256(stored)).toBe(res.digest!);
    // Gitea counts the whole days left until the asked expiry, rounding down.
    expect([4 * 86_400, 5 * 86_400]).toContain(row.expiredUnix - row.createdUnix);
  });

  test("lists and finds the artifact by name", async () => {
    stepEnv(buildToken);
    const { DefaultArtifactClient } = await import("@actions/artifact");
    const client = new DefaultArtifactClient();
    const { artifacts } = await quietly(() => client.listArtifacts());
    expect(artifacts.map((a) => [a.name, a.id])).toEqual([["build-output", uploadedId]]);
    const { artifact } = await quietly(() => client.getArtifact("build-output"));
    expect(artifact.id).toBe(uploadedId);
  });

  test("the next job downloads and unpacks it with its own token (download-artifact@v4)", async () => {
    await runner.runTask(build, { steps: [{ lines: ["uploaded"] }] });
    await settled();
    const next = (await runner.fetchTask()).task!;
    expect((next.context as Record<string, any>).job).toBe("test");
    stepEnv((next.context as Record<string, any>).gitea_runtime_token);
    const { DefaultArtifactClient } = await import("@actions/artifact");
    const out = mkdtempSync(join(tmpdir(), "hearth-dl-"));
    const res = await quietly(() => new DefaultArtifactClient().downloadArtifact(uploadedId, { path: out, expectedHash: `sha256:${uploadedDigest}` }));
    expect(res.digestMismatch).toBe(false);
    expect(readFileSync(join(out, "a.txt"), "utf8")).toBe("hello artifact\n");
    expect(readFileSync(join(out, "sub", "b.bin")).equals(Buffer.alloc(300_000, 7))).toBe(true);
    runningTestToken = (next.context as Record<string, any>).gitea_runtime_token;
    testJobId = JSON.parse(Buffer.from(runningTestToken.split(".")[1]!, "base64url").toString()).JobID;
  });
});

let runningTestToken = "";
let testJobId = 0;

describe("the protocol, request by request", () => {
  const tids = () => ({ workflow_run_backend_id: String(run.id), workflow_job_run_backend_id: String(testJobId) });

  test("a task that is no longer running is refused", async () => {
    const res = await rpc("CreateArtifact", { ...ids, name: "late", version: 4 });
    expect(res.status).toBe(500);
    expect(await res.text()).toBe("Error runner api getting task: task is not running\n");
  });

  test("no Bearer token is a 401, a wrong or expired one a 500, as Gitea answers", async () => {
    let res = await rpc("ListArtifacts", tids(), null);
    expect([res.status, await res.text()]).toEqual([401, "Bad authorization header\n"]);
    res = await rpc("ListArtifacts", tids(), `${runningTestToken.slice(0, -4)}AAAA`);
    expect([res.status, await res.text()]).toEqual([500, "Error runner api getting task\n"]);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const err = await authenticateArtifactCall(t.env, `Bearer ${runningTestToken}`, nowUnix() + 30 * 86_400).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HearthError);
    expect((err as HearthError).status).toBe(500);
  });

  test("another run's id, and a body protojson refuses, are refused", async () => {
    let res = await rpc("ListArtifacts", { ...tids(), workflow_run_backend_id: String(run.id + 1) }, runningTestToken);
    expect([res.status, await res.text()]).toEqual([400, "run-id does not match\n"]);
    res = await rpc("ListArtifacts", { ...tids(), bogus: 1 }, runningTestToken);
    expect([res.status, await res.text()]).toEqual([500, "Error decode request body\n"]);
    res = await rpc("ListArtifacts", "{not json", runningTestToken);
    expect(res.status).toBe(500);
  });

  test("ListArtifacts answers protojson: lowerCamel names, int64 as strings, RFC 3339 times", async () => {
    const res = await rpc("ListArtifacts", { workflowRunBackendId: String(run.id), workflowJobRunBackendId: String(testJobId), name_filter: "build-output" }, runningTestToken);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json;charset=utf-8");
    const body = (await res.json()) as any;
    const row = artifactById(t.env.db, uploadedId)!;
    expect(body).toEqual({
      artifacts: [
        {
          workflowRunBackendId: String(run.id),
          workflowJobRunBackendId: String(testJobId),
          databaseId: String(uploadedId),
          name: "build-output",
          size: String(row.fileSize),
          createdAt: new Date(row.createdUnix * 1000).toISOString().replace(".000Z", "Z"),
        },
      ],
    });
    const none = await rpc("ListArtifacts", { ...tids(), id_filter: "999999" }, runningTestToken);
    expect(await none.json()).toEqual({});
  });

  let blockUrl = "";
  test("CreateArtifact answers a signed upload URL", async () => {
    const res = await rpc("CreateArtifact", { ...tids(), name: "blocks", version: 4, expires_at: new Date(Date.now() + 3 * 86_400_000 + 60_000).toISOString() }, runningTestToken);
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(Object.keys(body)).toEqual(["ok", "signedUploadUrl"]);
    expect(body.ok).toBe(true);
    const url = new URL(body.signedUploadUrl);
    expect(url.href.startsWith(`${TWIRP}/UploadArtifact?sig=`)).toBe(true);
    expect([...url.searchParams.keys()]).toEqual(["sig", "expires", "artifactName", "taskID", "artifactID"]);
    expect(url.searchParams.get("artifactName")).toBe("blocks");
    expect(url.searchParams.get("expires")).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)? \+0000 UTC$/);
    blockUrl = body.signedUploadUrl;
  });

  const put = (url: string, extra: string, body: Uint8Array | string) => fetch(`${url}&${extra}`, { method: "PUT", body });

  test("blocks sent out of order are joined in the block list's order; the SHA-256 is checked", async () => {
    const parts = ["first-", "second-", "third"];
    const blockIds = parts.map((_, i) => Buffer.from(`block-${i}`).toString("base64"));
    for (const i of [2, 0, 1]) {
      const res = await put(blockUrl, `comp=block&blockid=${encodeURIComponent(blockIds[i]!)}`, parts[i]!);
      expect([res.status, await res.text()]).toEqual([201, '"appended"\n']);
    }
    const xml = `<?xml version="1.0" encoding="utf-8"?><BlockList>${blockIds.map((b) => `<Latest>${b}</Latest>`).join("")}</BlockList>`;
    const listed = await put(blockUrl, "comp=blocklist", xml);
    expect([listed.status, await listed.text()]).toEqual([201, '"created"\n']);
    const whole = parts.join("");
    const bad = await rpc("FinalizeArtifact", { ...tids(), name: "blocks", size: String(whole.length), hash: `sha256:${sha256("other")}` }, runningTestToken);
    expect([bad.status, await bad.text()]).toEqual([500, "Error merge chunks\n"]);
    // Gitea drops the pieces of a failed attempt with it: the upload starts over.
    expect((await put(blockUrl, "comp=blocklist", xml)).status).toBe(201);
    const again = await rpc("FinalizeArtifact", { ...tids(), name: "blocks", size: String(whole.length) }, runningTestToken);
    expect([again.status, await again.text()]).toEqual([500, "Error merge chunks\n"]);
    for (const i of [0, 1, 2]) await put(blockUrl, `comp=block&blockid=${encodeURIComponent(blockIds[i]!)}`, parts[i]!);
    await put(blockUrl, "comp=blocklist", xml);
    const ok = await rpc("FinalizeArtifact", { ...tids(), name: "blocks", size: String(whole.length), hash: `sha256:${sha256(whole)}` }, runningTestToken);
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as any;
    expect(body.ok).toBe(true);
    const row = artifactById(t.env.db, Number(body.artifactId))!;
    expect(row.status).toBe(ArtifactStatus.UploadConfirmed);
    expect(readFileSync(artifactStore(t.env).file(row.storagePath)!, "utf8")).toBe(whole);
    expect(row.expiredUnix - row.createdUnix).toBe(3 * 86_400);
  });

  test("a block list naming a block never sent cannot be finalized", async () => {
    const created = await (await rpc("CreateArtifact", { ...tids(), name: "holey", version: 4 }, runningTestToken)).json();
    await put(created.signedUploadUrl, "comp=block&blockid=QQ==", "x");
    await put(created.signedUploadUrl, "comp=blocklist", "<BlockList><Latest>QQ==</Latest><Latest>Qg==</Latest></BlockList>");
    const res = await rpc("FinalizeArtifact", { ...tids(), name: "holey", size: "2" }, runningTestToken);
    expect([res.status, await res.text()]).toEqual([500, "Error merge chunks\n"]);
    // Not confirmed, so not listed and not downloadable.
    const signed = await rpc("GetSignedArtifactURL", { ...tids(), name: "holey" }, runningTestToken);
    expect([signed.status, await signed.text()]).toEqual([404, "Error artifact not found\n"]);
  });

  test("pieces appended without block ids are finalized in order", async () => {
    const created = await (await rpc("CreateArtifact", { ...tids(), name: "appended", version: 4 }, runningTestToken)).json();
    expect((await put(created.signedUploadUrl, "comp=appendBlock", "abc")).status).toBe(201);
    expect((await put(created.signedUploadUrl, "comp=appendBlock", "def")).status).toBe(201);
    const res = await rpc("FinalizeArtifact", { ...tids(), name: "appended", size: "6", hash: `sha256:${sha256("abcdef")}` }, runningTestToken);
    expect(res.status).toBe(200);
    const row = artifactById(t.env.db, Number((await res.json()).artifactId))!;
    expect(readFileSync(artifactStore(t.env).file(row.storagePath)!, "utf8")).toBe("abcdef");
  });

  test("a tampered or expired signed URL is refused; a good one downloads the zip", async () => {
    const res = await rpc("GetSignedArtifactURL", { ...tids(), name: "build-output" }, runningTestToken);
    const { signedUrl } = await res.json();
    const url = new URL(signedUrl);
    expect(url.pathname).toBe("/twirp/github.actions.results.api.v1.ArtifactService/DownloadArtifact");
    const tampered = new URL(signedUrl);
    tampered.searchParams.set("artifactName", "blocks");
    const refused = await fetch(tampered);
    expect([refused.status, await refused.text()]).toEqual([401, "Error unauthorized\n"]);
    const expired = (() => {
      try {
        downloadTarget(t.env, url.searchParams, nowUnix() + 2 * 3600);
      } catch (e) {
        return e as HearthError;
      }
    })();
    expect([expired?.status, expired?.message]).toEqual([401, "Error link expired"]);
    const good = await fetch(signedUrl);
    expect(good.status).toBe(200);
    expect(good.headers.get("content-type")).toBe("application/zip");
    expect(sha256(new Uint8Array(await good.arrayBuffer()))).toBe(uploadedDigest);
    const upload = await fetch(signedUrl.replace("DownloadArtifact", "UploadArtifact") + "&comp=block&blockid=QQ==", { method: "PUT", body: "x" });
    expect(upload.status).toBe(401);
  });

  test("DeleteArtifact hands the artifact to the sweep", async () => {
    const res = await rpc("DeleteArtifact", { ...tids(), name: "appended" }, runningTestToken);
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.ok).toBe(true);
    const row = artifactById(t.env.db, Number(body.artifactId))!;
    expect(row.status).toBe(ArtifactStatus.PendingDeletion);
    const file = artifactStore(t.env).file(row.storagePath)!;
    expect(sweepArtifacts(t.env, nowUnix()).deleted).toBe(1);
    expect(artifactById(t.env.db, row.id)!.status).toBe(ArtifactStatus.Deleted);
    expect(existsSync(file)).toBe(false);
  });

  test("unknown procedures are a 404", async () => {
    expect((await rpc("Nope", {}, runningTestToken)).status).toBe(404);
  });
});

describe("the API's artifact operations", () => {
  test("the shapes declare exactly the fields of Gitea 1.25's ActionArtifact and ActionArtifactsResponse", () => {
    const reference = JSON.parse(readFileSync(join(import.meta.dir, "../../../shared/reference/gitea-api-v1.swagger.json"), "utf8"));
    for (const [name, schema] of [
      ["ActionArtifact", ActionArtifact],
      ["ActionArtifactsResponse", ActionArtifactsResponse],
    ] as const) {
      expect(Object.keys(schema.entries).sort()).toEqual(Object.keys(reference.definitions[name].properties).sort());
    }
  });

  test("lists the repository's finalized v4 artifacts, by name and by run", async () => {
    const all = await t.ok("GET", "/api/v1/repos/alice/ci/actions/artifacts", aliceToken);
    expect(all.artifacts.map((a: any) => a.name)).toEqual(["build-output", "blocks"]);
    expect(all.total_count).toBe(2);
    v.parse(ActionArtifactsResponse, all);
    const a = all.artifacts[0];
    const row = artifactById(t.env.db, uploadedId)!;
    expect(a).toMatchObject({
      id: uploadedId,
      name: "build-output",
      size_in_bytes: row.fileSize,
      url: `${t.baseUrl}api/v1/repos/alice/ci/actions/artifacts/${uploadedId}`,
      archive_download_url: `${t.baseUrl}api/v1/repos/alice/ci/actions/artifacts/${uploadedId}/zip`,
      expired: false,
      workflow_run: { id: run.id, repository_id: repo.id, head_sha: run.commitSha, status: "", started_at: "0001-01-01T00:00:00Z" },
    });
    expect(Object.keys(a).sort()).toEqual(["archive_download_url", "created_at", "expired", "expires_at", "id", "name", "size_in_bytes", "updated_at", "url", "workflow_run"]);
    const named = await t.ok("GET", "/api/v1/repos/alice/ci/actions/artifacts?name=blocks", aliceToken);
    expect(named.artifacts.map((x: any) => x.name)).toEqual(["blocks"]);
    const ofRun = await t.ok("GET", `/api/v1/repos/alice/ci/actions/runs/${run.id}/artifacts`, aliceToken);
    expect(ofRun.total_count).toBe(2);
    const otherRun = await t.ok("GET", `/api/v1/repos/alice/ci/actions/runs/${run.id + 100}/artifacts`, aliceToken);
    expect(otherRun).toEqual({ artifacts: [], total_count: 0 });
  });

  test("gets one; an unknown, pending or deleted id is a 404", async () => {
    expect((await t.ok("GET", `/api/v1/repos/alice/ci/actions/artifacts/${uploadedId}`, aliceToken)).name).toBe("build-output");
    for (const id of ["999999", "abc"]) {
      const res = await t.json("GET", `/api/v1/repos/alice/ci/actions/artifacts/${id}`, { token: aliceToken });
      expect([res.status, res.body.message]).toEqual([404, "artifact not found"]);
    }
  });

  test("/zip redirects to a signed raw URL that serves the zip without credentials", async () => {
    const res = await t.request("GET", `/api/v1/repos/alice/ci/actions/artifacts/${uploadedId}/zip`, { token: aliceToken });
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    expect(location.startsWith(`${t.baseUrl}api/v1/repos/alice/ci/actions/artifacts/${uploadedId}/zip/raw?sig=`)).toBe(true);
    const raw = await fetch(location);
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-disposition")).toBe("attachment; filename=build-output.zip; filename*=UTF-8''build-output.zip");
    expect(sha256(new Uint8Array(await raw.arrayBuffer()))).toBe(uploadedDigest);
    const forged: AnyJson = await fetch(location.replace(/sig=[^&]+/, "sig=AAAA"));
    expect(forged.status).toBe(401);
    expect((await forged.json()).message).toBe("Error unauthorized");
  });

  test("deleting needs write on Actions; then the artifact is gone from the API and swept", async () => {
    const blocks = (await t.ok("GET", "/api/v1/repos/alice/ci/actions/artifacts?name=blocks", aliceToken)).artifacts[0];
    const refused = await t.json("DELETE", `/api/v1/repos/alice/ci/actions/artifacts/${blocks.id}`, { token: bobToken });
    expect(refused.status).toBe(403);
    expect(artifactById(t.env.db, blocks.id)!.status).toBe(ArtifactStatus.UploadConfirmed);
    const res = await t.request("DELETE", `/api/v1/repos/alice/ci/actions/artifacts/${blocks.id}`, { token: aliceToken });
    expect(res.status).toBe(204);
    expect(artifactById(t.env.db, blocks.id)!.status).toBe(ArtifactStatus.PendingDeletion);
    expect((await t.json("GET", `/api/v1/repos/alice/ci/actions/artifacts/${blocks.id}`, { token: aliceToken })).status).toBe(404);
    // The daily sweep, as its clock puts it on the queue.
    queueArtifactSweep(t.env);
    await t.env.queue.idle(ARTIFACT_SWEEP_QUEUE);
    expect(artifactById(t.env.db, blocks.id)!.status).toBe(ArtifactStatus.Deleted);
  });
});

describe("retention", () => {
  test("at rest no sweep waits in the queue (it can go idle)", () => {
    expect(countQueueItems(t.env.db, ARTIFACT_SWEEP_QUEUE)).toBe(0);
  });

  test("past its expiry an artifact loses its file and shows as expired; its zip is refused", async () => {
    const row = artifactById(t.env.db, uploadedId)!;
    const file = artifactStore(t.env).file(row.storagePath)!;
    expect(sweepArtifacts(t.env, row.expiredUnix - 1).expired).toBe(0);
    expect(sweepArtifacts(t.env, row.expiredUnix + 1).expired).toBe(1);
    expect(existsSync(file)).toBe(false);
    const a = await t.ok("GET", `/api/v1/repos/alice/ci/actions/artifacts/${uploadedId}`, aliceToken);
    expect(a.expired).toBe(true);
    const zip = await t.json("GET", `/api/v1/repos/alice/ci/actions/artifacts/${uploadedId}/zip`, { token: aliceToken });
    expect([zip.status, zip.body.message]).toEqual([404, "Artifact has expired"]);
    // The runner no longer sees it.
    const listed = await rpc("ListArtifacts", { workflow_run_backend_id: String(run.id), workflow_job_run_backend_id: String(testJobId) }, runningTestToken);
    expect(await listed.json()).toEqual({});
  });
});

describe("the legacy protocol of upload-artifact@v3 (/api/actions_pipeline)", () => {
  const base = () => `${t.baseUrl}api/actions_pipeline/_apis/pipelines/workflows/${run.id}/artifacts`;
  const auth = () => ({ Authorization: `Bearer ${runningTestToken}` });
  const md5 = (b: Uint8Array | string) => createHash("md5").update(b).digest("base64");
  const text = "hello v3 ".repeat(200);
  const gz = Bun.gzipSync(Buffer.from(text));
  let uploadUrl = "";

  test("POST names the artifact and answers its upload URL (the name's MD5, the retention)", async () => {
    const res = await fetch(`${base()}?api-version=6.0-preview`, {
      method: "POST",
      headers: { ...auth(), "Content-Type": "application/json" },
      body: JSON.stringify({ Type: "actions_storage", Name: "logs", RetentionDays: 2 }),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(`${JSON.stringify({ fileContainerResourceUrl: `${base()}/${createHash("md5").update("logs").digest("hex")}/upload?retentionDays=2` })}\n`);
    uploadUrl = `${base()}/${createHash("md5").update("logs").digest("hex")}/upload?retentionDays=2`;
  });

  const putChunk = (itemPath: string, body: Uint8Array, start: number, total: number, extra: Record<string, string> = {}) =>
    fetch(`${uploadUrl}&itemPath=${encodeURIComponent(itemPath)}`, {
      method: "PUT",
      headers: {
        ...auth(),
        "Content-Type": "application/octet-stream",
        "Content-Range": `bytes ${start}-${start + body.length - 1}/${total}`,
        "x-actions-results-md5": md5(body),
        ...extra,
      },
      body,
    });

  test("files arrive in Content-Range pieces checked by MD5, gzipped or not", async () => {
    const half = Math.floor(gz.length / 2);
    const gzHeaders = { "Content-Encoding": "gzip", "x-tfs-filelength": String(text.length) };
    let res = await putChunk("logs/dir/a.txt", gz.subarray(half), half, gz.length, gzHeaders);
    expect([res.status, await res.text()]).toEqual([200, '{"message":"success"}\n']);
    res = await putChunk("logs/dir/a.txt", gz.subarray(0, half), 0, gz.length, gzHeaders);
    expect(res.status).toBe(200);
    res = await putChunk("logs/b.txt", Buffer.from("plain"), 0, 5);
    expect(res.status).toBe(200);
    const bad = await fetch(`${uploadUrl}&itemPath=logs/c.txt`, {
      method: "PUT",
      headers: { ...auth(), "Content-Range": "bytes 0-2/3", "x-actions-results-md5": md5("nope") },
      body: "abc",
    });
    expect([bad.status, await bad.text()]).toEqual([500, "Error save upload chunk\n"]);
    const wrongHash = await fetch(`${uploadUrl}&itemPath=other/c.txt`, { method: "PUT", headers: { ...auth(), "Content-Range": "bytes 0-2/3", "x-actions-results-md5": md5("abc") }, body: "abc" });
    expect([wrongHash.status, await wrongHash.text()]).toEqual([400, "Invalid artifact hash\n"]);
  });

  test("nothing is listed before the upload is confirmed; PATCH joins each file's pieces", async () => {
    const before = await fetch(base(), { headers: auth() });
    expect([before.status, await before.text()]).toEqual([404, "Not Found\n"]);
    const res = await fetch(`${base()}?artifactName=logs`, { method: "PATCH", headers: auth() });
    expect([res.status, await res.text()]).toEqual([200, '{"message":"success"}\n']);
    const list = await fetch(base(), { headers: auth() });
    const hash = createHash("md5").update("logs").digest("hex");
    expect(await list.json()).toEqual({ count: 1, value: [{ name: "logs", fileContainerResourceUrl: `${base()}/${hash}/download_url` }] });
  });

  test("download_url lists the files; each downloads as uploaded (gzip is undone by the client)", async () => {
    const hash = createHash("md5").update("logs").digest("hex");
    const res = await fetch(`${base()}/${hash}/download_url?itemPath=logs`, { headers: auth() });
    const { value } = (await res.json()) as { value: { path: string; itemType: string; contentLocation: string }[] };
    expect(value.map((f) => [f.path, f.itemType])).toEqual([
      ["logs/dir/a.txt", "file"],
      ["logs/b.txt", "file"],
    ]);
    const a = await fetch(value[0]!.contentLocation, { headers: auth() });
    expect(a.headers.get("content-encoding")).toBe("gzip");
    expect(await a.text()).toBe(text);
    expect(await (await fetch(value[1]!.contentLocation, { headers: auth() })).text()).toBe("plain");
  });

  test("another run's path is refused, and v3 artifacts stay out of the API's v4 list", async () => {
    const res = await fetch(`${t.baseUrl}api/actions_pipeline/_apis/pipelines/workflows/${run.id + 1}/artifacts`, { headers: auth() });
    expect([res.status, await res.text()]).toEqual([400, "run-id does not match\n"]);
    const api = await t.ok("GET", "/api/v1/repos/alice/ci/actions/artifacts?name=logs", aliceToken);
    expect(api).toEqual({ artifacts: [], total_count: 0 });
  });
});
