import { expect, test } from "bun:test";
import { naturalCompare } from "./natural-sort.ts";

test("names sort as people count, case aside, exact as the last word", () => {
  expect(["v10", "v9", "V2", "v1.10", "v1.9"].sort(naturalCompare)).toEqual(["v1.9", "v1.10", "V2", "v9", "v10"]);
  expect(["b", "B"].sort(naturalCompare)).toEqual(["B", "b"]);
});
