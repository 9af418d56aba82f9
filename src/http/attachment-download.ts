import type { Env } from "../services/env.ts";
import type { FailureLimiter } from "../auth/ratelimit.ts";
import { authenticate, checkAccountState } from "../auth/authenticate.ts";
import type { Principal } from "../auth/principal.ts";
import { countDownload, findDownload, type Download } from "../services/issue/attachments.ts";
import { HearthError, TooManyRequests } from "../lib/errors.ts";
import { userContentHeaders } from "./user-content.ts";
import { userContentType } from "../lib/sniff.ts";

function text(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(`${body}\n`, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff", ...headers },
  });
}

const notFound = () => text(404, "404 page not found");

/**
 * A token restricted by scopes reads an attachment only with read access to what it belongs to
 * (issues for issue and pull request files, the repository for release files). A public-only
 * token's reach is the permission's business (findDownload finds nothing out of it).
 */
function tokenAllows(principal: Principal | undefined, d: Download): boolean {
  if (!principal?.scope) return true;
  return principal.scope.has(d.unit === "releases" ? "repository" : "issue", "read");
}

/**
 * `GET {ROOT_URL}attachments/{uuid}`, the `browser_download_url` of an attachment (Gitea's web
 * route ServeAttachment). Callers authenticate as on the API (token or basic; Gitea accepts those
 * on this path too); whoever may not read the issue, pull request or release the file belongs to
 * gets 404, as for a missing file. Each permitted download is counted, and the bytes are served
 * exactly as stored, under the same protective headers as raw files (never as HTML).
 */
export async function serveAttachment(env: Env, limiter: FailureLimiter, request: Request, ip: string, uuid: string): Promise<Response> {
  const url = new URL(request.url);
  let principal: Principal | undefined;
  try {
    principal = (await authenticate(env, { headers: request.headers, query: url.searchParams, ip }, limiter)).principal;
    checkAccountState(env, principal);
  } catch (err) {
    if (err instanceof TooManyRequests) return text(429, err.message, { "Retry-After": String(err.retryAfterSeconds) });
    if (err instanceof HearthError) return text(err.status, err.message);
    throw err;
  }
  const found = findDownload(env, principal?.user, uuid);
  if (!found || !tokenAllows(principal, found)) return notFound();
  countDownload(env, found.attachment);

  const etag = `"${found.attachment.uuid}"`;
  const inm = request.headers.get("if-none-match");
  if (inm && inm.split(",").some((t) => t.trim() === etag)) return new Response(null, { status: 304, headers: { ETag: etag } });

  const file = Bun.file(found.path);
  const head = new Uint8Array(await file.slice(0, 1024).arrayBuffer());
  const headers = userContentHeaders(env.settings, {
    contentType: userContentType(head),
    filename: found.attachment.name.slice(found.attachment.name.lastIndexOf("/") + 1),
    disposition: "inline",
    cachePublic: !found.repo.isPrivate,
  });
  headers.set("ETag", etag);
  headers.set("Last-Modified", new Date(found.attachment.createdUnix * 1000).toUTCString());
  headers.set("Content-Length", String(file.size));
  return new Response(file, { status: 200, headers });
}
