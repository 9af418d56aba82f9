import { operation } from "../../../route.ts";
import { RefQuery, RepoFileParams } from "../../../../shapes/content.ts";
import { openRaw } from "../../../../services/repo/contents.ts";
import type { Settings } from "../../../../config/settings.ts";
import type { Env } from "../../../../services/env.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import { wildcard } from "./context.ts";
import { detectContentType } from "../../../../lib/sniff.ts";

// ---------------------------------------------------------------------------------------------
// Serving user content (Gitea's httplib.ServeUserContentByReader and ServeSetHeaders)

/** Gitea's `[server] STATIC_CACHE_TIME` default. */
const STATIC_CACHE_SECONDS = 6 * 60 * 60;
const SNIFF_BYTES = 1024;

const startsWith = (buf: Uint8Array, sig: number[] | string, at = 0) => {
  const bytes = typeof sig === "string" ? [...sig].map((c) => c.charCodeAt(0)) : sig;
  if (buf.length < at + bytes.length) return false;
  return bytes.every((b, i) => buf[at + i] === b);
};

const SVG_COMMENT = /<!--[\s\S]*?-->/g;
const SVG_TAG = /^\s*(?:(<!DOCTYPE\s+svg([\s:]+[\s\S]*?>|>))\s*)*<svg\b/i;
const SVG_IN_XML = /^<\?xml\b[\s\S]*?\?>\s*(?:(<!DOCTYPE\s+svg([\s:]+[\s\S]*?>|>))\s*)*<svg\b/i;

/** Gitea's typesniffer.DetectContentType: Go's sniffing plus SVG and the MP3 false positive. */
export function sniffType(buf: Uint8Array): string {
  if (buf.length === 0) return "text/unknown";
  let ct = detectContentType(buf);
  const text = Buffer.from(buf.subarray(0, SNIFF_BYTES)).toString("utf8").replace(SVG_COMMENT, "");
  const byHtml = ct.includes("text/plain") || ct.includes("text/html");
  if ((byHtml && SVG_TAG.test(text)) || (ct.includes("text/xml") && SVG_IN_XML.test(text))) ct = "image/svg+xml";
  if (ct.startsWith("audio/") && startsWith(buf, "ID3")) {
    const again = detectContentType(buf.subarray(3));
    if (again.startsWith("text/")) ct = again;
  }
  return ct;
}

/** Whether the start of a blob is UTF-8, allowing a character cut at the end of the sample. */
function isUtf8Prefix(buf: Uint8Array): boolean {
  for (let cut = 0; cut <= 3 && cut <= buf.length; cut++) {
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(buf.subarray(0, buf.length - cut));
      return true;
    } catch {
      if (buf.length < SNIFF_BYTES) return false; // the whole blob: nothing was cut
    }
  }
  return false;
}

/** Gitea's charset.DetectEncoding, reduced to what matters for a header: UTF-8, UTF-16, else Latin-1. */
function detectCharset(buf: Uint8Array): string {
  if (startsWith(buf, [0xfe, 0xff])) return "utf-16be";
  if (startsWith(buf, [0xff, 0xfe])) return "utf-16le";
  return isUtf8Prefix(buf) ? "utf-8" : "iso-8859-1";
}

const BROWSABLE = /^(image\/|video\/|audio\/|application\/pdf)/;

/** The Content-Type to serve user content with: never HTML; text is text/plain with a charset. */
export function userContentType(head: Uint8Array): string {
  const sniffed = sniffType(head);
  if (BROWSABLE.test(sniffed)) return sniffed;
  if (sniffed.includes("text/")) return `text/plain; charset=${detectCharset(head)}`;
  return "application/octet-stream";
}

/** What Go's url.PathEscape leaves as it is in a path segment: unreserved characters and `$&+:=@`. */
const PATH_SEGMENT_SAFE = /[A-Za-z0-9\-_.~$&+:=@]/;

