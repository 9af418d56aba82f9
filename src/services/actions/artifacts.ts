import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { ActionStatus, type ActionArtifactRow, type ActionRunJobRow, type ActionTaskRow } from "../../db/schema/index.ts";
import * as model from "../../models/actions-artifact.ts";
import { ArtifactStatus } from "../../models/actions-artifact.ts";
import { taskById, taskByTokenHash } from "../../models/actions-task.ts";
import { jobById } from "../../models/actions-run.ts";
import { getRepoByOwner } from "../../models/repo.ts";
import { getUserByName } from "../../models/user.ts";
import { ArtifactStore, MissingBlock, type ArtifactPart } from "../../storage/action-artifacts.ts";
import { HearthError, NotFound, Unauthorized } from "../../lib/errors.ts";
import type { Writes } from "../access/repo-access.ts";
import { verifyRuntimeToken } from "./runtime-token.ts";

export { ArtifactStatus } from "../../models/actions-artifact.ts";

/**
 * Actions artifacts as Gitea keeps them (routers/api/actions/artifactsv4.go, models/actions/
 * artifact.go, the artifact operations of routers/api/v1/repo/action.go): a job's steps upload
 * and download them through the v4 protocol of `actions/upload-artifact@v4` with the job's
 * runtime token, through URLs this server signs; the API lists, downloads and deletes them; a
 * sweep expires them after their retention and removes deleted ones.
 *
 * The protocol's refusals are HearthErrors with Gitea's status and words (its routes answer them
 * as plain text, as Gitea's http.Error does).
 */

/** Gitea's ArtifactV4ContentEncoding: the v4 protocol stores one zip per artifact. */
export const V4_CONTENT_ENCODING = "application/zip";

/** The twirp service the v4 routes are mounted under (Gitea's ArtifactV4RouteBase). */
export const ARTIFACT_V4_ROUTE_BASE = "/twirp/github.actions.results.api.v1.ArtifactService";

/** Signed upload and download URLs are good for an hour, as Gitea's. */
const SIGNED_URL_SECONDS = 60 * 60;

const stores = new WeakMap<Env, ArtifactStore>();
export function artifactStore(env: Env): ArtifactStore {
  let s = stores.get(env);
  if (!s) stores.set(env, (s = new ArtifactStore(`${env.settings.server.appDataPath}/actions_artifacts`)));
  return s;
}

const keys = new WeakMap<Env, Buffer>();
/** The key URLs are signed with, derived from SECRET_KEY (Gitea uses its general token signing secret). */
function signingKey(env: Env): Buffer {
  let key = keys.get(env);
  if (!key) keys.set(env, (key = createHash("sha256").update(`actions-artifact-url\0${env.settings.security.secretKey}`).digest()));
  return key;
}

const sign = (env: Env, ...parts: string[]): Buffer => {
  const mac = createHmac("sha256", signingKey(env));
  for (const p of parts) mac.update(p);
  return mac.digest();
};

