import { BadRequest } from "./errors.ts";

/**
 * A streaming reader of multipart/form-data bodies (RFC 7578): every part, in order, with its
 * headers, its field name and file name, and its bytes handed over as they arrive. Nothing but a
 * part's headers (bounded) and the few bytes that may still begin a delimiter is ever held, so a
 * file part can go straight to disk while the plain fields around it are read as text.
 *
 * Errors are Go's mime/multipart messages (what Gitea answers), as 400s.
 */

/** One part of the form. Its bytes may be read once, before the next part is asked for. */
export interface FormPart {
  /** The part's headers, names in lower case. */
  readonly headers: ReadonlyMap<string, string>;
  /** The field's name (Go's FormName; "" when the part has none). */
  readonly name: string;
  /** The file name reduced to its last path element (Go's FileName); undefined for a plain value. */
  readonly filename: string | undefined;
  /** The part's bytes as they arrive. Left unread, they are skipped when the next part is read. */
  chunks(): AsyncIterable<Uint8Array>;
  /** The part's bytes as UTF-8 text; more than `limit` bytes is a 400. */
  text(limit: number): Promise<string>;
}

/** The most bytes one part's header block may have. */
export const PART_HEADER_LIMIT = 16 * 1024;

const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");

/** A parameter of a header value such as Content-Type or Content-Disposition (a token or a quoted string). */
export function headerParam(value: string, name: string): string | undefined {
  const re = /;\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
  for (const m of value.matchAll(re)) {
    if (m[1]!.toLowerCase() !== name) continue;
    const raw = m[2]!.trim();
    return raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, "$1") : raw;
  }
  return undefined;
}

/** A parameter in RFC 2231/5987 form (`filename*=utf-8''a%20b`), which Go's mime package prefers. */
function extendedParam(value: string, name: string): string | undefined {
  const m = /^utf-8'[^']*'(.*)$/i.exec(headerParam(value, `${name}*`) ?? "");
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

/** The boundary of a multipart/form-data Content-Type, or the 400 Go's Request.FormFile answers. */
export function multipartBoundary(contentType: string | null): string {
  const type = contentType ?? "";
  if (type.split(";")[0]!.trim().toLowerCase() !== "multipart/form-data") {
    throw new BadRequest("request Content-Type isn't multipart/form-data");
  }
  const boundary = headerParam(type, "boundary");
  // RFC 2046: 1 to 70 characters.
  if (!boundary || boundary.length > 70) throw new BadRequest("no multipart boundary param in Content-Type");
  return boundary;
}

type Source = { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(): Promise<void> };

/** The delimiter scanner under `formParts`. */
class Scanner {
  /** What was read and not yet handed over; starts with CRLF so the first delimiter is found like the rest. */
  private buf: Buffer = CRLF;
  private ended = false;
  private started = false;
  /** A part's body is being read (or was left unread) and its closing delimiter not yet seen. */
  partOpen = false;
  private readonly delimiter: Buffer;

  constructor(
    private readonly source: Source,
    boundary: string,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
  }

  /** More of the body; one that ends before its closing delimiter is Go's unexpected EOF. */
  private async fill(): Promise<void> {
    const { done, value } = this.ended ? { done: true, value: undefined } : await this.source.read();
    if (done || !value) {
      this.ended = true;
      throw new BadRequest("multipart: NextPart: EOF");
    }
    this.buf = this.buf.length ? Buffer.concat([this.buf, value]) : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  }

  /** Moves past the next delimiter (skipping what is left of the current part): the next part's headers, or undefined at the end. */
  async nextPart(): Promise<Map<string, string> | undefined> {
    if (this.partOpen) for await (const _ of this.body()) /* the rest of an unread part */;
    if (!this.started) {
      // The preamble, up to the first delimiter.
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
    // The rest of the delimiter's line (transport padding), then the header lines up to an empty line.
    let lineEnd: number;
    while ((lineEnd = this.buf.indexOf(CRLF)) < 0) {
      if (this.buf.length > PART_HEADER_LIMIT) throw new BadRequest("multipart: message too large");
      await this.fill();
    }
    if (this.buf.subarray(0, lineEnd).toString("latin1").trim() !== "") throw new BadRequest("multipart: NextPart: malformed delimiter");
    this.buf = this.buf.subarray(lineEnd + 2);
    let end: number;
    for (;;) {
      end = this.buf.subarray(0, 2).equals(CRLF) ? 0 : this.buf.indexOf(HEADER_END);
      if (end >= 0 && end <= PART_HEADER_LIMIT) break;
      if (end > PART_HEADER_LIMIT || this.buf.length > PART_HEADER_LIMIT) throw new BadRequest("multipart: message too large");
      await this.fill();
    }
    const headers = new Map<string, string>();
    if (end > 0) {
      for (const line of this.buf.subarray(0, end).toString("utf8").split("\r\n")) {
        const colon = line.indexOf(":");
        if (colon <= 0) throw new BadRequest(`multipart: NextPart: malformed MIME header line: ${line.slice(0, 100)}`);
        const name = line.slice(0, colon).trim().toLowerCase();
        if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
      }
    }
    this.buf = this.buf.subarray(end === 0 ? 2 : end + 4);
    this.partOpen = true;
    return headers;
  }

  /** The current part's bytes, up to the next delimiter. */
  async *body(): AsyncGenerator<Uint8Array> {
    const keep = this.delimiter.length - 1;
    while (this.partOpen) {
      const at = this.buf.indexOf(this.delimiter);
      if (at >= 0) {
        const last = this.buf.subarray(0, at);
        this.buf = this.buf.subarray(at + this.delimiter.length);
        this.partOpen = false;
        if (last.length) yield last;
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

  /** Stops reading the body: whatever was not read is not wanted. */
  async close(): Promise<void> {
    if (!this.ended) {
      this.ended = true;
      await this.source.cancel().catch(() => {});
    }
  }
}

/**
 * The parts of a multipart/form-data body, in order. Ask for the next part only after reading as
 * much of the current one as wanted (what is left is skipped); stopping early cancels the body.
 */
export async function* formParts(body: ReadableStream<Uint8Array>, boundary: string): AsyncGenerator<FormPart> {
  const scanner = new Scanner(body.getReader(), boundary);
  try {
    for (;;) {
      const headers = await scanner.nextPart();
      if (!headers) return;
      const disposition = headers.get("content-disposition") ?? "";
      const isFormData = disposition.split(";")[0]!.trim().toLowerCase() === "form-data";
      const name = isFormData ? (extendedParam(disposition, "name") ?? headerParam(disposition, "name") ?? "") : "";
      const rawFile = extendedParam(disposition, "filename") ?? headerParam(disposition, "filename");
      let read = false;
      const chunks = (): AsyncIterable<Uint8Array> => {
        if (read) throw new Error("a form part's bytes can be read once");
        read = true;
        return scanner.body();
      };
      yield {
        headers,
        name,
        // An empty file name is a plain value to Go, not a file.
        filename: rawFile ? baseName(rawFile) : undefined,
        chunks,
        async text(limit: number) {
          const parts: Uint8Array[] = [];
          let size = 0;
          for await (const chunk of chunks()) {
            size += chunk.byteLength;
            if (size > limit) throw new BadRequest("multipart: message too large");
            parts.push(chunk);
          }
          return Buffer.concat(parts).toString("utf8");
        },
      };
    }
  } finally {
    await scanner.close();
  }
}
