/**
 * A bzip2 compressor for generated documents (conda's repodata.json.bz2): RLE1, the
 * Burrows-Wheeler transform by prefix doubling over cyclic rotations, MTF/RLE2, and one
 * length-limited Huffman table per block. Not tuned for ratio or speed like bzip2 itself; its
 * output is a standard stream any bzip2 reader takes.
 */
import { BZIP2_CRC_TABLE } from "./bzip2-crc.ts";

const BLOCK_SIZE = 900000 - 20; // bzip2's -9 block, less its own safety margin
const MAX_CODE_LEN = 17;

const CRC_TABLE = BZIP2_CRC_TABLE;

class BitWriter {
  private out: Uint8Array[] = [];
  private buf = new Uint8Array(1 << 16);
  private at = 0;
  private acc = 0;
  private n = 0;

  bits(count: number, value: number): void {
    for (let i = count - 1; i >= 0; i--) {
      this.acc = (this.acc << 1) | (Math.floor(value / 2 ** i) & 1);
      if (++this.n === 8) {
        if (this.at === this.buf.length) {
          this.out.push(this.buf);
          this.buf = new Uint8Array(1 << 16);
          this.at = 0;
        }
        this.buf[this.at++] = this.acc;
        this.acc = 0;
        this.n = 0;
      }
    }
  }

  finish(): Uint8Array {
    if (this.n) this.bits(8 - this.n, 0);
    return Buffer.concat([...this.out, this.buf.subarray(0, this.at)]);
  }
}

/** RLE1 of as much of `data` from `start` as fits in one block; returns the block and where it stopped. */
function rle1(data: Uint8Array, start: number): { block: Uint8Array; next: number; crc: number } {
  const block = new Uint8Array(BLOCK_SIZE);
  let n = 0;
  let i = start;
  let crc = 0xffffffff;
  while (i < data.length && n + 5 <= BLOCK_SIZE) {
    const b = data[i]!;
    let run = 1;
    while (run < 255 && i + run < data.length && data[i + run] === b) run++;
    for (let k = 0; k < run; k++) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ b) & 0xff]!) >>> 0;
    if (run < 4) for (let k = 0; k < run; k++) block[n++] = b;
    else {
      block[n++] = b;
      block[n++] = b;
      block[n++] = b;
      block[n++] = b;
      block[n++] = run - 4;
    }
    i += run;
  }
  return { block: block.subarray(0, n), next: i, crc: ~crc >>> 0 };
}

/** The rotations of `s` in sorted order (prefix doubling with counting sorts). */
function sortRotations(s: Uint8Array): Int32Array {
  const n = s.length;
  let sa = new Int32Array(n);
  let rank = new Int32Array(n);
  const tmp = new Int32Array(n);
  const count = new Int32Array(Math.max(256, n) + 1);
  for (let i = 0; i < n; i++) count[s[i]!]!++;
  for (let i = 1; i < 256; i++) count[i]! += count[i - 1]!;
  for (let i = n - 1; i >= 0; i--) sa[--count[s[i]!]!] = i;
  rank[sa[0]!] = 0;
  let classes = 1;
  for (let i = 1; i < n; i++) {
    if (s[sa[i]!] !== s[sa[i - 1]!]) classes++;
    rank[sa[i]!] = classes - 1;
  }
  for (let k = 1; k < n && classes < n; k <<= 1) {
    // Sorted by the second half: shift the current order back by k, then a stable sort by rank.
    const second = new Int32Array(n);
    for (let i = 0; i < n; i++) second[i] = (sa[i]! - k + n * 2) % n;
    count.fill(0, 0, classes + 1);
    for (let i = 0; i < n; i++) count[rank[second[i]!]!]!++;
    for (let i = 1; i < classes; i++) count[i]! += count[i - 1]!;
    const next = new Int32Array(n);
    for (let i = n - 1; i >= 0; i--) next[--count[rank[second[i]!]!]!] = second[i]!;
    sa = next;
    tmp[sa[0]!] = 0;
    classes = 1;
    for (let i = 1; i < n; i++) {
      const a = sa[i]!;
      const b = sa[i - 1]!;
      if (rank[a] !== rank[b] || rank[(a + k) % n] !== rank[(b + k) % n]) classes++;
      tmp[a] = classes - 1;
    }
    rank = Int32Array.from(tmp);
  }
  return sa;
}

