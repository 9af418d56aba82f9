import { describe, expect, test } from "bun:test";
import { InvalidTar, scanTar, type TarEntry } from "./tar.ts";
import { tarOf } from "../../test/packages/conda-archives.ts";

/** The bytes as a stream of `size`-byte chunks. */
async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function all(bytes: Uint8Array, chunk = 7): Promise<[TarEntry, string][]> {
  const out: [TarEntry, string][] = [];
  await scanTar(chunked(bytes, chunk), async (e, body) => {
    out.push([e, new TextDecoder().decode(await body())]);
  });
  return out;
}

describe("scanTar", () => {
  const long = `info/${"d".repeat(120)}/index.json`;
  const archive = tarOf([
    ["info/", "", "5"],
    ["info/index.json", '{"name":"x"}'],
    ["empty", ""],
    [long, "x".repeat(1000)],
  ]);

  test("entries, types and bodies in any chunking, GNU long names", async () => {
    for (const size of [1, 7, 512, 100000]) {
      const got = await all(archive, size);
      expect(got.map(([e, body]) => [e.name, e.type, e.size, body.length])).toEqual([
        ["info/", "directory", 0, 0],
        ["info/index.json", "file", 12, 12],
        ["empty", "file", 0, 0],
        [long, "file", 1000, 1000],
      ]);
    }
  });

  test("unread bodies are skipped; returning true stops reading the stream", async () => {
    const names: string[] = [];
    let pulled = 0;
    async function* counting() {
      for await (const c of chunked(archive, 512)) {
        pulled++;
        yield c;
      }
    }
    await scanTar(counting(), (e) => {
      names.push(e.name);
      return e.name === "info/index.json";
    });
    expect(names).toEqual(["info/", "info/index.json"]);
    expect(pulled).toBeLessThan(archive.length / 512);
  });

  test("pax path records name the next entry", async () => {
    const record = (k: string, v: string) => {
      const body = ` ${k}=${v}\n`;
      let len = body.length + 1;
      while (`${len}${body}`.length !== len) len++;
      return `${len}${body}`;
    };
    const bytes = tarOf([
      ["PaxHeader", record("path", "very/long/pax/name.json"), "x"],
      ["short", "abc"],
    ]);
    expect((await all(bytes)).map(([e, b]) => [e.name, b])).toEqual([["very/long/pax/name.json", "abc"]]);
  });

  test("a bad checksum or a truncated body is InvalidTar; an empty stream has no entries", async () => {
    const broken = archive.slice();
    broken[600] = 0x7a; // inside the second header
    await expect(all(broken)).rejects.toBeInstanceOf(InvalidTar);
    await expect(all(archive.subarray(0, 512 + 512 + 5))).rejects.toBeInstanceOf(InvalidTar);
    expect(await all(new Uint8Array(0))).toEqual([]);
  });
});
