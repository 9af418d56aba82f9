import { describe, expect, test } from "bun:test";
import { WorkflowError } from "./errors.ts";
import { expandJobs, goSprint, matrixCombinations, matrixName, parseSingleJob } from "./jobs.ts";
import { parseWorkflow } from "./workflow.ts";

const github = { ref: "refs/heads/main", event_name: "push", repository: "alice/tools" };
const plan = (yaml: string, ctx: Record<string, unknown> = {}) =>
  expandJobs(parseWorkflow(yaml), yaml, { github, ...ctx });

// jobparser testdata job_name_with_matrix.in.yaml (with an `on`, which hearth requires)
const matrixYaml = `name: test
on: push
jobs:
  job1:
    strategy:
      matrix:
        os: [ubuntu-22.04, ubuntu-20.04]
        version: [1.17, 1.18, 1.19]
    runs-on: \${{ matrix.os }}
    name: test_version_\${{ matrix.version }}_on_\${{ matrix.os }}
    steps:
      - uses: actions/setup-go@v3
        with:
          go-version: \${{ matrix.version }}
      - run: uname -a && go version
`;

describe("expandJobs: jobparser's testdata", () => {
  test("job_name_with_matrix: sorted combinations, interpolated names and runs-on, narrowed matrix", () => {
    const jobs = plan(matrixYaml);
    expect(jobs.map((j) => j.name)).toEqual([
      "test_version_1.17_on_ubuntu-20.04",
      "test_version_1.18_on_ubuntu-20.04",
      "test_version_1.19_on_ubuntu-20.04",
      "test_version_1.17_on_ubuntu-22.04",
      "test_version_1.18_on_ubuntu-22.04",
      "test_version_1.19_on_ubuntu-22.04",
    ]);
    expect(jobs[0]!.runsOn).toEqual(["ubuntu-20.04"]);
    expect(Bun.YAML.parse(jobs[0]!.payload)).toEqual({
      name: "test",
      on: "push",
      jobs: {
        job1: {
          name: "test_version_1.17_on_ubuntu-20.04",
          "runs-on": "ubuntu-20.04",
          steps: [
            { uses: "actions/setup-go@v3", with: { "go-version": "${{ matrix.version }}" } },
            { run: "uname -a && go version" },
          ],
          strategy: { matrix: { os: ["ubuntu-20.04"], version: [1.17] } },
        },
      },
    });
    // the payload keeps jobparser's key order: name, runs-on, steps, strategy
    expect(Object.keys((Bun.YAML.parse(jobs[0]!.payload) as { jobs: { job1: object } }).jobs.job1)).toEqual([
      "name", "runs-on", "steps", "strategy",
    ]);
    expect(jobs[0]!.matrix).toEqual({ os: "ubuntu-20.04", version: 1.17 });
  });

  test("multiple_matrix: a name without expressions gets the values appended", () => {
    const yaml = matrixYaml.replace(/    name: .*\n/, "");
    expect(plan(yaml).map((j) => j.name)).toEqual([
      "job1 (ubuntu-20.04, 1.17)",
      "job1 (ubuntu-20.04, 1.18)",
      "job1 (ubuntu-20.04, 1.19)",
      "job1 (ubuntu-22.04, 1.17)",
      "job1 (ubuntu-22.04, 1.18)",
      "job1 (ubuntu-22.04, 1.19)",
    ]);
  });

  test("has_needs: needs reported, erased from the payload, file order kept", () => {
    const jobs = plan(`name: test
on: push
jobs:
  job1:
    runs-on: linux
    steps:
      - run: uname -a
  job2:
    needs: job1
    runs-on: linux
    steps:
      - run: uname -a
  job3:
    needs: [job1, job2]
    runs-on: linux
    steps:
      - run: uname -a
`);
    expect(jobs.map((j) => [j.jobId, j.name, j.needs])).toEqual([
      ["job1", "job1", []],
      ["job2", "job2", ["job1"]],
      ["job3", "job3", ["job1", "job2"]],
    ]);
    const payload = Bun.YAML.parse(jobs[2]!.payload) as { jobs: Record<string, Record<string, unknown>> };
    expect(Object.keys(payload.jobs)).toEqual(["job3"]);
    expect(payload.jobs["job3"]!["needs"]).toBeUndefined();
  });
});

