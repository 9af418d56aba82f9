/**
 * Reads a zip archive's directory (with zip64) through random access, so an archive on disk is
 * never read whole: the central directory names the entries, and an entry's local header tells
 * where its (stored or deflated) bytes start.
 */

/** Bytes of a file at an offset (a Bun.file slice, a buffer). */
export interface RandomAccess {
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated (others are not read here). */
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

export class InvalidZip extends Error {}

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** The end record (22 bytes) and the longest comment after it. */
const TAIL = 22 + 0xffff;
/** A central directory larger than this is not one a package has. */
const MAX_DIRECTORY = 64 << 20;

function view(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

function u64(v: DataView, at: number): number {
  const n = v.getBigUint64(at, true);
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new InvalidZip("zip offset out of range");
  return Number(n);
}

async function readExact(r: RandomAccess, offset: number, length: number): Promise<Uint8Array> {
  if (offset < 0 || length < 0 || offset + length > r.size) throw new InvalidZip("zip structure points past the end of the file");
  const b = await r.read(offset, length);
  if (b.byteLength !== length) throw new InvalidZip("short read");
  return b;
}

/** The entries of the archive's central directory, in its order. */
export async function zipEntries(r: RandomAccess): Promise<ZipEntry[]> {
  const tailStart = Math.max(0, r.size - TAIL);
  const tail = await readExact(r, tailStart, r.size - tailStart);
  const tv = view(tail);
  let end = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tv.getUint32(i, true) === EOCD && i + 22 + tv.getUint16(i + 20, true) <= tail.length) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new InvalidZip("not a valid zip file");
  let count = tv.getUint16(end + 10, true);
  let dirSize = tv.getUint32(end + 12, true);
  let dirOffset = tv.getUint32(end + 16, true);
  const endAt = tailStart + end;
  if ((count === 0xffff || dirSize === 0xffffffff || dirOffset === 0xffffffff) && endAt >= 20) {
    const loc = view(await readExact(r, endAt - 20, 20));
    if (loc.getUint32(0, true) === EOCD64_LOCATOR) {
      const rec = view(await readExact(r, u64(loc, 8), 56));
      if (rec.getUint32(0, true) !== EOCD64) throw new InvalidZip("invalid zip64 end record");
      count = u64(rec, 32);
      dirSize = u64(rec, 40);
      dirOffset = u64(rec, 48);
    }
  }
  if (dirSize > MAX_DIRECTORY) throw new InvalidZip("zip directory too large");
  const dir = await readExact(r, dirOffset, dirSize);
  const dv = view(dir);
  const names = new TextDecoder();
  const entries: ZipEntry[] = [];
  let at = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > dir.length || dv.getUint32(at, true) !== CENTRAL) throw new InvalidZip("invalid zip directory entry");
    const nameLen = dv.getUint16(at + 28, true);
    const extraLen = dv.getUint16(at + 30, true);
    const commentLen = dv.getUint16(at + 32, true);
    if (at + 46 + nameLen + extraLen + commentLen > dir.length) throw new InvalidZip("invalid zip directory entry");
    const entry: ZipEntry = {
      name: names.decode(dir.subarray(at + 46, at + 46 + nameLen)),
      method: dv.getUint16(at + 10, true),
      compressedSize: dv.getUint32(at + 20, true),
      size: dv.getUint32(at + 24, true),
      localHeaderOffset: dv.getUint32(at + 42, true),
    };
    // zip64's extra field holds, in this order, the values the fixed fields mark with all ones.
    let x = at + 46 + nameLen;
    const xEnd = x + extraLen;
    while (x + 4 <= xEnd) {
      const id = dv.getUint16(x, true);
      const len = dv.getUint16(x + 2, true);
      if (id === 0x0001) {
        let p = x + 4;
        const take = () => {
          if (p + 8 > x + 4 + len) throw new InvalidZip("invalid zip64 extra field");
          const v = u64(dv, p);
          p += 8;
          return v;
        };
        if (entry.size === 0xffffffff) entry.size = take();
        if (entry.compressedSize === 0xffffffff) entry.compressedSize = take();
        if (entry.localHeaderOffset === 0xffffffff) entry.localHeaderOffset = take();
      }
      x += 4 + len;
    }
    entries.push(entry);
    at += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** Where the entry's compressed bytes start (after its local header) and end. */
export async function zipEntryData(r: RandomAccess, entry: ZipEntry): Promise<{ start: number; end: number }> {
  const local = view(await readExact(r, entry.localHeaderOffset, 30));
  if (local.getUint32(0, true) !== LOCAL) throw new InvalidZip("invalid zip local header");
  const start = entry.localHeaderOffset + 30 + local.getUint16(26, true) + local.getUint16(28, true);
  const end = start + entry.compressedSize;
  if (end > r.size) throw new InvalidZip("zip entry points past the end of the file");
  return { start, end };
}