/** Huffman code lengths of at most MAX_CODE_LEN bits (bzip2's way: flatten the counts until they fit). */
function codeLengths(freq: Int32Array, alphaSize: number): Uint8Array {
  const lengths = new Uint8Array(alphaSize);
  const weights = Array.from({ length: alphaSize }, (_, i) => Math.max(1, freq[i]!));
  for (;;) {
    // Plain Huffman over a sorted queue.
    type Node = { w: number; syms: number[] };
    let nodes: Node[] = weights.map((w, i) => ({ w, syms: [i] }));
    lengths.fill(0);
    while (nodes.length > 1) {
      nodes.sort((a, b) => a.w - b.w);
      const [a, b] = [nodes[0]!, nodes[1]!];
      for (const s of a.syms) lengths[s]!++;
      for (const s of b.syms) lengths[s]!++;
      nodes = [{ w: a.w + b.w, syms: [...a.syms, ...b.syms] }, ...nodes.slice(2)];
    }
    if (lengths.every((l) => l <= MAX_CODE_LEN)) return lengths;
    for (let i = 0; i < alphaSize; i++) weights[i] = 1 + Math.floor(weights[i]! / 2);
  }
}

function writeBlock(w: BitWriter, block: Uint8Array, crc: number): void {
  const n = block.length;
  const sa = sortRotations(block);
  let origPtr = 0;
  const last = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const r = sa[i]!;
    if (r === 0) origPtr = i;
    last[i] = block[(r + n - 1) % n]!;
  }
  // The symbols in use, and MTF/RLE2 over them.
  const inUse = new Array<boolean>(256).fill(false);
  for (let i = 0; i < n; i++) inUse[last[i]!] = true;
  const unseqToSeq = new Int32Array(256);
  let nInUse = 0;
  for (let i = 0; i < 256; i++) if (inUse[i]) unseqToSeq[i] = nInUse++;
  const eob = nInUse + 1;
  const alphaSize = nInUse + 2;
  const mtf = Array.from({ length: nInUse }, (_, i) => i);
  const syms: number[] = [];
  let zeros = 0;
  const flushZeros = () => {
    // bijective base 2: RUNA = 1, RUNB = 2
    while (zeros > 0) {
      if (zeros & 1) {
        syms.push(0);
        zeros = (zeros - 1) >> 1;
      } else {
        syms.push(1);
        zeros = (zeros - 2) >> 1;
      }
    }
  };
  for (let i = 0; i < n; i++) {
    const v = unseqToSeq[last[i]!]!;
    const k = mtf.indexOf(v);
    if (k === 0) {
      zeros++;
      continue;
    }
    flushZeros();
    mtf.splice(k, 1);
    mtf.unshift(v);
    syms.push(k + 1);
  }
  flushZeros();
  syms.push(eob);
  const freq = new Int32Array(alphaSize);
  for (const s of syms) freq[s]!++;
  const lengths = codeLengths(freq, alphaSize);
  // Canonical codes, as the reader builds them.
  const codes = new Int32Array(alphaSize);
  let code = 0;
  for (let len = 1; len <= MAX_CODE_LEN; len++) {
    for (let s = 0; s < alphaSize; s++) if (lengths[s] === len) codes[s] = code++;
    code <<= 1;
  }

  w.bits(24, 0x314159);
  w.bits(24, 0x265359);
  w.bits(32, crc);
  w.bits(1, 0);
  w.bits(24, origPtr);
  let used16 = 0;
  for (let i = 0; i < 16; i++) if (inUse.slice(i * 16, i * 16 + 16).some(Boolean)) used16 |= 0x8000 >>> i;
  w.bits(16, used16);
  for (let i = 0; i < 16; i++) {
    if (!(used16 & (0x8000 >>> i))) continue;
    let bits = 0;
    for (let j = 0; j < 16; j++) if (inUse[i * 16 + j]) bits |= 0x8000 >>> j;
    w.bits(16, bits);
  }
  // Two identical tables (the format's least), every group of 50 symbols on the first.
  const nSelectors = Math.ceil(syms.length / 50);
  w.bits(3, 2);
  w.bits(15, nSelectors);
  for (let i = 0; i < nSelectors; i++) w.bits(1, 0);
  for (let t = 0; t < 2; t++) {
    let cur = lengths[0]!;
    w.bits(5, cur);
    for (let s = 0; s < alphaSize; s++) {
      while (cur < lengths[s]!) {
        w.bits(2, 2);
        cur++;
      }
      while (cur > lengths[s]!) {
        w.bits(2, 3);
        cur--;
      }
      w.bits(1, 0);
    }
  }
  for (const s of syms) w.bits(lengths[s]!, codes[s]!);
}

/** `data` as a bzip2 stream (block size 9). */
export function bzip2Compress(data: Uint8Array): Uint8Array {
  const w = new BitWriter();
  w.bits(32, 0x425a6839); // "BZh9"
  let combined = 0;
  for (let at = 0; at < data.length; ) {
    const { block, next, crc } = rle1(data, at);
    writeBlock(w, block, crc);
    combined = (((combined << 1) | (combined >>> 31)) ^ crc) >>> 0;
    at = next;
  }
  w.bits(24, 0x177245);
  w.bits(24, 0x385090);
  w.bits(32, combined);
  return w.finish();
}
