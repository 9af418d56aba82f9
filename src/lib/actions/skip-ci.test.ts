import { describe, expect, test } from "bun:test";
import { DEFAULT_SKIP_WORKFLOW_STRINGS, shouldSkipCI, shouldSkipRuns } from "./skip-ci.ts";

describe("shouldSkipCI", () => {
  test.each([
    ["fix: thing [skip ci]", true],
    ["[ci skip] docs", true],
    ["wip\n\nbody [no ci]", true],
    ["[skip actions]", true],
    ["[actions skip] x", true],
    ["fix [Skip CI]", false], // case-sensitive, as Gitea's strings.Contains
    ["skip ci", false],
    ["[skip-ci]", false],
    ["", false],
  ])("%p", (message, want) => {
    expect(shouldSkipCI(message)).toBe(want);
  });
  test("custom strings replace the defaults", () => {
    expect(shouldSkipCI("x [nobuild]", ["[nobuild]"])).toBe(true);
    expect(shouldSkipCI("x [skip ci]", ["[nobuild]"])).toBe(false);
    expect(shouldSkipCI("anything", [""])).toBe(false);
    expect(shouldSkipCI("anything", [])).toBe(false);
  });
  test("the defaults are Gitea's", () => {
    expect(DEFAULT_SKIP_WORKFLOW_STRINGS).toEqual(["[skip ci]", "[ci skip]", "[no ci]", "[skip actions]", "[actions skip]"]);
  });
});

describe("shouldSkipRuns", () => {
  test.each([
    [{ hookEvent: "push", commitMessage: "a [skip ci]" }, true],
    [{ hookEvent: "push", commitMessage: "a" }, false],
    [{ hookEvent: "pull_request", commitMessage: "a", pullRequestTitle: "Fix [ci skip]" }, true],
    [{ hookEvent: "pull_request_sync", commitMessage: "b [no ci]", pullRequestTitle: "Fix" }, true],
    // other events are never skipped, whatever the message
    [{ hookEvent: "issues", commitMessage: "a [skip ci]" }, false],
    [{ hookEvent: "pull_request_label", commitMessage: "a [skip ci]" }, false],
    [{ hookEvent: "push", commitMessage: "a [x]", skipStrings: ["[x]"] }, true],
  ])("%j", (input, want) => {
    expect(shouldSkipRuns(input)).toBe(want);
  });
});
