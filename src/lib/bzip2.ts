/**
 * A streaming bzip2 decompressor (the format of bzip2 1.0: Huffman-coded MTF/RLE2 symbols over
 * a Burrows-Wheeler transform, then RLE1), block by block: memory stays within one block's
 * input and output (at most a few MB) whatever the size of the stream. Block and stream CRCs
 * are checked; concatenated streams are read one after another, as bzip2 itself reads them.
 */
import { BZIP2_CRC_TABLE } from "./bzip2-crc.ts";

export class InvalidBzip2 extends Error {}

const BLOCK_MAGIC_HI = 0x314159;
const BLOCK_MAGIC_LO = 0x265359;
const END_MAGIC_HI = 0x177245;
const END_MAGIC_LO = 0x385090;
/** More input than any block's compressed form can take (900k symbols of at most 20 bits, plus tables). */
const BLOCK_INPUT_BOUND = 3 << 20;
const MAX_GROUPS = 6;
const MAX_ALPHA = 258;
const MAX_CODE_LEN = 20;
const GROUP_SIZE = 50;

const CRC_TABLE = BZIP2_CRC_TABLE;

/** Bits, most significant first, from bytes that arrive in chunks. */
class BitReader {
  private buf = new Uint8Array(0);
  private pos = 0; // bit position in buf
  private ended = false;
  constructor(private readonly it: AsyncIterator<Uint8Array>) {}

  /** Buffers input until `bytes` bytes are ahead of the read position or the input ends. */
  async fill(bytes: number): Promise<void> {
    const start = this.pos >>> 3;
    if (start > 0) {
      this.buf = this.buf.subarray(start);
      this.pos &= 7;
    }
    const parts: Uint8Array[] = [this.buf];
    let have = this.buf.length;
    while (have < bytes && !this.ended) {
      const next = await this.it.next();
      if (next.done) this.ended = true;
      else {
        parts.push(next.value);
        have += next.value.length;
      }
    }
    if (parts.length > 1) this.buf = Buffer.concat(parts);
  }

  /** No more bits: the input ended and all of it was read (to the last whole byte). */
  atEnd(): boolean {
    return this.ended && (this.pos + 7) >>> 3 >= this.buf.length;
  }

  bit(): number {
    const byte = this.pos >>> 3;
    if (byte >= this.buf.length) throw new InvalidBzip2("unexpected end of bzip2 data");
    const b = (this.buf[byte]! >>> (7 - (this.pos & 7))) & 1;
    this.pos++;
    return b;
  }

  bits(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 2 + this.bit();
    return v;
  }

  alignToByte(): void {
    this.pos = (this.pos + 7) & ~7;
  }
}

/** A canonical Huffman table from code lengths (bzip2's hbCreateDecodeTables, by length then symbol). */
interface Huffman {
  minLen: number;
  maxLen: number;
  limit: Int32Array;
  firstCode: Int32Array;
  firstIndex: Int32Array;
  perm: Uint16Array;
}

function huffman(lengths: Uint8Array, alphaSize: number): Huffman {
  let minLen = 32;
  let maxLen = 0;
  for (let i = 0; i < alphaSize; i++) {
    minLen = Math.min(minLen, lengths[i]!);
    maxLen = Math.max(maxLen, lengths[i]!);
  }
  const perm = new Uint16Array(alphaSize);
  let p = 0;
  for (let len = minLen; len <= maxLen; len++) for (let s = 0; s < alphaSize; s++) if (lengths[s] === len) perm[p++] = s;
  const limit = new Int32Array(MAX_CODE_LEN + 2).fill(-1);
  const firstCode = new Int32Array(MAX_CODE_LEN + 2);
  const firstIndex = new Int32Array(MAX_CODE_LEN + 2);
  let code = 0;
  let index = 0;
  for (let len = minLen; len <= maxLen; len++) {
    let count = 0;
    for (let s = 0; s < alphaSize; s++) if (lengths[s] === len) count++;
    firstCode[len] = code;
    firstIndex[len] = index;
    code += count;
    index += count;
    limit[len] = code - 1;
    code <<= 1;
  }
  return { minLen, maxLen, limit, firstCode, firstIndex, perm };
}

