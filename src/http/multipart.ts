import { BadRequest } from "../lib/errors.ts";

/** A file field of a multipart/form-data body, its bytes streamed as they arrive. */
export interface FilePart {
  /** The file name the client sent, reduced to its last path element as Go's FileName does. */
  filename: string;
  chunks: AsyncIterable<Uint8Array>;
}

const HEADER_LIMIT = 16 * 1024;
const CRLF = Buffer.from("\r\n");

/** A parameter of a Content-Type or Content-Disposition header value (token or quoted string). */
function headerParam(value: string, name: string): string | undefined {
  const re = /;\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
  for (const m of value.matchAll(re)) {
    if (m[1]!.toLowerCase() !== name) continue;
    const raw = m[2]!.trim();
    return raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, "$1") : raw;
  }
  return undefined;
}

/** RFC 5987 `filename*=utf-8''...`, which Go's mime package prefers over `filename`. */
function extendedParam(value: string, name: string): string | undefined {
  const raw = headerParam(value, `${name}*`);
  const m = raw && /^utf-8'[^']*'(.*)$/i.exec(raw);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return undefined;
  }
}

/** Go's filepath.Base on a `/`-separated path. */
function baseName(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed ? trimmed.slice(trimmed.lastIndexOf("/") + 1) : "/";
}

/**
 * Reads a multipart/form-data request body as a stream, without holding it in memory: parts are
 * skipped until the first file part named `field` (Go's FormFile), whose bytes are handed over as
 * they arrive; the rest of the body is not read. `use` must consume the chunks before it returns.
 * Errors are Go's messages, answered 400 (Gitea answers 500: the caller can fix the request).
 */
export async function withFormFile<T>(request: Request, field: string, use: (part: FilePart) => Promise<T>): Promise<T> {
  const type = request.headers.get("content-type") ?? "";
  if (type.split(";")[0]!.trim().toLowerCase() !== "multipart/form-data") {
    throw new BadRequest("request Content-Type isn't multipart/form-data");
  }
  const boundary = headerParam(type, "boundary");
  if (!boundary) throw new BadRequest("no multipart boundary param in Content-Type");
  if (!request.body) throw new BadRequest("http: no such file");
  const reader = new PartReader(request.body.getReader(), boundary);
  try {
    for (;;) {
      const headers = await reader.nextPart();
      if (!headers) throw new BadRequest("http: no such file");
      const disposition = headers.get("content-disposition") ?? "";
      const name = extendedParam(disposition, "name") ?? headerParam(disposition, "name");
      const filename = extendedParam(disposition, "filename") ?? headerParam(disposition, "filename");
      // A part with an empty file name is a plain value to Go, not a file.
      if (name === field && filename) return await use({ filename: baseName(filename), chunks: reader.body() });
      for await (const _ of reader.body()) {
        // Another field: skipped without keeping it.
      }
    }
  } finally {
    await reader.close();
  }
}

/** The boundary scanner: keeps only what may still be the start of a delimiter between reads. */
class PartReader {
  private buf: Buffer = CRLF; // the first delimiter is then found like every other one
  private ended = false;
  private readonly delimiter: Buffer;

  constructor(
    private readonly source: { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(): Promise<void> },
    boundary: string,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
  }

  /** Reads more of the request; a body that stops before its closing delimiter is a 400. */
  private async fill(): Promise<void> {
    const { done, value } = this.ended ? { done: true as const, value: undefined } : await this.source.read();
    if (done || !value) {
      this.ended = true;
      throw new BadRequest("multipart: NextPart: EOF");
    }
    this.buf = this.buf.length ? Buffer.concat([this.buf, value]) : Buffer.from(value);
  }

  private started = false;

  /** Moves past the next delimiter; the headers of the part after it, or undefined at the end. */
  async nextPart(): Promise<Headers | undefined> {
    if (!this.started) {
      // Skip the preamble up to the first delimiter.
      for (;;) {
        const at = this.buf.indexOf(this.delimiter);
        if (at >= 0) {
          this.buf = this.buf.subarray(at + this.delimiter.length);
          break;
        }
        this.buf = this.buf.subarray(Math.max(0, this.buf.length - this.delimiter.length + 1));
        await this.fill();
      }
      this.started = true;
    }
    while (this.buf.length < 2) await this.fill();
    if (this.buf[0] === 0x2d && this.buf[1] === 0x2d) return undefined; // "--": the closing delimiter
    // The rest of the delimiter line (transport padding), then header lines up to an empty line.
    let lineEnd: number;
    while ((lineEnd = this.buf.indexOf(CRLF)) < 0) {
      if (this.buf.length > HEADER_LIMIT) throw new BadRequest("multipart: message too large");
      await this.fill();
    }
    this.buf = this.buf.subarray(lineEnd + 2);
    let end: number;
    for (;;) {
      end = this.buf.subarray(0, 2).equals(CRLF) ? 0 : this.buf.indexOf("\r\n\r\n");
      if (end >= 0) break;
      if (this.buf.length > HEADER_LIMIT) throw new BadRequest("multipart: message too large");
      await this.fill();
    }
    const headers = new Headers();
    for (const line of this.buf.subarray(0, end).toString("utf8").split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
    this.buf = this.buf.subarray(end === 0 ? 2 : end + 4);
    return headers;
  }

  /** The current part's bytes, up to the next delimiter. */
  async *body(): AsyncIterable<Uint8Array> {
    const keep = this.delimiter.length - 1;
    for (;;) {
      const at = this.buf.indexOf(this.delimiter);
      if (at >= 0) {
        if (at > 0) yield this.buf.subarray(0, at);
        this.buf = this.buf.subarray(at + this.delimiter.length);
        return;
      }
      if (this.buf.length > keep) {
        const out = this.buf.subarray(0, this.buf.length - keep);
        this.buf = this.buf.subarray(this.buf.length - keep);
        yield out;
      }
      await this.fill();
    }
  }

  /** Stops reading the request: whatever was not read is not wanted. */
  async close(): Promise<void> {
    if (!this.ended) await this.source.cancel().catch(() => {});
  }
}
