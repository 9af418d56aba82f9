import type { Env } from "../../services/env.ts";
import { authenticateArtifactCall } from "../../services/actions/artifacts.ts";
import {
  ARTIFACT_V3_PREFIX,
  checkRunIdV3,
  confirmUploadV3,
  downloadFileV3,
  downloadUrlsV3,
  listArtifactsV3,
  uploadChunkV3,
  uploadUrlV3,
} from "../../services/actions/artifacts-v3.ts";
import { HearthError } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";

/**
 * The legacy artifact protocol of `actions/upload-artifact@v3` (Gitea's ArtifactsRoutes, mounted
 * at `/api/actions_pipeline`): every call carries the job's runtime token and names the task's
 * run in its path. Answers are Gitea's: ctx.JSON's JSON (with its newline), http.Error's plain
 * text for refusals.
 */

export { ARTIFACT_V3_PREFIX };

const ROUTE = /^\/api\/actions_pipeline\/_apis\/pipelines\/workflows\/([^/]+)\/artifacts(?:\/([^/]+)\/(upload|download_url|download))?\/?$/;

function httpError(status: number, message: string): Response {
  return new Response(`${message}\n`, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" } });
}

const json = (body: unknown) => new Response(`${JSON.stringify(body)}\n`, { status: 200, headers: { "Content-Type": "application/json;charset=utf-8" } });

const success = () => json({ message: "success" });

const emptyBody = (): AsyncIterable<Uint8Array> => (async function* () {})();

/**
 * The upload request's fields as Go's encoding/json fills Gitea's struct: keys matched without
 * regard to case, unknown keys ignored, a value of the wrong type an error.
 */
function readUploadRequest(text: string): { name: string; retentionDays: number } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HearthError(500, "Error decode request body");
  }
  const out = { name: "", retentionDays: 0 };
  if (body === null) return out;
  if (typeof body !== "object" || Array.isArray(body)) throw new HearthError(500, "Error decode request body");
  for (const [key, value] of Object.entries(body)) {
    const k = key.toLowerCase();
    if (value === null) continue;
    if (k === "name" || k === "type") {
      if (typeof value !== "string") throw new HearthError(500, "Error decode request body");
      if (k === "name") out.name = value;
    } else if (k === "retentiondays") {
      if (typeof value !== "number" || !Number.isSafeInteger(value)) throw new HearthError(500, "Error decode request body");
      out.retentionDays = value;
    }
  }
  return out;
}

const intHeader = (request: Request, name: string): number => {
  const v = request.headers.get(name);
  return v !== null && /^\d+$/.test(v) ? Number(v) : 0;
};

/** Answers a request below `/api/actions_pipeline/`. */
export async function serveArtifactsV3(env: Env, request: Request, path: string): Promise<Response> {
  const m = env.settings.actions.enabled ? ROUTE.exec(path) : null;
  if (!m) return httpError(404, "404 page not found");
  const [, rawRun, key, action] = m as unknown as [string, string, string | undefined, string | undefined];
  const method = request.method;
  const allowed = action === undefined ? ["GET", "POST", "PATCH"] : action === "upload" ? ["PUT"] : ["GET"];
  if (!allowed.includes(method)) return httpError(405, "Method Not Allowed");
  const now = nowUnix();
  try {
    const call = await authenticateArtifactCall(env, request.headers.get("authorization"), now);
    const runId = checkRunIdV3(call, rawRun);
    const query = new URL(request.url).searchParams;
    if (action === undefined) {
      if (method === "GET") return json(listArtifactsV3(env, runId));
      if (method === "POST") return json({ fileContainerResourceUrl: uploadUrlV3(env, runId, readUploadRequest(await request.text())) });
      await confirmUploadV3(env, runId, query.get("artifactName") ?? "", now);
      return success();
    }
    if (action === "upload") {
      await uploadChunkV3(
        env,
        call,
        runId,
        {
          hash: key!,
          itemPath: query.get("itemPath") ?? "",
          retentionDays: query.get("retentionDays"),
          contentLength: intHeader(request, "content-length"),
          fileLength: intHeader(request, "x-tfs-filelength"),
          contentRange: request.headers.get("content-range") ?? "",
          md5: request.headers.get("x-actions-results-md5") ?? "",
          contentEncoding: request.headers.get("content-encoding") ?? "",
        },
        request.body ?? emptyBody(),
        now,
      );
      return success();
    }
    if (action === "download_url") return json(downloadUrlsV3(env, runId, key!, query.get("itemPath") ?? ""));
    const { path: file, artifact } = downloadFileV3(env, runId, key!);
    const blob = Bun.file(file);
    const headers: Record<string, string> = {
      "Content-Type": "application/octet-stream",
      "Content-Length": String(blob.size),
      "Last-Modified": new Date(artifact.createdUnix * 1000).toUTCString(),
    };
    // The client unpacks what it gzipped on the way up.
    if (artifact.contentEncoding === "gzip") headers["Content-Encoding"] = "gzip";
    return new Response(blob, { status: 200, headers });
  } catch (err) {
    if (err instanceof HearthError) return httpError(err.status, err.message);
    env.log.error("artifact request failed", { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    return httpError(500, "Internal Server Error");
  }
}
