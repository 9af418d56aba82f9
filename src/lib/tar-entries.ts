import { BadRequest } from "./errors.ts";

/**
 * A streaming reader of tar archives (POSIX ustar, with GNU long names and PAX `path`/`size`
 * records, as Go's archive/tar reads them): one entry at a time, its bytes read on demand or
 * skipped, so an archive of any size passes through holding only the current block. Malformed
 * archives are 400s.
 */

/** One member of the archive. Its bytes may be read once, before the next entry is asked for. */
export interface TarEntry {
  /** The full path of the member (ustar prefix, GNU long name or PAX path applied). */
  readonly name: string;
  /** Go's Typeflag: "0" for a regular file ("\0" is reported as "0" as Go does), "5" a directory... */
  readonly type: string;
  readonly size: number;
  /** The member's bytes; more than `limit` bytes is a 400. */
  bytes(limit: number): Promise<Uint8Array>;
  /** The member's bytes as UTF-8 text; more than `limit` bytes is a 400. */
  text(limit: number): Promise<string>;
}

const BLOCK = 512;

/** Reads exact byte counts from a chunk stream. */
class Bytes {
  private buf: Uint8Array = new Uint8Array(0);
  private readonly it: AsyncIterator<Uint8Array>;
  private done = false;

  constructor(source: AsyncIterable<Uint8Array>) {
    this.it = source[Symbol.asyncIterator]();
  }

  /** `n` bytes, or fewer when the stream ends first. */
  async read(n: number): Promise<Uint8Array> {
    while (this.buf.byteLength < n && !this.done) {
      const next = await this.it.next();
      if (next.done) this.done = true;
      else if (next.value.byteLength) {
        const joined = new Uint8Array(this.buf.byteLength + next.value.byteLength);
        joined.set(this.buf);
        joined.set(next.value, this.buf.byteLength);
        this.buf = joined;
      }
    }
    const out = this.buf.subarray(0, Math.min(n, this.buf.byteLength));
    this.buf = this.buf.subarray(out.byteLength);
    return out;
  }

  /** Skips `n` bytes without keeping more than one chunk; false when the stream ends first. */
  async skip(n: number): Promise<boolean> {
    while (n > 0) {
      if (!this.buf.byteLength) {
        if (this.done) return false;
        const next = await this.it.next();
        if (next.done) {
          this.done = true;
          return false;
        }
        this.buf = next.value;
      }
      const take = Math.min(n, this.buf.byteLength);
      this.buf = this.buf.subarray(take);
      n -= take;
    }
    return true;
  }

  async close(): Promise<void> {
    await this.it.return?.(undefined);
  }
}

const decoder = new TextDecoder();

/** A NUL-terminated header field. */
function str(block: Uint8Array, off: number, len: number): string {
  const field = block.subarray(off, off + len);
  const end = field.indexOf(0);
  return decoder.decode(end < 0 ? field : field.subarray(0, end));
}

/** A numeric header field: octal text, or GNU's base-256 when the high bit of its first byte is set. */
function num(block: Uint8Array, off: number, len: number): number {
  const field = block.subarray(off, off + len);
  if (field[0]! & 0x80) {
    let n = field[0]! & 0x7f;
    for (let i = 1; i < len; i++) n = n * 256 + field[i]!;
    return n;
  }
  const text = str(block, off, len).trim();
  if (text === "") return 0;
  if (!/^[0-7]+$/.test(text)) throw new BadRequest("archive/tar: invalid header");
  return parseInt(text, 8);
}

function checksumOk(block: Uint8Array): boolean {
  const stored = num(block, 148, 8);
  let unsigned = 0;
  for (let i = 0; i < BLOCK; i++) unsigned += i >= 148 && i < 156 ? 32 : block[i]!;
  return stored === unsigned;
}