/** Signatures travel as Go's base64.URLEncoding: URL-safe, padded. */
const b64urlPadded = (b: Buffer) => b.toString("base64").replace(/\+/g, "-").replace(/\//g, "_");
function sameSignature(given: string, expected: Buffer): boolean {
  const raw = Buffer.from(given.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return raw.length === expected.length && timingSafeEqual(raw, expected);
}

/** Go's url.QueryEscape: everything but letters, digits and `-_.~` is escaped, a space as `+`. */
const goQueryEscape = (s: string) =>
  encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+");

/**
 * The expiry of a v4 URL, as Go prints a time with "2006-01-02 15:04:05.999999999 -0700 MST"
 * (in UTC here). It is part of what is signed, so it is read back exactly as written.
 */
function goTimeString(ms: number): string {
  const iso = new Date(ms).toISOString();
  const frac = iso.slice(20, 23).replace(/0+$/, "");
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac ? `.${frac}` : ""} +0000 UTC`;
}
function parseGoTime(s: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))? ([+-])(\d{2})(\d{2}) \S+$/.exec(s);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, se, frac = "", sign, oh, om] = m;
  const utc = Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +se!, Math.floor(Number(`0.${frac || "0"}`) * 1000));
  const offset = (+oh! * 60 + +om!) * 60_000 * (sign === "-" ? -1 : 1);
  return utc - offset;
}

// ---------------------------------------------------------------------------------------------
// The runner side: calls with the runtime token

/** The task a protocol call speaks for, and its job. */
export interface ArtifactCall {
  task: ActionTaskRow;
  job: ActionRunJobRow;
}

const fail = (status: number, message: string) => new HearthError(status, message);

function runningTaskWithJob(env: Env, task: ActionTaskRow | undefined, missing: string): ArtifactCall {
  if (!task) throw fail(500, missing);
  if (task.status !== ActionStatus.Running) throw fail(500, "Error runner api getting task: task is not running");
  const job = jobById(env.db, task.jobId);
  if (!job) throw fail(500, "Error runner api getting job");
  return { task, job };
}

/**
 * Gitea's ArtifactContexter: `Authorization: Bearer` the job's ACTIONS_RUNTIME_TOKEN (the JWT
 * naming its task, which must be running), or, from runners before the JWT, the task's own token.
 * Gitea answers a token it cannot place with a 500, and so does this.
 */
export async function authenticateArtifactCall(env: Env, authorization: string | null, now: number): Promise<ArtifactCall> {
  if (!authorization || !authorization.startsWith("Bearer ")) throw fail(401, "Bad authorization header");
  const token = authorization.slice("Bearer ".length);
  const claims = await verifyRuntimeToken(env, token, now);
  if (claims) return runningTaskWithJob(env, taskById(env.db, claims.TaskID), "Error runner api getting task by ID");
  const task = taskByTokenHash(env.db, createHash("sha256").update(token).digest("hex"));
  return runningTaskWithJob(env, task?.status === ActionStatus.Running ? task : undefined, "Error runner api getting task");
}

/** Gitea's validateRunIDV4: the request's run must be the task's (a decimal int64). */
function checkRunId(call: ArtifactCall, raw: string): number {
  const runId = /^[+-]?\d{1,19}$/.test(raw) ? Number(raw) : NaN;
  if (runId !== call.job.runId) throw fail(400, "run-id does not match");
  return runId;
}

/** Gitea's getArtifactByName: the run's v4 artifact of that name (its path is `{name}.zip`). */
function v4ArtifactByName(env: Env, runId: number, name: string): ActionArtifactRow {
  const a = model.artifactByNameAndPath(env.db, runId, name, `${name}.zip`);
  if (!a || a.contentEncoding !== V4_CONTENT_ENCODING) throw fail(404, "Error artifact not found");
  return a;
}

export type SignedEndpoint = "UploadArtifact" | "DownloadArtifact";

/** Gitea's buildArtifactURL: ROOT_URL, the twirp base, the endpoint, and what the signature covers. */
function signedArtifactUrl(env: Env, endpoint: SignedEndpoint, name: string, taskId: number, artifactId: number, now: number): string {
  const expires = goTimeString((now + SIGNED_URL_SECONDS) * 1000);
  const sig = b64urlPadded(sign(env, endpoint, expires, name, String(taskId), String(artifactId)));
  return (
    `${env.settings.server.rootUrl.replace(/\/$/, "")}${ARTIFACT_V4_ROUTE_BASE}/${endpoint}` +
    `?sig=${sig}&expires=${goQueryEscape(expires)}&artifactName=${goQueryEscape(name)}&taskID=${taskId}&artifactID=${artifactId}`
  );
}

/** What a signed URL grants once checked: the running task's call, the artifact's name, and the artifact id it was signed for. */
interface SignedGrant extends ArtifactCall {
  name: string;
  artifactId: number;
}

/** Gitea's verifySignature: the signature, then its expiry, then the task (still running). */
function verifySignedUrl(env: Env, endpoint: SignedEndpoint, query: URLSearchParams, now: number): SignedGrant {
  const rawTask = query.get("taskID") ?? "";
  const rawArtifact = query.get("artifactID") ?? "";
  const expires = query.get("expires") ?? "";
  const name = query.get("artifactName") ?? "";
  // Go's ParseInt yields 0 for anything unparsable, and the signature covers that 0.
  const int = (s: string) => (/^[+-]?\d{1,18}$/.test(s) ? Number(s) : 0);
  const taskId = int(rawTask);
  const artifactId = int(rawArtifact);
  if (!sameSignature(query.get("sig") ?? "", sign(env, endpoint, expires, name, String(taskId), String(artifactId)))) {
    throw fail(401, "Error unauthorized");
  }
  const at = parseGoTime(expires);
  if (at === undefined || at < now * 1000) throw fail(401, "Error link expired");
  return { ...runningTaskWithJob(env, taskById(env.db, taskId), "Error runner api getting task by ID"), name, artifactId };
}

export interface CreateArtifactInput {
  runBackendId: string;
  name: string;
  /** The upload's expiry (unix ms), from its retention-days. */
  expiresAt?: number;
}

/**
 * Gitea's CreateArtifact: the run's artifact of that name is made (or found again, its expiry
 * moved), emptied for a fresh zip, and the answer is the URL to upload it to.
 */
export function createArtifact(env: Env, call: ArtifactCall, input: CreateArtifactInput, now: number): string {
  const runId = checkRunId(call, input.runBackendId);
  // Gitea counts whole days left until the asked expiry, rounding down.
  const days = input.expiresAt !== undefined ? Math.trunc((input.expiresAt - now * 1000) / 86_400_000) : env.settings.actions.artifactRetentionDays;
  const expiredUnix = now + 86_400 * days;
  const path = `${input.name}.zip`;
  const artifact = writeTx(env.db, (tx) => {
    const found = model.artifactByNameAndPath(tx, runId, input.name, path);
    const patch = { contentEncoding: V4_CONTENT_ENCODING, fileSize: 0, fileCompressedSize: 0, expiredUnix, updatedUnix: now };
    if (found) {
      model.updateArtifact(tx, found.id, patch);
      return { ...found, ...patch };
    }
    return model.insertArtifact(tx, {
      runId,
      runnerId: call.task.runnerId,
      repoId: call.task.repoId,
      ownerId: call.task.ownerId,
      commitSha: call.task.commitSha,
      artifactName: input.name,
      artifactPath: path,
      status: ArtifactStatus.UploadPending,
      createdUnix: now,
      ...patch,
    });
  });
  return signedArtifactUrl(env, "UploadArtifact", input.name, call.task.id, artifact.id, now);
}

/** What an upload PUT did: a block or appended piece stored, the block list stored, or nothing (an unknown `comp`). */
export type UploadOutcome = "appended" | "created" | "ignored";

const STORE_FAILED = "Error runner api getting task: task is not running";

/**
 * Gitea's uploadArtifact, the blob side of the upload (unauthenticated but for the signed URL):
 * `comp=block&blockid=…` stores a block, `comp=blocklist` the list naming their order; a block
 * without an id (`comp=appendBlock`) is appended to the artifact's end.
 */
export async function receiveUpload(
  env: Env,
  query: URLSearchParams,
  body: AsyncIterable<Uint8Array>,
  contentLength: number | undefined,
  now: number,
): Promise<UploadOutcome> {
  const grant = verifySignedUrl(env, "UploadArtifact", query, now);
  const runId = grant.job.runId;
  const store = artifactStore(env);
  switch (query.get("comp")) {
    case "block":
    case "appendBlock": {
      const blockId = query.get("blockid") ?? "";
      if (blockId) {
        await store.saveBlock(runId, blockId, body).catch(() => {
          throw fail(500, STORE_FAILED);
        });
        return "appended";
      }
      const artifact = v4ArtifactByName(env, runId, grant.name);
      const size = await store.appendChunk(runId, artifact.id, artifact.fileSize, body).catch(() => {
        throw fail(500, STORE_FAILED);
      });
      // Gitea refuses a piece whose length is not what the request announced.
      if (contentLength !== undefined && size !== contentLength) throw fail(500, STORE_FAILED);
      writeTx(env.db, (tx) =>
        model.updateArtifact(tx, artifact.id, { fileSize: artifact.fileSize + size, fileCompressedSize: artifact.fileCompressedSize + size, updatedUnix: now }),
      );
      return "appended";
    }
    case "blocklist":
      await store.saveBlockList(runId, grant.artifactId, body).catch(() => {
        throw fail(500, STORE_FAILED);
      });
      return "created";
    default:
      return "ignored";
  }
}

/** The block ids of an Azure block list (`<BlockList><Latest>id</Latest>…</BlockList>`), in order. */
export function parseBlockList(xml: string): string[] {
  const unescape = (s: string) =>
    s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_, e: string) =>
      e === "lt" ? "<" : e === "gt" ? ">" : e === "amp" ? "&" : e === "quot" ? '"' : e === "apos" ? "'" : String.fromCodePoint(e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)),
    );
  return [...xml.matchAll(/<Latest>([^<]*)<\/Latest>/g)].map((m) => unescape(m[1]!));
}

export interface FinalizeInput {
  runBackendId: string;
  name: string;
  /** `sha256:{hex}` of the whole zip, when the client sends one. */
  hash?: string;
}

/**
 * Gitea's FinalizeArtifact: the uploaded pieces (in the block list's order, else the appended
 * ones) become the artifact's file, checked against the client's SHA-256, and the artifact is
 * confirmed. Appended pieces that do not yet reach the artifact's size leave it pending, as Gitea
 * does. Answers the artifact's id.
 */
export async function finalizeArtifact(env: Env, call: ArtifactCall, input: FinalizeInput, now: number): Promise<number> {
  const runId = checkRunId(call, input.runBackendId);
  const artifact = v4ArtifactByName(env, runId, input.name);
  const store = artifactStore(env);
  const list = await store.takeBlockList(runId, artifact.id);
  let parts: ArtifactPart[];
  let expected: number;
  if (list !== undefined) {
    const ids = parseBlockList(list);
    try {
      parts = store.blocks(runId, ids);
    } catch (err) {
      if (err instanceof MissingBlock) throw fail(500, "Error merge chunks");
      throw err;
    }
    if (parts.length === 0) throw fail(500, "Error merge chunks");
    expected = parts.reduce((n, p) => n + p.size, 0);
  } else {
    parts = store.appendedChunks(runId, artifact.id);
    if (parts.length === 0) throw fail(500, "Error merge chunks");
    expected = artifact.fileCompressedSize;
    // Not all there yet: nothing to merge (Gitea's mergeChunksForArtifact returns quietly).
    if (parts.reduce((n, p) => n + p.size, 0) !== expected) return artifact.id;
  }
  const merged = await store.merge(runId, artifact.id, parts, BigInt(Date.now()) * 1_000_000n);
  store.discard(parts);
  const checksum = input.hash ?? "";
  if (merged.size !== expected || (checksum.startsWith("sha256:") && !checksum.endsWith(merged.sha256))) {
    store.remove(merged.path);
    throw fail(500, "Error merge chunks");
  }
  if (artifact.storagePath) store.remove(artifact.storagePath);
  writeTx(env.db, (tx) =>
    model.updateArtifact(tx, artifact.id, {
      storagePath: merged.path,
      status: ArtifactStatus.UploadConfirmed,
      fileSize: expected,
      fileCompressedSize: expected,
      updatedUnix: now,
    }),
  );
  return artifact.id;
}

/** One artifact in ListArtifacts' answer (Gitea's ListArtifactsResponse_MonolithArtifact). */
export interface RunnerArtifact {
  workflowRunBackendId: string;
  workflowJobRunBackendId: string;
  databaseId: number;
  name: string;
  size: number;
  createdUnix: number;
}

export interface ListInput {
  runBackendId: string;
  jobBackendId: string;
  nameFilter?: string;
  idFilter?: number;
}

/**
 * Gitea's ListArtifacts: the run's uploaded v4 artifacts, one per name; a name with more than one
 * row, or whose row a filter leaves out, is left out altogether (Gitea's table of names).
 */
export function listRunArtifacts(env: Env, call: ArtifactCall, input: ListInput): RunnerArtifact[] {
  const runId = checkRunId(call, input.runBackendId);
  const table = new Map<string, RunnerArtifact | null>();
  for (const a of model.artifactsOfRun(env.db, runId, ArtifactStatus.UploadConfirmed)) {
    if (
      table.has(a.artifactName) ||
      (input.idFilter !== undefined && a.id !== input.idFilter) ||
      (input.nameFilter !== undefined && a.artifactName !== input.nameFilter) ||
      a.artifactPath !== `${a.artifactName}.zip` ||
      a.contentEncoding !== V4_CONTENT_ENCODING
    ) {
      table.set(a.artifactName, null);
      continue;
    }
    table.set(a.artifactName, {
      workflowRunBackendId: input.runBackendId,
      workflowJobRunBackendId: input.jobBackendId,
      databaseId: a.id,
      name: a.artifactName,
      size: a.fileSize,
      createdUnix: a.createdUnix,
    });
  }
  return [...table.values()].filter((a): a is RunnerArtifact => a !== null);
}

/** Gitea's GetSignedArtifactURL: a download URL for the run's uploaded artifact of that name. */
export function signedDownloadUrl(env: Env, call: ArtifactCall, input: { runBackendId: string; name: string }, now: number): string {
  const runId = checkRunId(call, input.runBackendId);
  const artifact = v4ArtifactByName(env, runId, input.name);
  if (artifact.status !== ArtifactStatus.UploadConfirmed) throw fail(404, "Error artifact not found");
  return signedArtifactUrl(env, "DownloadArtifact", input.name, call.task.id, artifact.id, now);
}

/** Gitea's DownloadArtifact (the signed URL): the zip's file on disk. */
export function downloadTarget(env: Env, query: URLSearchParams, now: number): { path: string; artifact: ActionArtifactRow } {
  const grant = verifySignedUrl(env, "DownloadArtifact", query, now);
  const artifact = v4ArtifactByName(env, grant.job.runId, grant.name);
  if (artifact.status !== ArtifactStatus.UploadConfirmed) throw fail(404, "Error artifact not found");
  const path = artifactStore(env).file(artifact.storagePath);
  if (!path) throw fail(500, "Error artifact not found");
  return { path, artifact };
}

/** Gitea's DeleteArtifact (the protocol's): the run's uploaded artifacts of that name go to the sweep. */
export function deleteRunArtifact(env: Env, call: ArtifactCall, input: { runBackendId: string; name: string }, now: number): number {
  const runId = checkRunId(call, input.runBackendId);
  const artifact = v4ArtifactByName(env, runId, input.name);
  writeTx(env.db, (tx) => model.markArtifactsForDeletion(tx, runId, input.name, now));
  return artifact.id;
}

// ---------------------------------------------------------------------------------------------
// The API side

/** Gitea's ActionArtifact.IsV4 (actions.IsArtifactV4): one zip per artifact. */
export const isV4Artifact = (a: ActionArtifactRow) => a.artifactPath === `${a.artifactName}.zip` && a.contentEncoding === V4_CONTENT_ENCODING;

/** Gitea's GetArtifacts / GetArtifactsOfRun: a repository's finalized v4 artifacts, by id. */
export function listRepoArtifacts(env: Env, repoId: number, filter: { runId?: number; name?: string }, page: { offset: number; limit: number }) {
  return model.listFinalizedArtifacts(env.db, { repoId, ...filter }, page);
}

/** Gitea's getArtifactByPathParam: the repository's artifact, uploaded or expired, else 404. */
export function repoArtifact(env: Env, repoId: number, id: number): ActionArtifactRow {
  const a = Number.isSafeInteger(id) ? model.artifactById(env.db, id) : undefined;
  if (!a || a.repoId !== repoId || (a.status !== ArtifactStatus.UploadConfirmed && a.status !== ArtifactStatus.Expired)) {
    throw new NotFound("artifact not found");
  }
  return a;
}

/** Gitea's DeleteArtifact (API): the artifact's name in its run goes to the deletion sweep. */
export function requestArtifactDeletion(env: Env, rc: Writes<"actions">, artifact: ActionArtifactRow, now: number): void {
  if (artifact.repoId !== rc.repo.id) throw new NotFound("artifact not found");
  if (!isV4Artifact(artifact)) throw new NotFound("Artifact not found");
  writeTx(env.db, (tx) => model.markArtifactsForDeletion(tx, artifact.runId, artifact.artifactName, now));
}

/** Gitea's buildDownloadRawEndpoint: the path the raw download's signature covers. */
function rawEndpoint(ownerName: string, repoName: string, artifactId: number): string {
  // Go's url.PathEscape: unreserved characters and `$&+,:;=@` stay.
  const esc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%(24|26|2B|2C|3A|3B|3D|40)/g, (e) => decodeURIComponent(e));
  return `api/v1/repos/${esc(ownerName)}/${esc(repoName)}/actions/artifacts/${artifactId}/zip/raw`;
}

/** Gitea's buildSigURL: where `/zip` redirects, signed for an hour. */
export function signedRawUrl(env: Env, ownerName: string, repoName: string, artifactId: number, now: number): string {
  const endpoint = rawEndpoint(ownerName, repoName, artifactId);
  const expires = now + SIGNED_URL_SECONDS;
  const sig = b64urlPadded(sign(env, endpoint, String(expires), String(artifactId)));
  return `${env.settings.server.rootUrl}${endpoint}?sig=${sig}&expires=${expires}`;
}

/**
 * Gitea's DownloadArtifactRaw: reached by its signed URL alone (no credentials, so a private
 * repository's artifact can be fetched by whoever was redirected there), the repository by name,
 * the artifact, the signature, its expiry.
 */
export function rawArtifact(env: Env, ownerName: string, repoName: string, rawId: string, query: URLSearchParams, now: number): { path: string; artifact: ActionArtifactRow } {
  const owner = getUserByName(env.db, ownerName);
  const repo = owner ? getRepoByOwner(env.db, owner.id, repoName) : undefined;
  if (!repo) throw new NotFound();
  const artifact = repoArtifact(env, repo.id, /^\d{1,15}$/.test(rawId) ? Number(rawId) : 0);
  const expires = /^[+-]?\d{1,15}$/.test(query.get("expires") ?? "") ? Number(query.get("expires")) : 0;
  const expected = sign(env, rawEndpoint(owner!.name, repo.name, artifact.id), String(expires), String(artifact.id));
  if (!sameSignature(query.get("sig") ?? "", expected)) throw new Unauthorized("Error unauthorized");
  if (expires < now) throw new Unauthorized("Error link expired");
  if (artifact.status === ArtifactStatus.Expired) throw new NotFound("Artifact has expired");
  if (!isV4Artifact(artifact)) throw new NotFound("artifact not found");
  const path = artifactStore(env).file(artifact.storagePath);
  if (!path) throw new NotFound("artifact not found");
  return { path, artifact };
}

// ---------------------------------------------------------------------------------------------
// Retention

/** How many rows one pass of the sweep takes at a time (Gitea deletes 100 per batch). */
const SWEEP_BATCH = 100;

/**
 * Gitea's CleanupArtifacts (the cleanup_actions cron): uploaded artifacts past their expiry lose
 * their file and become expired; artifacts asked to be deleted lose theirs and become deleted.
 * Returns how many of each.
 */
export function sweepArtifacts(env: Env, now: number): { expired: number; deleted: number } {
  const store = artifactStore(env);
  let expired = 0;
  let deleted = 0;
  for (;;) {
    const due = model.artifactsPastExpiry(env.db, now, SWEEP_BATCH);
    for (const a of due) {
      store.remove(a.storagePath);
      if (writeTx(env.db, (tx) => model.moveArtifactStatus(tx, a.id, ArtifactStatus.UploadConfirmed, ArtifactStatus.Expired, now))) expired++;
    }
    if (due.length < SWEEP_BATCH) break;
  }
  for (;;) {
    const gone = model.artifactsPendingDeletion(env.db, SWEEP_BATCH);
    for (const a of gone) {
      store.remove(a.storagePath);
      if (writeTx(env.db, (tx) => model.moveArtifactStatus(tx, a.id, ArtifactStatus.PendingDeletion, ArtifactStatus.Deleted, now))) deleted++;
    }
    if (gone.length < SWEEP_BATCH) break;
  }
  return { expired, deleted };
}
