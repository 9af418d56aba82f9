import { describe, expect, test } from "bun:test";
import { bzip2Compress } from "./bzip2-compress.ts";
import { bunzip2 } from "./bzip2.ts";

async function roundTrip(data: Uint8Array): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  async function* once() {
    yield bzip2Compress(data);
  }
  for await (const c of bunzip2(once())) parts.push(c);
  return Buffer.concat(parts);
}

describe("bzip2Compress", () => {
  test("round trips through the reader: empty, one byte, runs, JSON, random bytes across blocks", async () => {
    const json = Buffer.from(JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ name: `pkg-${i % 40}`, depends: ["python >=3.8"], size: i }))));
    const inputs = [
      new Uint8Array(0),
      Buffer.from("x"),
      Buffer.alloc(2000, 0x61),
      Buffer.concat([Buffer.from("abcd"), Buffer.alloc(300, 0x62), Buffer.from("abababab")]),
      json,
      crypto.getRandomValues(new Uint8Array(65536)),
      Buffer.concat([json, json, json, json, json, json, json]), // more than one 900k block
    ];
    for (const input of inputs) expect((await roundTrip(input)).equals(Buffer.from(input))).toBe(true);
  });

  test("the system's bzip2 reads it", () => {
    const text = Buffer.from("repodata ".repeat(10000) + "end\n");
    const out = Bun.spawnSync(["bzip2", "-dc"], { stdin: bzip2Compress(text) });
    expect(out.exitCode).toBe(0);
    expect(Buffer.from(out.stdout).equals(text)).toBe(true);
  });
});
