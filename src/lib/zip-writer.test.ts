import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fitsZip32, zipArchiveSize, zipStream, ZipLimitExceeded, type ZipInput } from "./zip-writer.ts";
import { zipEntries, zipEntryData, type RandomAccess } from "./zip.ts";

async function collect(gen: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const p of gen) parts.push(p);
  return Buffer.concat(parts);
}

const access = (b: Uint8Array): RandomAccess => ({ size: b.length, read: async (o, n) => b.subarray(o, o + n) });

/** Yields `bytes` in pieces of `n`, as a file stream would. */
function* pieces(bytes: Uint8Array, n: number): Iterable<Uint8Array> {
  for (let i = 0; i < bytes.length; i += n) yield bytes.subarray(i, i + n);
}

const text = new TextEncoder();
const big = new Uint8Array(200_003).map((_, i) => (i * 31 + 7) & 0xff);
const inputs = (): ZipInput[] => [
  { name: "hello.txt", modified: 1_700_000_000, data: [text.encode("hello, zip\n")] },
  { name: "dir/big.bin", modified: 1_700_000_100, data: pieces(big, 4096) },
  { name: "dir/empty", modified: 0, data: [] },
  { name: "ünïcode/名前.txt", modified: 1_700_000_200, data: [text.encode("utf-8 names")] },
  { name: "known.txt", modified: 1_700_000_300, data: [text.encode("sized")], known: { size: 5, crc32: Bun.hash.crc32(text.encode("sized")) } },
];

describe("zipStream", () => {
  test("reads back with the zip reader: names, stored sizes, bytes and CRC", async () => {
    const zip = await collect(zipStream(inputs()));
    const entries = await zipEntries(access(zip));
    expect(entries.map((e) => [e.name, e.method, e.size, e.compressedSize])).toEqual([
      ["hello.txt", 0, 11, 11],
      ["dir/big.bin", 0, big.length, big.length],
      ["dir/empty", 0, 0, 0],
      ["ünïcode/名前.txt", 0, 11, 11],
      ["known.txt", 0, 5, 5],
    ]);
    const big2 = entries[1]!;
    const { start, end } = await zipEntryData(access(zip), big2);
    expect(Buffer.from(zip.subarray(start, end)).equals(Buffer.from(big))).toBe(true);
    // The central directory's CRC of each entry is the CRC of its bytes.
    const view = new DataView(zip.buffer, zip.byteOffset);
    const crcOfCentral = (name: string) => {
      // The end record (the last 22 bytes) says where the directory starts.
      let p = view.getUint32(zip.length - 22 + 16, true);
      for (;;) {
        const nameLen = view.getUint16(p + 28, true);
        if (Buffer.from(zip.subarray(p + 46, p + 46 + nameLen)).toString() === name) return view.getUint32(p + 16, true);
        p += 46 + nameLen + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
      }
    };
    expect(crcOfCentral("dir/big.bin")).toBe(Bun.hash.crc32(big) >>> 0);
    expect(crcOfCentral("hello.txt")).toBe(Bun.hash.crc32(text.encode("hello, zip\n")) >>> 0);
  });

  test("its length is what zipArchiveSize says", async () => {
    const zip = await collect(zipStream(inputs()));
    const sizes = [11, big.length, 0, 11, 5];
    expect(zip.length).toBe(zipArchiveSize(inputs().map((e, i) => ({ name: e.name, size: sizes[i]!, known: e.known !== undefined }))));
  });

  test("an empty archive is the end record alone", async () => {
    const zip = await collect(zipStream([]));
    expect(zip.length).toBe(22);
    expect(await zipEntries(access(zip))).toEqual([]);
  });

  test("the system unzip tests it clean and extracts the same bytes", async () => {
    const unzip = Bun.which("unzip");
    if (!unzip) return;
    const dir = mkdtempSync(join(tmpdir(), "hearth-zipw-"));
    writeFileSync(join(dir, "a.zip"), await collect(zipStream(inputs())));
    const check = Bun.spawnSync([unzip, "-t", join(dir, "a.zip")]);
    expect(check.stdout.toString()).toContain("No errors detected");
    expect(check.exitCode).toBe(0);
    const out = Bun.spawnSync([unzip, "-p", join(dir, "a.zip"), "dir/big.bin"]);
    expect(Buffer.from(out.stdout).equals(Buffer.from(big))).toBe(true);
    const listing = Bun.spawnSync([unzip, "-Z1", join(dir, "a.zip")]).stdout.toString();
    expect(listing).toContain("ünïcode/名前.txt");
  });

  test("an entry whose bytes disagree with its announced size or CRC fails the archive", async () => {
    const lying: ZipInput = { name: "x", modified: 0, data: [text.encode("abc")], known: { size: 3, crc32: 1 } };
    await expect(collect(zipStream([lying]))).rejects.toThrow(/differ/);
  });

  test("unsafe names are refused", async () => {
    for (const name of ["", "/etc/passwd", "../up", "a/../b", "a//b", "a\\b", "nul\0"]) {
      await expect(collect(zipStream([{ name, modified: 0, data: [] }]))).rejects.toThrow(/name/);
    }
  });

  test("more than 65,535 entries need zip64 and are refused", async () => {
    function* many(): Iterable<ZipInput> {
      for (let i = 0; i < 65_536; i++) yield { name: `f${i}`, modified: 0, data: [] };
    }
    await expect(collect(zipStream(many()))).rejects.toBeInstanceOf(ZipLimitExceeded);
  });

  test("an entry reaching 4 GiB is refused as soon as it does, without holding it", async () => {
    const chunk = new Uint8Array(64 << 20);
    let sent = 0;
    async function* huge(): AsyncIterable<Uint8Array> {
      for (let i = 0; i < 65; i++) {
        sent++;
        yield chunk;
      }
    }
    const gen = zipStream([{ name: "huge", modified: 0, data: huge() }]);
    let err: unknown;
    try {
      for await (const _ of gen) {
        // discard
      }
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ZipLimitExceeded);
    expect(sent).toBe(64);
  });

  test("fitsZip32 tells beforehand", () => {
    expect(fitsZip32([{ name: "a", size: 1000 }])).toBe(true);
    expect(fitsZip32([{ name: "a", size: 0xffffffff }])).toBe(false);
    expect(fitsZip32([{ name: "a", size: 2 ** 31 }, { name: "b", size: 2 ** 31 }])).toBe(false);
    expect(fitsZip32(Array.from({ length: 65_536 }, (_, i) => ({ name: `f${i}`, size: 0 })))).toBe(false);
  });
});
