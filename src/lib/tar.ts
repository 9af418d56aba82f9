/**
 * A streaming reader of tar archives (POSIX ustar, GNU long names, pax `path`): entries are
 * visited one by one as their headers arrive, each one's bytes read only when asked for and
 * skipped otherwise, so an archive is never held whole in memory.
 */

export interface TarEntry {
  /** The entry's path as the archive names it. */
  name: string;
  /** `file`, `directory`, `symlink`, `link` or `other`. */
  type: "file" | "directory" | "symlink" | "link" | "other";
  size: number;
}

export class InvalidTar extends Error {}

const BLOCK = 512;

/** Reads exact byte counts from a sequence of chunks. */
class ChunkReader {
  private buffered: Uint8Array[] = [];
  private bufferedBytes = 0;
  private done = false;
  constructor(private readonly it: AsyncIterator<Uint8Array>) {}

  private async fill(n: number): Promise<boolean> {
    while (this.bufferedBytes < n && !this.done) {
      const next = await this.it.next();
      if (next.done) this.done = true;
      else if (next.value.byteLength) {
        this.buffered.push(next.value);
        this.bufferedBytes += next.value.byteLength;
      }
    }
    return this.bufferedBytes >= n;
  }

  /** Exactly `n` bytes, or `undefined` when the stream ends first (nothing consumed then at a clean end). */
  async read(n: number): Promise<Uint8Array | undefined> {
    if (!(await this.fill(n))) return undefined;
    const out = new Uint8Array(n);
    let at = 0;
    while (at < n) {
      const head = this.buffered[0]!;
      const take = Math.min(head.byteLength, n - at);
      out.set(head.subarray(0, take), at);
      at += take;
      if (take === head.byteLength) this.buffered.shift();
      else this.buffered[0] = head.subarray(take);
    }
    this.bufferedBytes -= n;
    return out;
  }

  /** Drops `n` bytes without keeping them; false when the stream ends first. */
  async skip(n: number): Promise<boolean> {
    let left = n;
    while (left > 0) {
      if (!this.bufferedBytes && !(await this.fill(1))) return false;
      const head = this.buffered[0]!;
      const take = Math.min(head.byteLength, left);
      if (take === head.byteLength) this.buffered.shift();
      else this.buffered[0] = head.subarray(take);
      this.bufferedBytes -= take;
      left -= take;
    }
    return true;
  }
}

const decoder = new TextDecoder();

function text(block: Uint8Array, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const nul = field.indexOf(0);
  return decoder.decode(nul < 0 ? field : field.subarray(0, nul));
}

/** A numeric field: octal text, or GNU's base-256 (high bit set). */
function number(block: Uint8Array, start: number, length: number): number {
  const field = block.subarray(start, start + length);
  if (field[0]! & 0x80) {
    let n = field[0]! & 0x7f;
    for (let i = 1; i < field.length; i++) n = n * 256 + field[i]!;
    return n;
  }
  const s = text(block, start, length).trim();
  if (s === "") return 0;
  if (!/^[0-7]+$/.test(s)) throw new InvalidTar("invalid tar header");
  return parseInt(s, 8);
}

function checksumOk(block: Uint8Array): boolean {
  const want = number(block, 148, 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
  return sum === want;
}

/** A pax extended header's records (`len key=value\n`). */
function paxRecords(data: Uint8Array): Map<string, string> {
  const out = new Map<string, string>();
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space < 0) break;
    const len = Number(decoder.decode(data.subarray(at, space)));
    if (!Number.isInteger(len) || len <= 0 || at + len > data.length) throw new InvalidTar("invalid pax header");
    const record = decoder.decode(data.subarray(space + 1, at + len - 1));
    const eq = record.indexOf("=");
    if (eq > 0) out.set(record.slice(0, eq), record.slice(eq + 1));
    at += len;
  }
  return out;
}

const TYPES: Record<string, TarEntry["type"]> = { "0": "file", "\0": "file", "7": "file", "5": "directory", "2": "symlink", "1": "link" };
/** Meta entries (long names, pax headers) are read whole: they are small, so this bounds them. */
const MAX_META = 1 << 20;

/**
 * Visits the entries of the tar stream `source` in order. `visit` is given the entry and `body`,
 * which reads the entry's bytes (call it at most once, and only for sizes you accept); entries
 * whose body is not read are skipped. `visit` returning true stops the walk (the rest of the
 * stream is not read). A truncated or malformed archive throws InvalidTar.
 */
export async function scanTar(
  source: AsyncIterable<Uint8Array>,
  visit: (entry: TarEntry, body: () => Promise<Uint8Array>) => boolean | void | Promise<boolean | void>,
): Promise<void> {
  const it = source[Symbol.asyncIterator]();
  const r = new ChunkReader(it);
  try {
    let longName: string | undefined;
    let pax = new Map<string, string>();
    for (;;) {
      const block = await r.read(BLOCK);
      if (!block) return; // archives ending without their zero blocks are read as Go's tar reads them
      if (block.every((b) => b === 0)) return;
      if (!checksumOk(block)) throw new InvalidTar("invalid tar header checksum");
      const size = number(block, 124, 12);
      const flag = String.fromCharCode(block[156]!);
      const padded = Math.ceil(size / BLOCK) * BLOCK;
      if (flag === "L" || flag === "x" || flag === "g") {
        if (size > MAX_META) throw new InvalidTar("tar meta entry too large");
        const data = await r.read(padded);
        if (!data) throw new InvalidTar("truncated tar archive");
        if (flag === "L") longName = text(data, 0, size);
        else if (flag === "x") pax = paxRecords(data.subarray(0, size));
        continue;
      }
      let name = text(block, 0, 100);
      if (text(block, 257, 5) === "ustar") {
        const prefix = text(block, 345, 155);
        if (prefix) name = `${prefix}/${name}`;
      }
      name = pax.get("path") ?? longName ?? name;
      const entrySize = pax.has("size") ? Number(pax.get("size")) : size;
      const dataSize = pax.has("size") ? Math.ceil(entrySize / BLOCK) * BLOCK : padded;
      longName = undefined;
      pax = new Map();
      const entry: TarEntry = { name, type: TYPES[flag] ?? "other", size: checkedSize(entrySize) };
      let consumed = false;
      const body = async () => {
        if (consumed) throw new Error("a tar entry's body is read once");
        consumed = true;
        const data = await r.read(dataSize);
        if (!data) throw new InvalidTar("truncated tar archive");
        return data.subarray(0, entrySize);
      };
      if (await visit(entry, body)) return;
      if (!consumed && !(await r.skip(dataSize))) throw new InvalidTar("truncated tar archive");
    }
  } finally {
    await it.return?.();
  }
}

function checkedSize(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidTar("invalid tar entry size");
  return n;
}
