import { describe, expect, test } from "bun:test";
import { isWorkflowFile, parseWorkflow, selectWorkflowFiles, workflowIdOf, WorkflowError } from "./workflow.ts";

const sample = `
name: CI
run-name: Deploy by \${{ github.actor }}
on:
  push:
    branches: [main]
env:
  GO: 1.21
  FLAG: true
  NAME: x
concurrency: ci-\${{ github.ref }}
permissions:
  contents: read
jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      fail-fast: false
      max-parallel: 2
      matrix:
        os: [a, b]
    steps:
      - run: echo hi
  lint:
    name: Lint it
    needs: test
    if: github.ref == 'refs/heads/main'
    runs-on: [self-hosted, linux]
    concurrency:
      group: lint
      cancel-in-progress: true
    steps:
      - run: make lint
  deploy:
    needs: [test, lint]
    runs-on:
      group: prod
      labels: [docker]
    uses: ./.gitea/workflows/deploy.yml
`;

describe("parseWorkflow", () => {
  const wf = parseWorkflow(sample);
  test("top level", () => {
    expect(wf.name).toBe("CI");
    expect(wf.runName).toBe("Deploy by ${{ github.actor }}");
    expect(wf.on).toEqual([{ name: "push", acts: { branches: ["main"] } }]);
    expect(wf.env).toEqual({ GO: "1.21", FLAG: "true", NAME: "x" });
    expect(wf.concurrency).toEqual({ group: "ci-${{ github.ref }}" });
    expect(wf.permissions).toEqual({ contents: "read" });
    expect(wf.raw["name"]).toBe("CI");
  });
  test("jobs in file order with their parts", () => {
    expect(wf.jobs.map((j) => j.id)).toEqual(["test", "lint", "deploy"]);
    const [t, l, d] = wf.jobs;
    expect(t!.needs).toEqual([]);
    expect(t!.runsOn).toEqual(["ubuntu-latest"]);
    expect(t!.strategy).toEqual({ failFast: false, maxParallel: 2, matrix: { os: ["a", "b"] } });
    expect(t!.name).toBeUndefined();
    expect(l!.name).toBe("Lint it");
    expect(l!.needs).toEqual(["test"]);
    expect(l!.if).toBe("github.ref == 'refs/heads/main'");
    expect(l!.runsOn).toEqual(["self-hosted", "linux"]);
    expect(l!.concurrency).toEqual({ group: "lint", cancelInProgress: "true" });
    expect(d!.needs).toEqual(["test", "lint"]);
    expect(d!.runsOn).toEqual(["docker", "prod"]);
    expect(d!.uses).toBe("./.gitea/workflows/deploy.yml");
  });
  test("`on` stays a key (YAML 1.2) and yes/no stay strings", () => {
    const w = parseWorkflow("on: push\nenv: {A: yes, B: off}\njobs:\n  a:\n    runs-on: x\n");
    expect(w.on).toEqual([{ name: "push" }]);
    expect(w.env).toEqual({ A: "yes", B: "off" });
  });
  test("the first document of a stream", () => {
    const w = parseWorkflow("on: push\njobs:\n  a:\n    runs-on: x\n---\non: pull_request\n");
    expect(w.on).toEqual([{ name: "push" }]);
  });
  test.each([
    ["on: [push\n", /not valid YAML/],
    ["- a\n- b\n", /must be a YAML mapping/],
    ["just text", /must be a YAML mapping/],
    ["jobs:\n  a:\n    runs-on: x\n", /needs an "on"/],
    ["on: push\n", /"jobs" mapping/],
    ["on: push\njobs: {}\n", /empty/],
    ["on: push\njobs:\n  a:\n", /job "a" must be a mapping/],
    ["on: push\njobs:\n  a:\n    needs: b\n    runs-on: x\n", /needs "b"/],
    ["on: push\njobs:\n  a:\n    needs: {x: 1}\n", /needs/],
    ["on: push\nenv: [a]\njobs:\n  a:\n    runs-on: x\n", /"env"/],
    ["on: push\njobs:\n  a:\n    runs-on: x\n    strategy: [1]\n", /strategy/],
    ["on: push\njobs:\n  a:\n    runs-on: x\n    strategy:\n      matrix: [1]\n", /matrix/],
    ["on:\n  push:\n    branches: {a: 1}\njobs:\n  a:\n    runs-on: x\n", /on.push.branches/],
  ])("refuses %p", (yaml, re) => {
    expect(() => parseWorkflow(yaml)).toThrow(WorkflowError);
    expect(() => parseWorkflow(yaml)).toThrow(re);
  });
});

describe("workflow files", () => {
  test.each([
    [".gitea/workflows/ci.yml", true],
    [".gitea/workflows/ci.yaml", true],
    [".github/workflows/sub/ci.yml", true],
    [".gitea/workflows/ci.json", false],
    ["workflows/ci.yml", false],
    [".gitea/ci.yml", false],
  ])("%s", (path, want) => {
    expect(isWorkflowFile(path)).toBe(want);
  });
  test("selectWorkflowFiles prefers .gitea/workflows and never mixes", () => {
    expect(selectWorkflowFiles([".github/workflows/a.yml", ".gitea/workflows/b.yml", ".gitea/workflows/c.txt"])).toEqual([
      ".gitea/workflows/b.yml",
    ]);
    expect(selectWorkflowFiles([".github/workflows/a.yml", "x.yml"])).toEqual([".github/workflows/a.yml"]);
    expect(selectWorkflowFiles(["x.yml"])).toEqual([]);
  });
  test("workflowIdOf", () => {
    expect(workflowIdOf(".gitea/workflows/ci.yml")).toBe("ci.yml");
    expect(workflowIdOf(".github/workflows/sub/ci.yml")).toBe("sub/ci.yml");
  });
});

describe("go-yaml's reading", () => {
  test("values read as Go strings keep their written text", () => {
    const w = parseWorkflow(`on:
  push:
    branches: [1.10, "2.0"]
name: 1.0
env:
  GO: 1.10
  HEX: 0x1F
  Q: '1.10'
  N: ~
jobs:
  a:
    name: 2.50
    runs-on: [1.0]
    needs: []
`);
    expect(w.env).toEqual({ GO: "1.10", HEX: "0x1F", Q: "1.10", N: "" });
    expect(w.name).toBe("1.0");
    expect(w.on).toEqual([{ name: "push", acts: { branches: ["1.10", "2.0"] } }]);
    expect(w.jobs[0]!.name).toBe("2.50");
    expect(w.jobs[0]!.runsOn).toEqual(["1.0"]);
  });
  test("a duplicate key is refused with its line, as go-yaml refuses it", () => {
    expect(() => parseWorkflow("on: push\njobs:\n  a:\n    runs-on: x\n  a:\n    runs-on: y\n")).toThrow(/unique at line 5/);
  });
  test("merge keys and anchors", () => {
    const w = parseWorkflow(`on: push
x-defaults: &d
  runs-on: linux
  timeout-minutes: 5
  name: 1.50
jobs:
  a:
    <<: *d
    name: A
  b: *d
`);
    expect(w.jobs[1]!.name).toBe("1.50");
    expect(w.jobs.map((j) => [j.id, j.runsOn])).toEqual([["a", ["linux"]], ["b", ["linux"]]]);
    expect(w.jobs[0]!.name).toBe("A");
  });
  test("an empty document is not a workflow", () => {
    expect(() => parseWorkflow("")).toThrow(/must be a YAML mapping/);
    expect(() => parseWorkflow("# only a comment\n")).toThrow(/must be a YAML mapping/);
  });
});
