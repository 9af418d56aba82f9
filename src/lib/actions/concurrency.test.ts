import { describe, expect, test } from "bun:test";
import { evaluateConcurrency } from "./concurrency.ts";
import { ExpressionError } from "./expression.ts";
import { parseWorkflow } from "./workflow.ts";

const ctx = { github: { ref: "refs/heads/feature", workflow: "ci.yml", head_ref: "" }, vars: { N: "3" }, matrix: { os: "linux" } };

describe("evaluateConcurrency", () => {
  test.each([
    [{ group: "static" }, { group: "static", cancelInProgress: false }],
    [{ group: "${{ github.workflow }}-${{ github.ref }}" }, { group: "ci.yml-refs/heads/feature", cancelInProgress: false }],
    [{ group: "g", cancelInProgress: "true" }, { group: "g", cancelInProgress: true }],
    [{ group: "g", cancelInProgress: "false" }, { group: "g", cancelInProgress: false }],
    [{ group: "g", cancelInProgress: "True" }, { group: "g", cancelInProgress: false }],
    [{ group: "g", cancelInProgress: "${{ github.ref != 'refs/heads/main' }}" }, { group: "g", cancelInProgress: true }],
    [{ group: "g", cancelInProgress: "${{ github.ref == 'refs/heads/main' }}" }, { group: "g", cancelInProgress: false }],
    [{ group: "${{ github.head_ref || github.ref }}" }, { group: "refs/heads/feature", cancelInProgress: false }],
    [{ group: "${{ vars.N }}-${{ matrix.os }}" }, { group: "3-linux", cancelInProgress: false }],
    [{ group: "${{ null }}" }, { group: "", cancelInProgress: false }],
    [{ group: "${{ 5 }}" }, { group: "5", cancelInProgress: false }],
  ])("%j", (c, want) => {
    expect(evaluateConcurrency(c, ctx)).toEqual(want);
  });
  test.each([
    [{ group: "${{ fromJSON('[1]') }}" }, /single value/],
    [{ group: "${{ nope.x }}" }, /unavailable context/],
    [{ group: "${{ ( }}" }, ExpressionError],
  ])("%j fails", (c, want) => {
    expect(() => evaluateConcurrency(c, ctx)).toThrow(want);
  });
  test("from a parsed workflow: bare and mapping forms", () => {
    const w = parseWorkflow(`on: push
concurrency: ci-\${{ github.ref }}
jobs:
  a:
    runs-on: r
    concurrency:
      group: job-\${{ matrix.os }}
      cancel-in-progress: \${{ true }}
`);
    expect(evaluateConcurrency(w.concurrency!, ctx)).toEqual({ group: "ci-refs/heads/feature", cancelInProgress: false });
    expect(evaluateConcurrency(w.jobs[0]!.concurrency!, ctx)).toEqual({ group: "job-linux", cancelInProgress: true });
  });
});
