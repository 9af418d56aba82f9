import { expect, test } from "bun:test";
import { findIssueRefs } from "./issue-refs.ts";

test("issue references and their closing/reopening keywords", () => {
  const refs = findIssueRefs("Fixes #12 and closes: alice/proj#3.\nSee #4, (resolves #5)\nReopens #6\nx#7 #0 fixes#8 #9abc #12");
  expect(refs).toEqual([
    { index: 12, action: "closes" },
    { owner: "alice", repo: "proj", index: 3, action: "closes" },
    { index: 4, action: "none" },
    { index: 5, action: "closes" },
    { index: 6, action: "reopens" },
  ]);
  expect(findIssueRefs("fixes\n#2")).toEqual([{ index: 2, action: "none" }]);
  expect(findIssueRefs("FIXED #2")).toEqual([{ index: 2, action: "closes" }]);
});
