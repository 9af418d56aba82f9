/**
 * Writes a zip archive as a stream, entry after entry, without holding an entry or the archive in
 * memory: each entry is stored (no compression: artifacts are mostly compressed already, and
 * storing keeps the writer small), its CRC-32 computed while its bytes pass. An entry whose size
 * and CRC are not given up front is followed by a data descriptor (flag bit 3), as streaming zip
 * writers do; the central directory at the end repeats everything, which is what unzip tools read.
 *
 * No zip64: an archive, entry or offset reaching 4 GiB, or more than 65,535 entries, is refused
 * (`ZipLimitExceeded`); `zipArchiveSize` tells beforehand whether entries of known sizes fit.
 */

export interface ZipInput {
  /** The entry's path in the archive, `/`-separated, relative. */
  name: string;
  /** Modification time, unix seconds. */
  modified: number;
  /** The entry's bytes. */
  data: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
  /** Known before the bytes pass: the local header carries them and no data descriptor follows (the bytes must agree). */
  known?: { size: number; crc32: number };
}

export class ZipLimitExceeded extends Error {}

/** Fields of 32 bits: all ones would mean "look in the zip64 record", so the largest value is one less. */
const MAX32 = 0xfffffffe;
const MAX_ENTRIES = 0xffff;
const LOCAL = 0x04034b50;
const DESCRIPTOR = 0x08074b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
/** Names are UTF-8 (bit 11); bit 3: sizes and CRC follow the data. */
const FLAG_UTF8 = 0x0800;
const FLAG_DESCRIPTOR = 0x0008;
/** 2.0: what a data descriptor needs. Made by Unix, so external attributes carry the file mode. */
const VERSION = 20;
const MADE_BY = (3 << 8) | VERSION;
const FILE_MODE = 0o100644;
/** The extended timestamp extra field (0x5455) with the modification time only: 4 + 1 + 4 bytes. */
const EXTRA_LEN = 9;
const LOCAL_LEN = 30;
const DESCRIPTOR_LEN = 16;
const CENTRAL_LEN = 46;
const END_LEN = 22;

const encoder = new TextEncoder();

/** MS-DOS date and time (local to no zone: UTC here, the extra field has the exact time), clamped to 1980–2107. */
function dosDateTime(unix: number): { time: number; date: number } {
  const d = new Date(Math.min(Math.max(unix, 315_532_800), 4_354_819_199) * 1000);
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1),
    date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

/** A name a reader can extract safely: relative, no `..` or empty segment, no backslash or NUL. */
function checkedName(name: string): Uint8Array {
  const segments = name.split("/");
  if (!name || name.startsWith("/") || /[\\\0]/.test(name) || segments.some((s) => s === "" || s === "." || s === "..")) {
    throw new Error(`unsafe zip entry name: ${JSON.stringify(name)}`);
  }
  const bytes = encoder.encode(name);
  if (bytes.length > 0xffff) throw new Error("zip entry name too long");
  return bytes;
}

/** How many bytes an archive of these entries (by name and size) is, with or without data descriptors. */
export function zipArchiveSize(entries: readonly { name: string; size: number; known?: boolean }[]): number {
  let total = END_LEN;
  for (const e of entries) {
    const nameLen = encoder.encode(e.name).length;
    total += LOCAL_LEN + nameLen + EXTRA_LEN + e.size + (e.known ? 0 : DESCRIPTOR_LEN) + CENTRAL_LEN + nameLen + EXTRA_LEN;
  }
  return total;
}

/** Whether entries of these sizes make an archive this writer can write (under 4 GiB, at most 65,535 entries). */
export function fitsZip32(entries: readonly { name: string; size: number; known?: boolean }[]): boolean {
  if (entries.length > MAX_ENTRIES) return false;
  if (entries.some((e) => e.size > MAX32)) return false;
  return zipArchiveSize(entries) <= MAX32;
}

interface Written {
  name: Uint8Array;
  flags: number;
  time: number;
  date: number;
  modified: number;
  crc: number;
  size: number;
  offset: number;
}

function timestampExtra(v: DataView, at: number, modified: number): void {
  v.setUint16(at, 0x5455, true);
  v.setUint16(at + 2, 5, true);
  v.setUint8(at + 4, 1);
  v.setUint32(at + 5, Math.min(Math.max(Math.floor(modified), 0), 0xffffffff), true);
}

