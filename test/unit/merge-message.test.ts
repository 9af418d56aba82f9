import { describe, expect, test } from "bun:test";
import { defaultMergeMessage, expandTemplate, expandVariables, type MergeMessageFacts } from "../../src/services/pull/merge-message.ts";

const facts: MergeMessageFacts = {
  baseOwner: "alice",
  baseRepo: "proj",
  baseBranch: "main",
  headOwner: "bob",
  headRepo: "proj-fork",
  headBranch: "feature",
  sameRepo: false,
  index: 7,
  title: "Add things",
  description: "Long text",
  posterName: "bob",
  reference: "#",
  closingIndexes: [3, 4],
};

describe("merge messages", () => {
  test("variables expand as Go's os.Expand does", () => {
    const vars = { A: "x", B_2: "y" };
    expect(expandVariables("$A-${B_2}-$missing-${}", vars)).toBe("x-y--");
    expect(expandVariables("cost: 5$", vars)).toBe("cost: 5$");
    expect(expandVariables("a$%b", vars)).toBe("a%b");
    expect(expandVariables("keep ${A", vars)).toBe("keep ");
  });

  test("a template's first line is the title, the rest the description", () => {
    const m = expandTemplate("\n  $PullRequestTitle (${PullRequestReference})\n\n$PullRequestDescription\n\n$ClosingIssues\nBy $PullRequestPosterName\n", {
      PullRequestTitle: "T",
      PullRequestReference: "#1",
      PullRequestDescription: "D",
      ClosingIssues: "close #2",
      PullRequestPosterName: "p",
    });
    expect(m).toEqual({ title: "T (#1)", body: "D\n\nclose #2\nBy p" });
    const template = "Merge $HeadRepoOwnerName/$HeadRepoName:$HeadBranch into $BaseRepoOwnerName/$BaseRepoName:$BaseBranch\n$ClosingIssues";
    expect(defaultMergeMessage(facts, "merge", template)).toEqual({ title: "Merge bob/proj-fork:feature into alice/proj:main", body: "close #3, close #4" });
  });

  test("without a template each style has Gitea's sentence", () => {
    expect(defaultMergeMessage(facts, "merge", undefined).title).toBe("Merge pull request 'Add things' (#7) from bob/proj-fork:feature into main");
    expect(defaultMergeMessage({ ...facts, sameRepo: true }, "rebase-merge", undefined).title).toBe("Merge pull request 'Add things' (#7) from feature into main");
    expect(defaultMergeMessage({ ...facts, headOwner: undefined }, "merge", undefined).title).toBe("Merge pull request 'Add things' (#7) from <deleted>:feature into main");
    expect(defaultMergeMessage(facts, "squash", undefined)).toEqual({ title: "Add things (#7)", body: "" });
    expect(defaultMergeMessage(facts, "rebase", undefined)).toEqual({ title: "", body: "" });
  });
});
