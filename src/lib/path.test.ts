import { expect, test } from "bun:test";
import { cleanRelativePath } from "./path.ts";

test("cleanRelativePath resolves `..` lexically and never climbs above the root", () => {
  expect(cleanRelativePath("..")).toBe("");
  expect(cleanRelativePath("../x")).toBe("x");
  expect(cleanRelativePath("/etc/passwd")).toBe("etc/passwd");
  expect(cleanRelativePath("a/./b/../c")).toBe("a/c");
  expect(cleanRelativePath("a\\b")).toBe("a/b");
  expect(cleanRelativePath("a//b/")).toBe("a/b");
});
