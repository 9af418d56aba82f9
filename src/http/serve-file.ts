import type { Env } from "../services/env.ts";
import type { RawFile } from "../services/repo/contents.ts";
import type { Archive } from "../services/repo/archive.ts";
import { SNIFF_BYTES, userContentType } from "../lib/sniff.ts";
import { userContentHeaders } from "./user-content.ts";

// Serving a repository's files and archives, the same for the API (`/api/v1/repos/{o}/{r}/raw/...`,
// `/archive/...`) and the web (`/{o}/{r}/raw/...`, `/media/...`, `/archive/...`): Gitea's ServeBlob
// and ServeRepoArchive, streamed.

/** Reads up to `n` bytes from the front of a stream, and a stream that still yields everything. */
async function peek(stream: ReadableStream<Uint8Array>, n: number): Promise<{ head: Uint8Array; body: ReadableStream<Uint8Array> }> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let done = false;
  while (size < n) {
    const r = await reader.read();
    if (r.done) {
      done = true;
      break;
    }
    chunks.push(r.value);
    size += r.value.byteLength;
  }
  const head = Buffer.concat(chunks);
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      if (head.length) c.enqueue(head);
      if (done) c.close();
    },
    async pull(c) {
      const r = await reader.read();
      if (r.done) c.close();
      else c.enqueue(r.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { head: head.subarray(0, n), body };
}

/** Bytes [start, start+length) of a stream, skipping and stopping without buffering the rest. */
function slice(stream: ReadableStream<Uint8Array>, start: number, length: number): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  let skip = start;
  let left = length;
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      while (left > 0) {
        const r = await reader.read();
        if (r.done) break;
        let chunk = r.value;
        if (skip > 0) {
          if (chunk.byteLength <= skip) {
            skip -= chunk.byteLength;
            continue;
          }
          chunk = chunk.subarray(skip);
          skip = 0;
        }
        if (chunk.byteLength > left) chunk = chunk.subarray(0, left);
        left -= chunk.byteLength;
        c.enqueue(chunk);
        return;
      }
      c.close();
      await reader.cancel().catch(() => {});
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

const httpDate = (unix: number) => new Date(unix * 1000).toUTCString();

/** Whether the client's copy is current: If-None-Match against the ETag, else If-Modified-Since. */
export function notModified(request: Request, etag: string, lastModified: number | undefined): boolean {
  const inm = request.headers.get("if-none-match");
  if (inm) return inm.split(",").some((t) => t.trim() === etag);
  const ims = request.headers.get("if-modified-since");
  if (ims && lastModified !== undefined) {
    const t = Date.parse(ims);
    return !Number.isNaN(t) && lastModified <= Math.floor(t / 1000);
  }
  return false;
}

/** What a served blob needs: RawFile (a path at a revision) or a blob named by its id. */
export type ServedBlob = Pick<RawFile, "oid" | "size" | "lastModified" | "cachePublic" | "open"> & {
  name: string;
  /** `X-Gitea-Object-Type` (the API sends it; `file`, `symlink`). */
  kind?: string;
};

/**
 * One blob as Gitea's ServeBlob sends it: ETag (the blob id) and Last-Modified with 304s, the
 * type sniffed from the first bytes and never HTML (userContentType), the user-content headers
 * (nosniff, a sandboxing CSP, inline disposition with the file's name), and one byte range.
 */
export async function serveBlob(env: Env, request: Request, file: ServedBlob): Promise<Response> {
  const etag = `"${file.oid}"`;
  const base = new Headers({ ETag: etag });
  if (file.kind) base.set("X-Gitea-Object-Type", file.kind);
  if (file.lastModified !== undefined) base.set("Last-Modified", httpDate(file.lastModified));
  if (notModified(request, etag, file.lastModified)) return new Response(null, { status: 304, headers: base });

  const { head, body } = await peek(await file.open(), SNIFF_BYTES);
  const contentType = userContentType(head);
  // Gitea serves SVG as an attachment only when [ui.svg] ENABLE_RENDER is off; hearth renders it
  // inline under the same sandboxing CSP.
  const headers = userContentHeaders(env.settings, {
    contentType,
    filename: file.name,
    disposition: "inline",
    cachePublic: file.cachePublic,
  });
  base.forEach((value, key) => headers.set(key, value));

  const range = request.headers.get("range");
  if (file.size <= 0 || !range?.startsWith("bytes=")) {
    headers.set("Content-Length", String(file.size));
    return new Response(body, { status: 200, headers });
  }
  // One range, as Gitea supports it: bytes=a-b or bytes=a-.
  const [startText = "", endText, ...rest] = range.slice("bytes=".length).split("-");
  const start = /^\d+$/.test(startText) ? Number(startText) : NaN;
  const plain = (status: number, message: string) => {
    void body.cancel();
    return new Response(`${message}\n`, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" } });
  };
  if (!(start >= 0 && start < file.size)) return plain(416, "invalid start range");
  let end = endText === undefined || rest.length ? NaN : endText === "" ? file.size - 1 : /^\d+$/.test(endText) ? Number(endText) : NaN;
  if (end >= file.size) end = file.size - 1;
  if (!(end >= start)) return plain(400, "invalid end range");
  const length = end - start + 1;
  headers.set("Content-Range", `bytes ${start}-${end}/${file.size}`);
  headers.set("Content-Length", String(length));
  return new Response(slice(body, start, length), { status: 206, headers });
}

/**
 * An archive as Gitea streams it: an attachment named `{repo}-{ref}.{ext}`, with the
 * `rel="immutable"` link to the same archive by commit id that Nix's tarball fetcher locks to.
 */
export async function serveArchive(env: Env, archive: Archive, immutableBase: string): Promise<Response> {
  const body = await archive.open();
  const headers = userContentHeaders(env.settings, {
    contentType: "application/octet-stream",
    filename: archive.filename,
    disposition: "attachment",
    cachePublic: false,
  });
  headers.set("Link", `<${immutableBase}/archive/${archive.commitId}.${archive.type}?rev=${archive.commitId}>; rel="immutable"`);
  headers.set("Last-Modified", new Date().toUTCString());
  return new Response(body, { status: 200, headers });
}

/** A stored attachment (issue, comment or release file) as a download page serves it. */
export interface StoredAttachment {
  path: string;
  attachment: { uuid: string; name: string; createdUnix: number };
  repo: { isPrivate: boolean };
}

/**
 * An attachment's bytes exactly as stored, under the protective headers of every served user file
 * (never as a page of this site), with its uuid as ETag.
 */
export async function serveAttachmentFile(env: Env, request: Request, found: StoredAttachment): Promise<Response> {
  const etag = `"${found.attachment.uuid}"`;
  const inm = request.headers.get("if-none-match");
  if (inm && inm.split(",").some((t) => t.trim() === etag)) return new Response(null, { status: 304, headers: { ETag: etag } });
  const file = Bun.file(found.path);
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
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
