import type { Env } from "../../services/env.ts";
import {
  ARTIFACT_V4_ROUTE_BASE,
  authenticateArtifactCall,
  createArtifact,
  deleteRunArtifact,
  downloadTarget,
  finalizeArtifact,
  listRunArtifacts,
  rawArtifact,
  receiveUpload,
  signedDownloadUrl,
  type ArtifactCall,
} from "../../services/actions/artifacts.ts";
import { HearthError } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { errorResponse } from "../respond.ts";
import {
  BadMessage,
  CreateArtifactRequest,
  decodeMessage,
  DeleteArtifactRequest,
  FinalizeArtifactRequest,
  GetSignedArtifactURLRequest,
  int64Json,
  ListArtifactsRequest,
  omitZero,
  timestampJson,
} from "./artifact-messages.ts";

/**
 * The artifact v4 protocol of `actions/upload-artifact@v4` and `download-artifact@v4` (Gitea's
 * routers/api/actions/artifactsv4.go), mounted where Gitea mounts it, at the site root under
 * `/twirp/github.actions.results.api.v1.ArtifactService/`: JSON RPCs authenticated by the job's
 * ACTIONS_RUNTIME_TOKEN, and the signed blob URLs they hand out (PUT UploadArtifact, GET
 * DownloadArtifact). Answers are Gitea's: protojson for the RPCs, `http.Error`'s plain text for
 * refusals. Also the API's signed raw download (`/api/v1/repos/…/actions/artifacts/{id}/zip/raw`),
 * which Gitea serves outside its repository middleware, authorized by its signature alone.
 */

export const ARTIFACT_V4_PREFIX = `${ARTIFACT_V4_ROUTE_BASE}/`;

/** Go's http.Error: the message and a newline, as plain text. */
function httpError(status: number, message: string): Response {
  return new Response(`${message}\n`, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" },
  });
}

const notFound = () => httpError(404, "404 page not found");

/** Gitea's sendProtbufBody. */
function protoJson(message: Record<string, unknown>): Response {
  return new Response(JSON.stringify(omitZero(message)), { status: 200, headers: { "Content-Type": "application/json;charset=utf-8" } });
}

/** Gitea's ctx.JSON with a bare string (the blob side's acknowledgements). */
const jsonString = (status: number, s: string) =>
  new Response(`${JSON.stringify(s)}\n`, { status, headers: { "Content-Type": "application/json;charset=utf-8" } });

type Rpc = (env: Env, call: ArtifactCall, text: string, now: number) => Promise<Response> | Response;

/** Gitea's parseProtbufBody: any message it cannot read is a 500. */
function decode<F extends Parameters<typeof decodeMessage>[0]>(fields: F, text: string) {
  try {
    return decodeMessage(fields, text);
  } catch (err) {
    if (err instanceof BadMessage) throw new HearthError(500, "Error decode request body");
    throw err;
  }
}

const rpcs: Record<string, Rpc> = {
  CreateArtifact: (env, call, text, now) => {
    const m = decode(CreateArtifactRequest, text);
    const url = createArtifact(env, call, { runBackendId: m.workflow_run_backend_id ?? "", name: m.name ?? "", expiresAt: m.expires_at }, now);
    return protoJson({ ok: true, signedUploadUrl: url });
  },
  FinalizeArtifact: async (env, call, text, now) => {
    const m = decode(FinalizeArtifactRequest, text);
    const id = await finalizeArtifact(env, call, { runBackendId: m.workflow_run_backend_id ?? "", name: m.name ?? "", hash: m.hash }, now);
    return protoJson({ ok: true, artifactId: int64Json(id) });
  },
  ListArtifacts: (env, call, text) => {
    const m = decode(ListArtifactsRequest, text);
    const list = listRunArtifacts(env, call, {
      runBackendId: m.workflow_run_backend_id ?? "",
      jobBackendId: m.workflow_job_run_backend_id ?? "",
      nameFilter: m.name_filter,
      idFilter: m.id_filter,
    });
    return protoJson({
      artifacts: list.map((a) =>
        omitZero({
          workflowRunBackendId: a.workflowRunBackendId,
          workflowJobRunBackendId: a.workflowJobRunBackendId,
          databaseId: int64Json(a.databaseId),
          name: a.name,
          size: int64Json(a.size),
          createdAt: timestampJson(a.createdUnix),
        }),
      ),
    });
  },
  GetSignedArtifactURL: (env, call, text, now) => {
    const m = decode(GetSignedArtifactURLRequest, text);
    return protoJson({ signedUrl: signedDownloadUrl(env, call, { runBackendId: m.workflow_run_backend_id ?? "", name: m.name ?? "" }, now) });
  },
  DeleteArtifact: (env, call, text, now) => {
    const m = decode(DeleteArtifactRequest, text);
    const id = deleteRunArtifact(env, call, { runBackendId: m.workflow_run_backend_id ?? "", name: m.name ?? "" }, now);
    return protoJson({ ok: true, artifactId: int64Json(id) });
  },
};

