import { expect, test } from "bun:test";
import { fileSize } from "./file-size.ts";

test("sizes read as Gitea shows them", () => {
  expect(fileSize(0)).toBe("0 B");
  expect(fileSize(1023)).toBe("1023 B");
  expect(fileSize(1024)).toBe("1.0 KiB");
  expect(fileSize(1536)).toBe("1.5 KiB");
  expect(fileSize(200 * 1024 + 300)).toBe("200 KiB");
  expect(fileSize(5 * 1024 * 1024)).toBe("5.0 MiB");
});
