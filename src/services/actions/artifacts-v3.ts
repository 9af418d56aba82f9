import { createHash } from "node:crypto";
import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { ActionArtifactRow } from "../../db/schema/index.ts";
import * as model from "../../models/actions-artifact.ts";
import { ArtifactStatus } from "../../models/actions-artifact.ts";
import { HearthError } from "../../lib/errors.ts";
import { artifactStore, type ArtifactCall } from "./artifacts.ts";

/**
 * The legacy artifact protocol of `actions/upload-artifact@v3` (Gitea's routers/api/actions/
 * artifacts.go, below `/api/actions_pipeline/_apis/pipelines/workflows/{run_id}/artifacts`): an
 * artifact is a set of files, one row each, uploaded in Content-Range pieces checked by MD5
 * (gzipped when the client chose to), joined when the client confirms the upload, and listed and
 * downloaded file by file. Every call carries the job's runtime token (artifacts.ts
 * authenticateArtifactCall). Refusals are HearthErrors with Gitea's status and words.
 */

export const ARTIFACT_V3_PREFIX = "/api/actions_pipeline";
const ROUTE_BASE = "/_apis/pipelines/workflows/{run_id}/artifacts";

const fail = (status: number, message: string) => new HearthError(status, message);
const md5Hex = (s: string) => createHash("md5").update(s).digest("hex");

/** Gitea's validateRunID: the path's run must be the task's (chi reads anything else as 0). */
export function checkRunIdV3(call: ArtifactCall, raw: string): number {
  const runId = /^[+-]?\d{1,18}$/.test(raw) ? Number(raw) : 0;
  if (runId !== call.job.runId) throw fail(400, "run-id does not match");
  return runId;
}

/** Gitea's buildArtifactURL for v3: ROOT_URL, the pipeline prefix, the run's artifacts, then `{hash or id}/{suffix}`. */
function artifactUrl(env: Env, runId: number, key: string, suffix: string): string {
  return `${env.settings.server.rootUrl.replace(/\/$/, "")}${ARTIFACT_V3_PREFIX}${ROUTE_BASE.replace("{run_id}", String(runId))}/${key}/${suffix}`;
}

/**
 * Gitea's util.PathJoinRel: the path cleaned as a relative one (`.`, `..` and empty segments
 * dropped, never above the root), with `/` separators.
 */