/** PAX extended header records (`len key=value\n`). */
export function parsePaxRecords(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let rest = text;
  while (rest.length) {
    const m = /^(\d+) /.exec(rest);
    if (!m) throw new BadRequest("archive/tar: invalid header");
    // The length counts bytes, the whole record included.
    const bytes = Buffer.from(rest, "utf8");
    const len = Number(m[1]);
    if (len < m[0].length + 2 || len > bytes.byteLength) throw new BadRequest("archive/tar: invalid header");
    const record = bytes.subarray(m[0].length, len).toString("utf8");
    if (!record.endsWith("\n")) throw new BadRequest("archive/tar: invalid header");
    const eq = record.indexOf("=");
    if (eq < 0) throw new BadRequest("archive/tar: invalid header");
    out.set(record.slice(0, eq), record.slice(eq + 1, -1));
    rest = bytes.subarray(len).toString("utf8");
  }
  return out;
}

/**
 * The entries of a tar archive read from `source` (already decompressed). Leaving an entry's bytes
 * unread skips them; breaking out of the loop stops reading the source.
 */
export async function* tarEntries(source: AsyncIterable<Uint8Array>): AsyncGenerator<TarEntry> {
  const bytes = new Bytes(source);
  try {
    let longName: string | undefined;
    let pax = new Map<string, string>();
    const globalPax = new Map<string, string>();
    for (;;) {
      const block = await bytes.read(BLOCK);
      if (block.byteLength === 0) return; // Go's reader: an archive may end without its zero blocks
      if (block.byteLength < BLOCK) throw new BadRequest("unexpected EOF");
      if (block.every((b) => b === 0)) return;
      if (!checksumOk(block)) throw new BadRequest("archive/tar: invalid header");
      let type = String.fromCharCode(block[156]!);
      let size = num(block, 124, 12);
      const padded = Math.ceil(size / BLOCK) * BLOCK;
      const readBody = async (limit: number): Promise<Uint8Array> => {
        if (size > limit) throw new BadRequest("archive member too large");
        const data = await bytes.read(size);
        if (data.byteLength < size || !(await bytes.skip(padded - size))) throw new BadRequest("unexpected EOF");
        return data;
      };
      if (type === "L" || type === "x" || type === "g") {
        const text = decoder.decode(await readBody(1 << 20));
        if (type === "L") longName = text.replace(/\0+$/, "");
        else if (type === "x") pax = parsePaxRecords(text);
        else for (const [k, v] of parsePaxRecords(text)) globalPax.set(k, v);
        continue;
      }
      const magic = str(block, 257, 6);
      const prefix = magic === "ustar" ? str(block, 345, 155) : "";
      let name = longName ?? (prefix ? `${prefix}/${str(block, 0, 100)}` : str(block, 0, 100));
      const paxPath = pax.get("path") ?? globalPax.get("path");
      if (paxPath !== undefined) name = paxPath;
      const paxSize = pax.get("size");
      if (paxSize !== undefined) {
        if (!/^\d+$/.test(paxSize)) throw new BadRequest("archive/tar: invalid header");
        size = Number(paxSize);
      }
      longName = undefined;
      pax = new Map();
      if (type === "\0" && !name.endsWith("/")) type = "0";
      const bodyPadded = Math.ceil(size / BLOCK) * BLOCK;
      let consumed = false;
      const entry: TarEntry = {
        name,
        type,
        size,
        async bytes(limit) {
          if (consumed) throw new Error("the entry was read already");
          consumed = true;
          if (size > limit) throw new BadRequest("archive member too large");
          const data = await bytes.read(size);
          if (data.byteLength < size || !(await bytes.skip(bodyPadded - size))) throw new BadRequest("unexpected EOF");
          return data;
        },
        async text(limit) {
          return decoder.decode(await this.bytes(limit));
        },
      };
      yield entry;
      if (!consumed && !(await bytes.skip(bodyPadded))) throw new BadRequest("unexpected EOF");
    }
  } finally {
    await bytes.close();
  }
}