describe("expandJobs", () => {
  test("top-level parts of the payload, in SingleWorkflow's order; unknown job keys dropped", () => {
    const yaml = `run-name: Build \${{ github.ref }}
permissions: read-all
defaults:
  run:
    shell: bash
env:
  Z: "1"
  A: two
concurrency: top
on:
  push:
    branches: [main]
name: wf
jobs:
  build:
    runs-on: [a, b]
    environment: prod
    if: \${{ vars.GO == 'yes' }}
    timeout-minutes: 5
    concurrency:
      group: g-\${{ github.ref }}
      cancel-in-progress: true
    steps:
      - name: s
        run: echo
        nonsense: 1
`;
    const [job] = plan(yaml);
    const doc = Bun.YAML.parse(job!.payload) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(["name", "on", "env", "jobs", "defaults", "permissions", "run-name"]);
    expect(Object.keys(doc["env"] as object)).toEqual(["A", "Z"]);
    expect(doc["run-name"]).toBe("Build refs/heads/main");
    const built = (doc["jobs"] as Record<string, Record<string, unknown>>)["build"]!;
    expect(built["environment"]).toBeUndefined();
    expect(built["runs-on"]).toEqual(["a", "b"]);
    expect(built["steps"]).toEqual([{ name: "s", run: "echo" }]);
    expect(built["concurrency"]).toEqual({ group: "g-${{ github.ref }}", "cancel-in-progress": true });
    expect(job!.if).toBe("${{ vars.GO == 'yes' }}");
    expect(job!.concurrency).toEqual({ group: "g-${{ github.ref }}", cancelInProgress: "true" });
    expect(job!.matrix).toEqual({});
  });

  test("runs-on reads vars and github; an expression that fails leaves an empty label", () => {
    const jobs = plan(`on: push
jobs:
  a:
    runs-on: ["\${{ vars.RUNNER }}", "\${{ github.repository }}", "\${{ nope.x }}"]
    steps: [{run: x}]
`, { vars: { RUNNER: "big" } });
    expect(jobs[0]!.runsOn).toEqual(["big", "alice/tools", ""]);
  });

  test("a matrix from fromJSON over inputs and vars", () => {
    const jobs = plan(`on: workflow_dispatch
jobs:
  a:
    strategy:
      matrix:
        node: \${{ fromJSON(inputs.versions) }}
        os: \${{ fromJSON(vars.OSES) }}
    runs-on: \${{ matrix.os }}
    steps: [{run: x}]
`, { inputs: { versions: "[18, 20]" }, vars: { OSES: '["linux"]' } });
    expect(jobs.map((j) => j.name)).toEqual(["a (18, linux)", "a (20, linux)"]);
    expect(jobs.map((j) => j.runsOn)).toEqual([["linux"], ["linux"]]);
  });

  test("a whole matrix from one expression", () => {
    const jobs = plan(`on: push
jobs:
  a:
    strategy:
      matrix: \${{ fromJSON('{"x":[1,2],"include":[{"x":3}]}') }}
    runs-on: r
    steps: [{run: x}]
`);
    expect(jobs.map((j) => j.name)).toEqual(["a (1)", "a (2)", "a (3)"]);
  });

  test("a matrix reading needs outputs cannot be computed yet: one job without a matrix, as Gitea 1.25", () => {
    const jobs = plan(`on: push
jobs:
  gen:
    runs-on: r
    steps: [{run: x}]
  use:
    needs: gen
    strategy:
      matrix:
        v: \${{ fromJSON(needs.gen.outputs.list) }}
    runs-on: r
    steps: [{run: x}]
`);
    expect(jobs.map((j) => j.name)).toEqual(["gen", "use"]);
    const doc = Bun.YAML.parse(jobs[1]!.payload) as { jobs: { use: Record<string, unknown> } };
    expect(doc.jobs.use["strategy"]).toBeUndefined();
  });

  test("strategy options other than the matrix stay", () => {
    const [job] = plan(`on: push
jobs:
  a:
    strategy:
      fail-fast: false
      max-parallel: 2
      matrix: {x: [1]}
    runs-on: r
    steps: [{run: x}]
`);
    const doc = Bun.YAML.parse(job!.payload) as { jobs: { a: { strategy: unknown } } };
    expect(doc.jobs.a.strategy).toEqual({ "fail-fast": false, "max-parallel": 2, matrix: { x: [1] } });
  });

  test("a job calling a reusable workflow keeps uses/with/secrets", () => {
    const [job] = plan(`on: push
jobs:
  call:
    uses: ./.gitea/workflows/x.yml
    with: {b: 1, a: 2}
    secrets: inherit
`);
    const doc = Bun.YAML.parse(job!.payload) as { jobs: { call: Record<string, unknown> } };
    expect(doc.jobs.call).toEqual({ name: "call", "runs-on": [], uses: "./.gitea/workflows/x.yml", with: { a: 2, b: 1 }, secrets: "inherit" });
    expect(Object.keys(doc.jobs.call["with"] as object)).toEqual(["a", "b"]);
  });
});