export function pathJoinRel(...parts: string[]): string {
  const out: string[] = [];
  for (const seg of parts.join("/").replace(/\\/g, "/").split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return out.join("/");
}

/** The characters the toolkit refuses in an artifact name, which Gitea refuses too. */
const INVALID_NAME = /[\\/":<>|*?\r\n]/;

/** Gitea's getUploadArtifactURL: where to PUT the files of the named artifact. */
export function uploadUrlV3(env: Env, runId: number, input: { name: string; retentionDays: number }): string {
  const retention = input.retentionDays > 0 ? `?retentionDays=${input.retentionDays}` : "";
  return artifactUrl(env, runId, md5Hex(input.name), `upload${retention}`);
}

export interface ChunkUpload {
  hash: string;
  /** The `itemPath` query: `{artifact name}/{path in the artifact}`. */
  itemPath: string;
  retentionDays: string | null;
  contentLength: number;
  /** x-tfs-filelength: the file's size before gzip, when it was gzipped. */
  fileLength: number;
  contentRange: string;
  md5: string;
  contentEncoding: string;
}

/** Gitea's uploadArtifact: one piece of one file, stored at its range once its MD5 and length check out. */
export async function uploadChunkV3(env: Env, call: ArtifactCall, runId: number, up: ChunkUpload, body: AsyncIterable<Uint8Array>, now: number): Promise<void> {
  const itemPath = pathJoinRel(up.itemPath);
  const name = itemPath.split("/")[0]!;
  const path = itemPath.startsWith(`${name}/`) ? itemPath.slice(name.length + 1) : itemPath;
  if (up.hash !== md5Hex(name)) throw fail(400, "Invalid artifact hash");
  if (INVALID_NAME.test(name)) throw fail(400, "Error checking artifact name contains invalid character");
  const fileSize = up.fileLength > 0 ? up.fileLength : up.contentLength;
  let days = env.settings.actions.artifactRetentionDays;
  if (up.retentionDays !== null && up.retentionDays !== "") {
    if (!/^[+-]?\d{1,15}$/.test(up.retentionDays)) throw fail(400, "Error parse retention days");
    days = Number(up.retentionDays);
  }
  const artifact = createOrGet(env, call, runId, name, path, days, now);
  const range = /^bytes (\d+)-(\d+)\/(\d+)/.exec(up.contentRange);
  if (!range) throw fail(500, "Error save upload chunk");
  const [start, end, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
  const store = artifactStore(env);
  const saved = await store.saveRangeChunk(runId, artifact.id, start, end, body).catch(() => {
    throw fail(500, "Error save upload chunk");
  });
  if (saved.md5 !== up.md5 || saved.size !== up.contentLength) {
    store.dropRangeChunk(runId, artifact.id, start, end);
    throw fail(500, "Error save upload chunk");
  }
  if (artifact.fileSize !== fileSize || artifact.fileCompressedSize !== total || artifact.fileSize === 0 || artifact.fileCompressedSize === 0) {
    writeTx(env.db, (tx) => model.updateArtifact(tx, artifact.id, { fileSize, fileCompressedSize: total, contentEncoding: up.contentEncoding, updatedUnix: now }));
  }
}

/** Gitea's CreateArtifact: the run's row for this name and path, made pending or found again (its expiry moved). */
function createOrGet(env: Env, call: ArtifactCall, runId: number, name: string, path: string, days: number, now: number): ActionArtifactRow {
  const expiredUnix = now + 86_400 * days;
  return writeTx(env.db, (tx) => {
    const found = model.artifactByNameAndPath(tx, runId, name, path);
    if (found) {
      model.updateArtifact(tx, found.id, { expiredUnix });
      return { ...found, expiredUnix };
    }
    return model.insertArtifact(tx, {
      runId,
      runnerId: call.task.runnerId,
      repoId: call.task.repoId,
      ownerId: call.task.ownerId,
      commitSha: call.task.commitSha,
      artifactName: name,
      artifactPath: path,
      status: ArtifactStatus.UploadPending,
      expiredUnix,
      createdUnix: now,
      updatedUnix: now,
    });
  });
}

/** Gitea's comfirmUploadArtifact: every file of the artifact whose pieces are all there becomes one stored file. */
export async function confirmUploadV3(env: Env, runId: number, name: string, now: number): Promise<void> {
  if (!name) throw fail(400, "Error artifact name is empty");
  const store = artifactStore(env);
  for (const a of model.artifactsOfRunNamed(env.db, runId, name)) {
    const parts = store.appendedChunks(runId, a.id);
    if (parts.length === 0) continue;
    // Not all there yet: left pending, as Gitea's mergeChunksForArtifact does.
    if (parts.reduce((n, p) => n + p.size, 0) !== a.fileCompressedSize) continue;
    const merged = await store.merge(runId, a.id, parts, BigInt(Date.now()) * 1_000_000n, a.contentEncoding === "gzip" ? "chunk.gz" : "chunk");
    if (merged.size !== a.fileCompressedSize) {
      store.remove(merged.path);
      throw fail(500, "Error merge chunks");
    }
    store.discard(parts);
    if (a.storagePath) store.remove(a.storagePath);
    writeTx(env.db, (tx) => model.updateArtifact(tx, a.id, { storagePath: merged.path, status: ArtifactStatus.UploadConfirmed, updatedUnix: now }));
  }
}

/** Gitea's listArtifacts (v3): the run's uploaded artifacts, one entry per name. */
export function listArtifactsV3(env: Env, runId: number): { count: number; value: { name: string; fileContainerResourceUrl: string }[] } {
  const rows = model.artifactsOfRun(env.db, runId, ArtifactStatus.UploadConfirmed);
  if (rows.length === 0) throw fail(404, "Not Found");
  const names = [...new Set(rows.map((r) => r.artifactName))];
  const value = names.map((name) => ({ name, fileContainerResourceUrl: artifactUrl(env, runId, md5Hex(name), "download_url") }));
  return { count: value.length, value };
}

/** Gitea's getDownloadArtifactURL: the files of the named artifact, each with where to fetch it. */
export function downloadUrlsV3(env: Env, runId: number, hash: string, rawItemPath: string) {
  const itemPath = pathJoinRel(rawItemPath);
  if (hash !== md5Hex(itemPath)) throw fail(400, "Invalid artifact hash");
  const rows = model.artifactsOfRunNamed(env.db, runId, itemPath).filter((a) => a.status === ArtifactStatus.UploadConfirmed);
  if (rows.length === 0) throw fail(404, "Not Found");
  return {
    value: rows.map((a) => ({ path: pathJoinRel(itemPath, a.artifactPath), itemType: "file", contentLocation: artifactUrl(env, runId, String(a.id), "download") })),
  };
}

/** Gitea's downloadArtifact (v3): one stored file of the run, and whether it is gzipped. */
export function downloadFileV3(env: Env, runId: number, rawId: string): { path: string; artifact: ActionArtifactRow } {
  const id = /^\d{1,15}$/.test(rawId) ? Number(rawId) : 0;
  const artifact = model.artifactById(env.db, id);
  if (!artifact) throw fail(404, `artifact with ID ${id} does not exist`);
  if (artifact.runId !== runId) throw fail(400, "Bad Request");
  const path = artifactStore(env).file(artifact.storagePath);
  if (!path) throw fail(500, "Error opening file");
  return { path, artifact };
}
