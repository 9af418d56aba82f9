import { describe, expect, test } from "bun:test";
import { LFS_POINTER_MAX_SIZE, parseLfsPointer } from "./lfs-pointer.ts";

const OID = "4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393";
const pointer = (oid = OID, size = "12345") => `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${size}\n`;

describe("parseLfsPointer", () => {
  test("reads a pointer as git-lfs writes it, from text or bytes", () => {
    expect(parseLfsPointer(pointer())).toEqual({ oid: OID, size: 12345 });
    expect(parseLfsPointer(Buffer.from(pointer()))).toEqual({ oid: OID, size: 12345 });
    expect(parseLfsPointer(pointer(OID, "0"))).toEqual({ oid: OID, size: 0 });
  });

  test("refuses what is not a pointer", () => {
    expect(parseLfsPointer("")).toBeUndefined();
    expect(parseLfsPointer("hello")).toBeUndefined();
    expect(parseLfsPointer(pointer("abc"))).toBeUndefined();
    expect(parseLfsPointer(pointer(OID.toUpperCase()))).toBeUndefined();
    expect(parseLfsPointer(pointer(OID, "-1"))).toBeUndefined();
    expect(parseLfsPointer(pointer(OID, "12x"))).toBeUndefined();
    expect(parseLfsPointer("version https://git-lfs.github.com/spec/v1\n")).toBeUndefined();
  });

  test("a blob of the cutoff size or more is never a pointer, whatever it starts with", () => {
    const padded = pointer().padEnd(LFS_POINTER_MAX_SIZE, "x");
    expect(parseLfsPointer(padded.slice(0, LFS_POINTER_MAX_SIZE - 1))).toEqual({ oid: OID, size: 12345 });
    expect(parseLfsPointer(padded)).toBeUndefined();
  });
});