describe("matrixCombinations (act's GetMatrixes)", () => {
  const combos = (matrix: unknown) =>
    matrixCombinations({ id: "j", needs: [], runsOn: [], raw: {}, strategy: { matrix } }, {});
  test("no matrix: one empty combination", () => {
    expect(matrixCombinations({ id: "j", needs: [], runsOn: [], raw: {} }, {})).toEqual([{}]);
  });
  test("product less excludes", () => {
    expect(combos({ os: ["a", "b"], v: [1, 2], exclude: [{ os: "a", v: 2 }] })).toEqual([
      { os: "a", v: 1 }, { os: "b", v: 1 }, { os: "b", v: 2 },
    ]);
  });
  test("exclude matching on one key removes all its combinations", () => {
    expect(combos({ os: ["a", "b"], v: [1, 2], exclude: [{ os: "a" }] })).toEqual([{ os: "b", v: 1 }, { os: "b", v: 2 }]);
  });
  test("include merges into agreeing combinations or adds its own (GitHub's documented example)", () => {
    expect(combos({
      fruit: ["apple", "pear"],
      animal: ["cat", "dog"],
      include: [
        { color: "green" },
        { color: "pink", animal: "cat" },
        { fruit: "apple", shape: "circle" },
        { fruit: "banana" },
        { fruit: "banana", animal: "cat" },
      ],
    })).toEqual([
      { fruit: "apple", animal: "cat", color: "pink", shape: "circle" },
      { fruit: "apple", animal: "dog", color: "green", shape: "circle" },
      { fruit: "pear", animal: "cat", color: "pink" },
      { fruit: "pear", animal: "dog", color: "green" },
      { fruit: "banana" },
      { fruit: "banana", animal: "cat" },
    ]);
  });
  test("include only", () => {
    expect(combos({ include: [{ a: 1 }, { a: 2, b: 3 }] })).toEqual([{ a: 1 }, { a: 2, b: 3 }]);
  });
  test("everything excluded: one empty combination", () => {
    expect(combos({ a: [1], exclude: [{ a: 1 }] })).toEqual([{}]);
  });
  test("an exclude key outside the matrix is an error, as act refuses it", () => {
    expect(() => combos({ a: [1], exclude: [{ b: 1 }] })).toThrow(WorkflowError);
  });
});

test("matrixName and goSprint print as Go's fmt.Sprint", () => {
  expect(matrixName({ b: 1.5, a: "x" })).toBe("(x, 1.5)");
  expect(matrixName({ a: true, b: null, c: [1, "two"], d: { z: 1, y: 2 } })).toBe("(true, <nil>, [1 two], map[y:2 z:1])");
  expect(goSprint(1e21)).toBe("1e+21");
});

describe("parseSingleJob", () => {
  test("reads back a planned payload", () => {
    const jobs = plan(matrixYaml.replace("    runs-on:", "    if: github.ref == 'x'\n    runs-on:"));
    const single = parseSingleJob(jobs[1]!.payload);
    expect(single.id).toBe("job1");
    expect(single.name).toBe("test_version_1.18_on_ubuntu-20.04");
    expect(single.if).toBe("github.ref == 'x'");
    expect(single.runsOn).toEqual(["ubuntu-20.04"]);
    expect(single.matrix).toEqual({ os: "ubuntu-20.04", version: 1.18 });
    expect(single.workflow["name"]).toBe("test");
  });
  test("a job without a name is named by its id", () => {
    expect(parseSingleJob("jobs:\n  x:\n    runs-on: a\n").name).toBe("x");
  });
  test.each(["jobs: {}\n", "a: 1\n", "jobs:\n  x: 1\n", "[1]"])("refuses %p", (payload) => {
    expect(() => parseSingleJob(payload)).toThrow(WorkflowError);
  });
});

test("the payload keeps written text where Gitea's structs hold strings (with, env, outputs, timeout)", () => {
  const yaml = `on: push
env:
  V: 1.10
jobs:
  a:
    runs-on: r
    timeout-minutes: 10
    env:
      J: 2.10
    outputs:
      o: 1.0
    services:
      db:
        image: postgres
        env:
          PORT: 5432.0
    steps:
      - uses: actions/setup-go@v5
        env:
          S: 3.10
        with:
          go-version: 1.20
          check-latest: true
`;
  const [job] = plan(yaml);
  const doc = Bun.YAML.parse(job!.payload) as { env: unknown; jobs: { a: Record<string, unknown> } };
  expect(doc.env).toEqual({ V: "1.10" });
  expect(doc.jobs.a["timeout-minutes"]).toBe("10");
  expect(doc.jobs.a["outputs"]).toEqual({ o: "1.0" });
  expect(doc.jobs.a["services"]).toEqual({ db: { image: "postgres", env: { PORT: "5432.0" } } });
  expect(doc.jobs.a["env"]).toEqual({ J: "2.10" });
  expect(doc.jobs.a["steps"]).toEqual([
    { uses: "actions/setup-go@v5", env: { S: "3.10" }, with: { "check-latest": "true", "go-version": "1.20" } },
  ]);
});
