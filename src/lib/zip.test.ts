import { describe, expect, test } from "bun:test";
import { inflateRawSync } from "node:zlib";
import { InvalidZip, zipEntries, zipEntryData, type RandomAccess } from "./zip.ts";
import { zipOf } from "../../test/packages/conda-archives.ts";

function access(bytes: Uint8Array): RandomAccess {
  return { size: bytes.length, read: async (o, l) => bytes.slice(o, o + l) };
}

describe("zip directory reading", () => {
  const enc = (s: string) => new TextEncoder().encode(s);

  test("entries of stored and deflated archives, and each entry's bytes", async () => {
    for (const method of [0, 8] as const) {
      const bytes = zipOf([["a.txt", enc("hello")], ["dir/b.bin", enc("x".repeat(5000))]], method);
      const entries = await zipEntries(access(bytes));
      expect(entries.map((e) => [e.name, e.method, e.size])).toEqual([
        ["a.txt", method, 5],
        ["dir/b.bin", method, 5000],
      ]);
      const { start, end } = await zipEntryData(access(bytes), entries[1]!);
      const data = bytes.subarray(start, end);
      expect(new TextDecoder().decode(method === 8 ? inflateRawSync(data) : data)).toBe("x".repeat(5000));
    }
  });

  test("an archive comment after the end record is passed over", async () => {
    const bytes = zipOf([["a", enc("1")]], 0);
    const withComment = new Uint8Array([...bytes, ...enc("a comment")]);
    new DataView(withComment.buffer).setUint16(bytes.length - 2, 9, true);
    expect((await zipEntries(access(withComment))).map((e) => e.name)).toEqual(["a"]);
  });

  test("what is not a zip, or points past its end, is InvalidZip", async () => {
    await expect(zipEntries(access(enc("not a zip")))).rejects.toBeInstanceOf(InvalidZip);
    await expect(zipEntries(access(new Uint8Array(0)))).rejects.toBeInstanceOf(InvalidZip);
    const bytes = zipOf([["a", enc("1")]], 0);
    const bad = bytes.slice();
    new DataView(bad.buffer).setUint32(bad.length - 6, 1 << 30, true); // directory offset
    await expect(zipEntries(access(bad))).rejects.toBeInstanceOf(InvalidZip);
  });
});
