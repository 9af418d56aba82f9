import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tarEntries, type TarEntry } from "./tar-entries.ts";
import { BadRequest } from "./errors.ts";

const dir = mkdtempSync(join(tmpdir(), "tar-entries-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An archive made by the system's tar (GNU or PAX format), its bytes in small chunks. */
function systemTar(format: "gnu" | "pax", files: Record<string, string>): Uint8Array {
  const src = mkdtempSync(join(dir, "src-"));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(src, name, ".."), { recursive: true });
    writeFileSync(join(src, name), content);
  }
  const out = join(dir, `${format}-${Math.random()}.tar`);
  const run = Bun.spawnSync(["tar", `--format=${format}`, "-cf", out, "-C", src, ...Object.keys(files)]);
  if (run.exitCode !== 0) throw new Error(run.stderr.toString());
  return new Uint8Array(readFileSync(out));
}

async function* chunked(data: Uint8Array, size = 97): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < data.byteLength; i += size) yield data.subarray(i, i + size);
}

async function collect(data: Uint8Array, read: (e: TarEntry) => boolean = () => true) {
  const out: [string, string, number, string | undefined][] = [];
  for await (const e of tarEntries(chunked(data))) out.push([e.name, e.type, e.size, read(e) ? await e.text(1 << 20) : undefined]);
  return out;
}

const longName = `cookbook/${"d".repeat(120)}/metadata.json`;

for (const format of ["gnu", "pax"] as const) {
  test(`${format} archives: names (long ones too), types, sizes, bytes read or skipped`, async () => {
    const tar = systemTar(format, { "a/metadata.json": '{"name":"a"}', "a/big.bin": "x".repeat(5000), [longName]: "long" });
    const all = await collect(tar);
    expect(all.filter((e) => e[1] === "0")).toEqual([
      ["a/metadata.json", "0", 12, '{"name":"a"}'],
      ["a/big.bin", "0", 5000, "x".repeat(5000)],
      [longName, "0", 4, "long"],
    ]);
    // Skipping a member's bytes lands on the next header all the same.
    const skipped = await collect(tar, (e) => !e.name.endsWith("big.bin"));
    expect(skipped.filter((e) => e[1] === "0").map((e) => e[3])).toEqual(['{"name":"a"}', undefined, "long"]);
  });
}

test("a member larger than the limit, a truncated archive and a bad checksum are 400s", async () => {
  const tar = systemTar("gnu", { "a/metadata.json": "y".repeat(3000) });
  const read = async (data: Uint8Array, limit = 1 << 20) => {
    for await (const e of tarEntries(chunked(data))) await e.text(limit);
  };
  await expect(read(tar, 100)).rejects.toBeInstanceOf(BadRequest);
  await expect(read(tar.subarray(0, 1024))).rejects.toBeInstanceOf(BadRequest);
  const bad = tar.slice();
  bad[0] = bad[0]! ^ 1;
  await expect(read(bad)).rejects.toBeInstanceOf(BadRequest);
  // An archive without its closing zero blocks ends where its data ends (as Go reads it).
  expect((await collect(tar.subarray(0, 512 + 3072))).length).toBe(1);
  expect(await collect(new Uint8Array())).toEqual([]);
});