function localHeader(w: Written, known: boolean): Uint8Array {
  const b = new Uint8Array(LOCAL_LEN + w.name.length + EXTRA_LEN);
  const v = new DataView(b.buffer);
  v.setUint32(0, LOCAL, true);
  v.setUint16(4, VERSION, true);
  v.setUint16(6, w.flags, true);
  v.setUint16(8, 0, true);
  v.setUint16(10, w.time, true);
  v.setUint16(12, w.date, true);
  // With a descriptor these stay 0, as the format asks.
  v.setUint32(14, known ? w.crc : 0, true);
  v.setUint32(18, known ? w.size : 0, true);
  v.setUint32(22, known ? w.size : 0, true);
  v.setUint16(26, w.name.length, true);
  v.setUint16(28, EXTRA_LEN, true);
  b.set(w.name, LOCAL_LEN);
  timestampExtra(v, LOCAL_LEN + w.name.length, w.modified);
  return b;
}

function descriptor(w: Written): Uint8Array {
  const b = new Uint8Array(DESCRIPTOR_LEN);
  const v = new DataView(b.buffer);
  v.setUint32(0, DESCRIPTOR, true);
  v.setUint32(4, w.crc, true);
  v.setUint32(8, w.size, true);
  v.setUint32(12, w.size, true);
  return b;
}

function centralHeader(w: Written): Uint8Array {
  const b = new Uint8Array(CENTRAL_LEN + w.name.length + EXTRA_LEN);
  const v = new DataView(b.buffer);
  v.setUint32(0, CENTRAL, true);
  v.setUint16(4, MADE_BY, true);
  v.setUint16(6, VERSION, true);
  v.setUint16(8, w.flags, true);
  v.setUint16(10, 0, true);
  v.setUint16(12, w.time, true);
  v.setUint16(14, w.date, true);
  v.setUint32(16, w.crc, true);
  v.setUint32(20, w.size, true);
  v.setUint32(24, w.size, true);
  v.setUint16(28, w.name.length, true);
  v.setUint16(30, EXTRA_LEN, true);
  // comment length, disk number, internal attributes: 0
  v.setUint32(38, (FILE_MODE << 16) >>> 0, true);
  v.setUint32(42, w.offset, true);
  b.set(w.name, CENTRAL_LEN);
  timestampExtra(v, CENTRAL_LEN + w.name.length, w.modified);
  return b;
}

function endRecord(count: number, dirSize: number, dirOffset: number): Uint8Array {
  const b = new Uint8Array(END_LEN);
  const v = new DataView(b.buffer);
  v.setUint32(0, END, true);
  v.setUint16(8, count, true);
  v.setUint16(10, count, true);
  v.setUint32(12, dirSize, true);
  v.setUint32(16, dirOffset, true);
  return b;
}

/**
 * The archive's bytes, entry by entry as `entries` yields them (each entry's data is read once,
 * when its turn comes). Throws `ZipLimitExceeded` as soon as the archive would need zip64, and an
 * Error when an entry's bytes disagree with its `known` size or CRC.
 */
export async function* zipStream(entries: AsyncIterable<ZipInput> | Iterable<ZipInput>): AsyncGenerator<Uint8Array> {
  const written: Written[] = [];
  let offset = 0;
  for await (const entry of entries) {
    if (written.length >= MAX_ENTRIES) throw new ZipLimitExceeded("too many entries for a zip without zip64");
    const known = entry.known !== undefined;
    const { time, date } = dosDateTime(entry.modified);
    const w: Written = {
      name: checkedName(entry.name),
      flags: FLAG_UTF8 | (known ? 0 : FLAG_DESCRIPTOR),
      time,
      date,
      modified: entry.modified,
      crc: entry.known ? entry.known.crc32 >>> 0 : 0,
      size: entry.known?.size ?? 0,
      offset,
    };
    if (offset > MAX32 || w.size > MAX32) throw new ZipLimitExceeded("a zip over 4 GiB needs zip64");
    const head = localHeader(w, known);
    yield head;
    offset += head.length;
    let crc = 0;
    let size = 0;
    for await (const chunk of entry.data) {
      if (chunk.byteLength === 0) continue;
      size += chunk.byteLength;
      if (size > MAX32 || offset + chunk.byteLength > MAX32) throw new ZipLimitExceeded("a zip over 4 GiB needs zip64");
      crc = Bun.hash.crc32(chunk, crc);
      offset += chunk.byteLength;
      yield chunk;
    }
    crc >>>= 0;
    if (known) {
      if (size !== w.size || crc !== w.crc) throw new Error(`zip entry ${entry.name}: its bytes differ from the size and CRC announced`);
    } else {
      w.crc = crc;
      w.size = size;
      const tail = descriptor(w);
      yield tail;
      offset += tail.length;
    }
    written.push(w);
  }
  const dirOffset = offset;
  for (const w of written) {
    const c = centralHeader(w);
    offset += c.length;
    if (offset > MAX32) throw new ZipLimitExceeded("a zip over 4 GiB needs zip64");
    yield c;
  }
  yield endRecord(written.length, offset - dirOffset, dirOffset);
}