/** Go's url.PathEscape: every other byte of the UTF-8 encoding as %XX, upper-case hex. */
function pathEscape(s: string): string {
  let out = "";
  for (const b of Buffer.from(s, "utf8")) {
    const c = String.fromCharCode(b);
    out += b < 0x80 && PATH_SEGMENT_SAFE.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/**
 * Gitea 1.25's ServeSetHeaders: the name quoted (backslash and double quote escaped) for old
 * clients, and again percent-encoded as UTF-8 in `filename*`, always both. Go writes the quoted
 * name's UTF-8 bytes as they are and turns CR and LF into spaces; a Headers value carries bytes
 * as Latin-1 characters, so the name is re-spelled that way to put the same bytes on the wire.
 */
export function contentDisposition(type: "inline" | "attachment", filename: string): string {
  const quoted = filename.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replace(/[\r\n\0]/g, " ");
  const bytes = Buffer.from(quoted, "utf8").toString("latin1");
  return `${type}; filename="${bytes}"; filename*=UTF-8''${pathEscape(filename)}`;
}

/** Gitea's httpcache.SetCacheControlInHeader with NoTransform. */
export function cacheControl(settings: Settings, isPublic: boolean): string {
  if (settings.runMode !== "prod") return "max-age=0, private, must-revalidate, no-transform";
  return `${isPublic ? "public" : "private"}, max-age=${STATIC_CACHE_SECONDS}, no-transform`;
}

/** The headers every served user file carries: type, nosniff, a sandboxing CSP, disposition, caching. */
export function userContentHeaders(
  settings: Settings,
  opts: { contentType: string; filename: string; disposition: "inline" | "attachment"; cachePublic: boolean },
): Headers {
  const h = new Headers();
  h.set("Content-Type", opts.contentType);
  h.set("X-Content-Type-Options", "nosniff");
  h.set(
    "Content-Security-Policy",
    opts.contentType.includes("application/pdf")
      ? "default-src 'none'; style-src 'unsafe-inline'"
      : "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  );
  h.set("Content-Disposition", contentDisposition(opts.disposition, opts.filename));
  h.set("Access-Control-Expose-Headers", "Content-Disposition");
  h.set("Cache-Control", cacheControl(settings, opts.cachePublic));
  return h;
}

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

function notModified(request: Request, etag: string, lastModified: number | undefined): boolean {
  const inm = request.headers.get("if-none-match");
  if (inm) return inm.split(",").some((t) => t.trim() === etag);
  const ims = request.headers.get("if-modified-since");
  if (ims && lastModified !== undefined) {
    const t = Date.parse(ims);
    return !Number.isNaN(t) && lastModified <= Math.floor(t / 1000);
  }
  return false;
}

async function serveRaw(
  ctx: { env: Env; repo: RepoContext; request: Request },
  params: { "*": string },
  ref: string | undefined,
): Promise<Response> {
  const { env, repo: rc, request } = ctx;
  const file = await openRaw(env, rc, wildcard(params), ref);
  const etag = `"${file.oid}"`;
  const base = new Headers({ "X-Gitea-Object-Type": file.kind, ETag: etag });
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

/** Raw files are code: Gitea's reqRepoReader(Code). */
const read = { scope: "repository", signIn: false, repo: { read: "code" } } as const;

export const rawOperations = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/raw/*",
    wildcard: "filepath",
    operationId: "repoGetRawFile",
    tag: "repository",
    summary: "Get a file from a repository",
    access: read,
    params: RepoFileParams,
    query: RefQuery,
    responses: { 200: null },
    streams: true,
    handler: (ctx) => serveRaw(ctx, ctx.params, ctx.query.ref),
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/media/*",
    wildcard: "filepath",
    operationId: "repoGetRawFileOrLFS",
    tag: "repository",
    summary: "Get a file or it's LFS object from a repository",
    access: read,
    params: RepoFileParams,
    query: RefQuery,
    // hearth has no LFS store yet: a pointer file is served as the blob it is, as Gitea does
    // when the pointer's object is not in the repository.
    responses: { 200: null },
    streams: true,
    handler: (ctx) => serveRaw(ctx, ctx.params, ctx.query.ref),
  }),
];
