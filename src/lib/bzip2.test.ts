import { describe, expect, test } from "bun:test";
import { bunzip2, InvalidBzip2 } from "./bzip2.ts";
import { bzip2Of } from "../../test/packages/conda-archives.ts";

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function decompress(bytes: Uint8Array, size = 4096): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const c of bunzip2(chunked(bytes, size))) parts.push(c);
  return Buffer.concat(parts);
}

const HELLO = Buffer.from(
  "425a6839314159265359139f005200000a5100001040002244a000310c0089012b9235a90335384f177245385090139f0052",
  "hex",
);

describe("bunzip2", () => {
  test("a stream made by bzip2 1.0.8 (runs of RLE1 and RLE2 included)", async () => {
    for (const size of [1, 3, 4096]) {
      expect((await decompress(HELLO, size)).toString()).toBe(`hello hello hello hello hello ${"a".repeat(36)}\n`);
    }
  });

  test("many blocks, every byte value, long runs, and concatenated streams", async () => {
    const random = crypto.getRandomValues(new Uint8Array(60000));
    const text = Buffer.from(Array.from({ length: 40000 }, (_, i) => `${i} ${"z".repeat(i % 300)}\n`).join(""));
    const input = Buffer.concat([random, text, Buffer.alloc(300000, 7), random]);
    const bz = bzip2Of(input);
    expect((await decompress(bz)).equals(input)).toBe(true);
    const two = Buffer.concat([bz, bzip2Of(Buffer.from("tail"))]);
    expect((await decompress(two)).equals(Buffer.concat([input, Buffer.from("tail")]))).toBe(true);
    expect((await decompress(bzip2Of(new Uint8Array(0)))).length).toBe(0);
  });

  test("not bzip2, a changed byte or a truncated stream is InvalidBzip2", async () => {
    await expect(decompress(Buffer.from("plain text"))).rejects.toBeInstanceOf(InvalidBzip2);
    await expect(decompress(new Uint8Array(0))).rejects.toBeInstanceOf(InvalidBzip2);
    const changed = Buffer.from(HELLO);
    changed[30]! ^= 0x10;
    await expect(decompress(changed)).rejects.toBeInstanceOf(InvalidBzip2);
    await expect(decompress(HELLO.subarray(0, HELLO.length - 6))).rejects.toBeInstanceOf(InvalidBzip2);
  });
});
