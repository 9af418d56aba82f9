import { describe, expect, test } from "bun:test";
import { commitTitle, interpolateRunName, runTitle } from "./run-name.ts";

const github = { actor: "alice", event_name: "push", ref_name: "main", event: { pull_request: { title: "Add X" } } };

describe("runTitle", () => {
  test("without run-name: the commit message's first line", () => {
    expect(runTitle({ commitMessage: "Fix the thing\n\nLong body", github })).toBe("Fix the thing");
    expect(runTitle({ commitMessage: "one line", github })).toBe("one line");
    expect(runTitle({ commitMessage: "", github })).toBe("");
  });
  test("run-name interpolated over github, vars and inputs", () => {
    expect(runTitle({
      runName: "Deploy ${{ inputs.env }} by ${{ github.actor }} (${{ vars.REGION }})",
      commitMessage: "c",
      github,
      vars: { REGION: "eu" },
      inputs: { env: "prod" },
    })).toBe("Deploy prod by alice (eu)");
    expect(runTitle({ runName: "PR: ${{ github.event.pull_request.title }}", commitMessage: "c", github })).toBe("PR: Add X");
    expect(runTitle({ runName: "static", commitMessage: "c", github })).toBe("static");
  });
  test("a run-name that fails or yields nothing falls back to the commit title", () => {
    expect(runTitle({ runName: "${{ matrix.x }}", commitMessage: "c1\nc2", github })).toBe("c1");
    expect(runTitle({ runName: "${{ vars.NOPE }}", commitMessage: "c1", github })).toBe("c1");
    expect(runTitle({ runName: "${{ 'a' ", commitMessage: "c1", github })).toBe("c1");
  });
});

test("commitTitle and interpolateRunName", () => {
  expect(commitTitle("a\r\nb")).toBe("a\r");
  expect(interpolateRunName("${{ github.ref_name }}", { github })).toBe("main");
  expect(interpolateRunName("${{ bad( }}", { github })).toBe("");
});
