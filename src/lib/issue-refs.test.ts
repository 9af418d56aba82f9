import { expect, test } from "bun:test";
import { findIssueRefs, scanIssueRefs } from "./issue-refs.ts";

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

test("issue references with their places, for rendering", () => {
  const text = "See #1, !2 and alice/proj#3. (#4) '#5' x#6 #7a #8.5 acme/x!9\n#10";
  const spans = scanIssueRefs(text, { short: true });
  expect(spans.map((s) => text.slice(s.start, s.end))).toEqual(["#1", "!2", "alice/proj#3", "#4", "#5", "acme/x!9", "#10"]);
  expect(spans[1]).toEqual({ start: 8, end: 10, index: 2, pull: true });
  expect(spans[2]).toMatchObject({ owner: "alice", repo: "proj", index: 3, pull: false });
  expect(spans[5]).toMatchObject({ owner: "acme", repo: "x", index: 9, pull: true });
  // A file does not link bare numbers, only references that name their repository.
  expect(scanIssueRefs(text, { short: false }).map((s) => text.slice(s.start, s.end))).toEqual(["alice/proj#3", "acme/x!9"]);
  expect(scanIssueRefs("#0 a/b#0", { short: true })).toEqual([]);
});
