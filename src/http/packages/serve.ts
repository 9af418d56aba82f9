import type { PackageBlobRow } from "../../db/schema/index.ts";

/**
 * A package file's bytes as every registry serves them (Gitea's ServePackageFile): its digests as
 * ETag and in Gitea's headers, Last-Modified, 304 for a matching If-None-Match, byte ranges, and
 * never as a page of this site.
 */
export function servePackageBlob(request: Request, blob: PackageBlobRow, file: ReturnType<typeof Bun.file>, headers: Record<string, string> = {}): Response {
  const etag = `"${blob.hashSha256}"`;
  const common: Record<string, string> = {
    ETag: etag,
    "Last-Modified": new Date(blob.createdUnix * 1000).toUTCString(),
    "X-Checksum-Md5": blob.hashMd5,
    "X-Checksum-Sha1": blob.hashSha1,
    "X-Checksum-Sha256": blob.hashSha256,
    "X-Content-Type-Options": "nosniff",
    "Accept-Ranges": "bytes",
    "Content-Type": "application/octet-stream",
    ...headers,
  };
  const inm = request.headers.get("if-none-match");
  if (inm && inm.split(",").some((t) => t.trim() === etag)) return new Response(null, { status: 304, headers: common });
  const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.get("range")?.trim() ?? "");
  if (range && (range[1] || range[2])) {
    const size = blob.size;
    let start = range[1] ? Number(range[1]) : size - Number(range[2]);
    let end = range[1] ? (range[2] ? Number(range[2]) : size - 1) : size - 1;
    start = Math.max(0, start);
    end = Math.min(end, size - 1);
    if (start > end || start >= size) {
      return new Response(null, { status: 416, headers: { ...common, "Content-Range": `bytes */${size}` } });
    }
    return new Response(file.slice(start, end + 1), {
      status: 206,
      headers: { ...common, "Content-Range": `bytes ${start}-${end}/${size}`, "Content-Length": String(end - start + 1) },
    });
  }
  return new Response(file, { headers: { ...common, "Content-Length": String(blob.size) } });
}