const emptyBody = (): AsyncIterable<Uint8Array> => (async function* () {})();

async function upload(env: Env, request: Request, now: number): Promise<Response> {
  const query = new URL(request.url).searchParams;
  const length = request.headers.get("content-length");
  const outcome = await receiveUpload(env, query, request.body ?? emptyBody(), length !== null && /^\d+$/.test(length) ? Number(length) : undefined, now);
  if (outcome === "appended") return jsonString(201, "appended");
  if (outcome === "created") return jsonString(201, "created");
  // Gitea's handler writes nothing for another `comp`: Go answers an empty 200.
  return new Response(null, { status: 200 });
}

async function download(env: Env, request: Request, now: number): Promise<Response> {
  const { path } = downloadTarget(env, new URL(request.url).searchParams, now);
  const file = Bun.file(path);
  // Go sniffs the type of what it copies out: a zip is application/zip.
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  const zip = head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
  return new Response(file, { status: 200, headers: { "Content-Type": zip ? "application/zip" : "application/octet-stream" } });
}

function refusal(env: Env, err: unknown): Response {
  if (err instanceof HearthError) return httpError(err.status, err.message);
  env.log.error("artifact request failed", { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  return httpError(500, "Internal Server Error");
}

/** Answers a request below ARTIFACT_V4_PREFIX. */
export async function serveArtifactsV4(env: Env, request: Request, path: string): Promise<Response> {
  if (!env.settings.actions.enabled) return notFound();
  const name = path.slice(ARTIFACT_V4_PREFIX.length);
  const now = nowUnix();
  try {
    if (name === "UploadArtifact") return request.method === "PUT" ? await upload(env, request, now) : httpError(405, "Method Not Allowed");
    if (name === "DownloadArtifact") {
      return request.method === "GET" || request.method === "HEAD" ? await download(env, request, now) : httpError(405, "Method Not Allowed");
    }
    const rpc = rpcs[name];
    if (!rpc) return notFound();
    if (request.method !== "POST") return httpError(405, "Method Not Allowed");
    const call = await authenticateArtifactCall(env, request.headers.get("authorization"), now);
    return await rpc(env, call, await request.text(), now);
  } catch (err) {
    return refusal(env, err);
  }
}

const RAW = /^\/api\/v1\/repos\/([^/]+)\/([^/]+)\/actions\/artifacts\/([^/]+)\/zip\/raw\/?$/;

/** Whether a path is the API's signed raw artifact download. */
export const isRawArtifactPath = (path: string) => RAW.test(path);

const decodeSegment = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** Gitea's DownloadArtifactRaw: the zip, to whoever holds the URL `/zip` redirected to. */
export async function serveArtifactRaw(env: Env, request: Request, path: string): Promise<Response> {
  const m = RAW.exec(path);
  if (!m || (request.method !== "GET" && request.method !== "HEAD")) return errorResponse(env, new HearthError(404, "not found"));
  try {
    const { path: file, artifact } = rawArtifact(env, decodeSegment(m[1]!), decodeSegment(m[2]!), decodeSegment(m[3]!), new URL(request.url).searchParams, nowUnix());
    const name = artifact.artifactName;
    const blob = Bun.file(file);
    return new Response(blob, {
      status: 200,
      headers: {
        // Gitea's header; the second form is percent-encoded here, as a header carries no raw UTF-8.
        "Content-Disposition": `attachment; filename=${encodeURIComponent(name)}.zip; filename*=UTF-8''${encodeURIComponent(name)}.zip`,
        "Content-Type": "application/zip",
        "Content-Length": String(blob.size),
        "Accept-Ranges": "bytes",
        "Last-Modified": new Date(artifact.createdUnix * 1000).toUTCString(),
      },
    });
  } catch (err) {
    return errorResponse(env, err);
  }
}
