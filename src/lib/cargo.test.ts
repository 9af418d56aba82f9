import { describe, expect, test } from "bun:test";
import { cargoIndexLine, cargoIndexPath, cargoPublishBody, CargoFormatError, FrameReader, isValidCrateName, isValidCrateVersion, parseCargoMetadata } from "./cargo.ts";

async function* chunked(data: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

describe("cargo formats", () => {
  test("index paths", () => {
    expect(cargoIndexPath("A")).toBe("1/a");
    expect(cargoIndexPath("ab")).toBe("2/ab");
    expect(cargoIndexPath("Abc")).toBe("3/a/abc");
    expect(cargoIndexPath("Test-Crate")).toBe("te/st/test-crate");
    expect(() => cargoIndexPath("")).toThrow(CargoFormatError);
  });

  test("names and versions as Gitea takes them", () => {
    expect(isValidCrateName("a")).toBe(true);
    expect(isValidCrateName("a_b-c9")).toBe(true);
    expect(isValidCrateName("9a")).toBe(false);
    expect(isValidCrateName(`a${"b".repeat(64)}`)).toBe(false);
    for (const v of ["1.0.0", "1.0", "v1.2.3", "1.0.0-beta.1", "1.0.0+build.5", "1.0.0-rc1+x"]) expect(isValidCrateVersion(v)).toBe(true);
    for (const v of ["", "one", "1..0", "1.0.0 beta"]) expect(isValidCrateVersion(v)).toBe(false);
  });

  test("metadata: URLs kept only when valid, renamed dependencies, empty fields left out", () => {
    const p = parseCargoMetadata(
      JSON.stringify({
        name: "x1",
        vers: "0.1.0",
        deps: [{ name: "serde", version_req: "^1", explicit_name_in_toml: "s", features: null, target: null, kind: "normal", registry: "https://r" }],
        homepage: "https://home",
        repository: "ftp://nope",
        description: "",
      }),
    );
    expect(p.metadata).toEqual({
      dependencies: [{ name: "s", req: "^1", features: null, optional: false, default_features: false, target: null, kind: "normal", registry: "https://r", package: "serde" }],
      project_url: "https://home",
    });
    expect(() => parseCargoMetadata("[]")).toThrow("invalid metadata");
  });

  test("index line", () => {
    expect(cargoIndexLine({ name: "x", version: "1.0.0", metadata: {}, sha256: "ab", yanked: false })).toBe(
      '{"name":"x","vers":"1.0.0","deps":[],"cksum":"ab","features":{},"yanked":false}',
    );
  });

  test("frames read across chunk boundaries; the crate streams", async () => {
    const crate = new Uint8Array(1000).map((_, i) => i & 0xff);
    const body = cargoPublishBody('{"name":"x"}', crate);
    for (const size of [1, 3, 7, 4096]) {
      const r = new FrameReader(chunked(body, size));
      expect(new TextDecoder().decode(await r.readFrame(100))).toBe('{"name":"x"}');
      const n = await r.frameLength();
      expect(n).toBe(1000);
      const parts: Uint8Array[] = [];
      for await (const c of r.take(n)) parts.push(Uint8Array.from(c));
      expect(Buffer.concat(parts)).toEqual(Buffer.from(crate));
    }
    await expect(new FrameReader(chunked(body, 5)).readFrame(3)).rejects.toThrow("too large");
    await expect(new FrameReader(chunked(new Uint8Array([1, 0]), 5)).readFrame(3)).rejects.toThrow("unexpected EOF");
  });
});