function decodeSymbol(r: BitReader, h: Huffman): number {
  let len = h.minLen;
  let v = r.bits(len);
  while (v > h.limit[len]!) {
    if (++len > h.maxLen) throw new InvalidBzip2("invalid bzip2 Huffman code");
    v = v * 2 + r.bit();
  }
  const i = h.firstIndex[len]! + v - h.firstCode[len]!;
  if (i < 0 || i >= h.perm.length) throw new InvalidBzip2("invalid bzip2 Huffman code");
  return h.perm[i]!;
}

/** One block's bytes after the inverse BWT and RLE1, and the CRC it must have. */
function decodeBlock(r: BitReader, maxBlock: number): { data: Uint8Array; crc: number } {
  const crc = r.bits(32) >>> 0;
  if (r.bit()) throw new InvalidBzip2("randomised bzip2 blocks are not supported");
  const origPtr = r.bits(24);

  // The symbols in use.
  const seqToUnseq = new Uint8Array(256);
  let inUse = 0;
  const used16 = r.bits(16);
  for (let i = 0; i < 16; i++) {
    if (used16 & (0x8000 >>> i)) {
      const bits = r.bits(16);
      for (let j = 0; j < 16; j++) if (bits & (0x8000 >>> j)) seqToUnseq[inUse++] = i * 16 + j;
    }
  }
  if (inUse === 0) throw new InvalidBzip2("bzip2 block uses no symbols");
  const alphaSize = inUse + 2;

  // The coding tables and which one each group of 50 symbols uses.
  const nGroups = r.bits(3);
  const nSelectors = r.bits(15);
  if (nGroups < 2 || nGroups > MAX_GROUPS || nSelectors < 1) throw new InvalidBzip2("invalid bzip2 block tables");
  const groupMtf = [0, 1, 2, 3, 4, 5].slice(0, nGroups);
  const selectors = new Uint8Array(nSelectors);
  for (let i = 0; i < nSelectors; i++) {
    let j = 0;
    while (r.bit()) if (++j >= nGroups) throw new InvalidBzip2("invalid bzip2 selector");
    const g = groupMtf[j]!;
    groupMtf.splice(j, 1);
    groupMtf.unshift(g);
    selectors[i] = g;
  }
  const tables: Huffman[] = [];
  for (let g = 0; g < nGroups; g++) {
    const lengths = new Uint8Array(MAX_ALPHA);
    let len = r.bits(5);
    for (let s = 0; s < alphaSize; s++) {
      for (;;) {
        if (len < 1 || len > MAX_CODE_LEN) throw new InvalidBzip2("invalid bzip2 code length");
        if (!r.bit()) break;
        len += r.bit() ? -1 : 1;
      }
      lengths[s] = len;
    }
    tables.push(huffman(lengths, alphaSize));
  }

  // MTF/RLE2 symbols into the BWT block.
  const eob = inUse + 1;
  const mtf = new Uint8Array(256);
  for (let i = 0; i < 256; i++) mtf[i] = i;
  const counts = new Int32Array(256);
  const tt = new Uint32Array(maxBlock);
  let n = 0;
  let group = -1;
  let left = 0;
  let run = 0;
  let runBit = 1;
  const flushRun = () => {
    if (!run) return;
    const b = seqToUnseq[mtf[0]!]!;
    if (n + run > maxBlock) throw new InvalidBzip2("bzip2 block too large");
    counts[b]! += run;
    tt.fill(b, n, n + run);
    n += run;
    run = 0;
    runBit = 1;
  };
  for (;;) {
    if (left === 0) {
      if (++group >= nSelectors) throw new InvalidBzip2("bzip2 block has too few selectors");
      left = GROUP_SIZE;
    }
    left--;
    const sym = decodeSymbol(r, tables[selectors[group]!]!);
    if (sym <= 1) {
      run += runBit << sym; // RUNA adds 1·2^k, RUNB 2·2^k
      runBit <<= 1;
      if (run > maxBlock) throw new InvalidBzip2("bzip2 run too long");
      continue;
    }
    flushRun();
    if (sym === eob) break;
    const k = sym - 1;
    const v = mtf[k]!;
    mtf.copyWithin(1, 0, k);
    mtf[0] = v;
    const b = seqToUnseq[v]!;
    if (n >= maxBlock) throw new InvalidBzip2("bzip2 block too large");
    counts[b]!++;
    tt[n++] = b;
  }
  if (origPtr >= n) throw new InvalidBzip2("invalid bzip2 origin pointer");

  // The inverse BWT, as bzip2 does it: each entry's low byte is its symbol, its high bits the link.
  const cftab = new Int32Array(256);
  for (let i = 0, sum = 0; i < 256; i++) {
    cftab[i] = sum;
    sum += counts[i]!;
  }
  for (let i = 0; i < n; i++) {
    const b = tt[i]! & 0xff;
    tt[cftab[b]!]! |= i << 8;
    cftab[b]!++;
  }

  // RLE1: four equal bytes are followed by a count of further copies.
  let chunk = new Uint8Array(Math.min(n * 2, 1 << 20) + 256);
  let o = 0;
  const push = (b: number) => {
    if (o === chunk.length) {
      const grown = new Uint8Array(chunk.length * 2);
      grown.set(chunk);
      chunk = grown;
    }
    chunk[o++] = b;
  };
  let pos = tt[origPtr]! >>> 8;
  let last = -1;
  let same = 0;
  for (let i = 0; i < n; i++) {
    const e = tt[pos]!;
    const b = e & 0xff;
    pos = e >>> 8;
    if (same === 4) {
      for (let k = 0; k < b; k++) push(last);
      same = 0;
      continue;
    }
    push(b);
    if (b === last) same++;
    else {
      last = b;
      same = 1;
    }
  }
  return { data: chunk.subarray(0, o), crc };
}

function blockCrc(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = ((c << 8) ^ CRC_TABLE[((c >>> 24) ^ data[i]!) & 0xff]!) >>> 0;
  return ~c >>> 0;
}

/**
 * The decompressed bytes of the bzip2 data `source`, one block at a time. Malformed input, a
 * CRC mismatch or a truncated stream throw InvalidBzip2.
 */
export async function* bunzip2(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const it = source[Symbol.asyncIterator]();
  const r = new BitReader(it);
  try {
    let first = true;
    for (;;) {
      await r.fill(4);
      if (!first && r.atEnd()) return;
      if (r.bits(8) !== 0x42 || r.bits(8) !== 0x5a || r.bits(8) !== 0x68) throw new InvalidBzip2("not bzip2 data");
      const level = r.bits(8) - 0x30;
      if (level < 1 || level > 9) throw new InvalidBzip2("invalid bzip2 block size");
      first = false;
      let combined = 0;
      for (;;) {
        await r.fill(BLOCK_INPUT_BOUND);
        const hi = r.bits(24);
        const lo = r.bits(24);
        if (hi === END_MAGIC_HI && lo === END_MAGIC_LO) {
          if (r.bits(32) >>> 0 !== combined) throw new InvalidBzip2("bzip2 stream CRC mismatch");
          r.alignToByte();
          break;
        }
        if (hi !== BLOCK_MAGIC_HI || lo !== BLOCK_MAGIC_LO) throw new InvalidBzip2("invalid bzip2 block header");
        const block = decodeBlock(r, level * 100000);
        if (blockCrc(block.data) !== block.crc) throw new InvalidBzip2("bzip2 block CRC mismatch");
        combined = (((combined << 1) | (combined >>> 31)) ^ block.crc) >>> 0;
        if (block.data.length) yield block.data;
      }
    }
  } finally {
    await it.return?.();
  }
}
