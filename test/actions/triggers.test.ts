import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { putFile, runsOf, jobsOf, settled } from "../support/actions.ts";
import { MockRunner } from "../support/mock-runner.ts";
import { registrationToken } from "../../src/services/actions/runners.ts";
import { ActionStatus } from "../../src/db/schema/index.ts";

/**
 * Which events start which workflows, through the same notifications the webhooks hear: filters
 * on branches, tags and paths, activity types, `[skip ci]`, matrices, labels, Actions switched
 * off, broken files, concurrency groups.
 */
const t = makeTestApp("", { listen: true });
const alice = await t.user("alice");
const token = t.token(alice);
await t.ok("POST", "/api/v1/user/repos", token, { name: "w", auto_init: true }, 201);
const repo = await t.ok("GET", "/api/v1/repos/alice/w", token);
const put = (path: string, content: string, message: string, branch?: string) => putFile(t, "alice/w", path, content, token, message, branch);
const latest = (workflowId: string) => runsOf(t, repo.id).find((r) => r.workflowId === workflowId);
const count = () => runsOf(t, repo.id).length;

const wf = (on: string, jobs = "  j:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n") => `on:\n${on}\njobs:\n${jobs}`;

describe("push filters", () => {
  test("paths: only a change under src/ starts the run", async () => {
    await put(".gitea/workflows/paths.yml", wf("  push:\n    paths: ['src/**']"), "add paths workflow");
    const before = count();
    await put("docs/readme.md", "docs\n", "docs only");
    expect(count()).toBe(before);
    await put("src/main.ts", "code\n", "code change");
    expect(count()).toBe(before + 1);
    expect(latest("paths.yml")).toMatchObject({ title: "code change" });
  });

  test("[skip ci] in the head commit's message starts nothing", async () => {
    const before = count();
    await put("src/other.ts", "x\n", "tweak [skip ci]");
    expect(count()).toBe(before);
  });

  test("tags: a tag push matches `tags`, a branch push does not", async () => {
    await put(".gitea/workflows/release.yml", wf("  push:\n    tags: ['v*']"), "add tag workflow");
    expect(runsOf(t, repo.id).some((r) => r.workflowId === "release.yml")).toBe(false);
    await t.ok("POST", "/api/v1/repos/alice/w/tags", token, { tag_name: "v1.0.0", target: "main" }, 201);
    await settled(t);
    const run = runsOf(t, repo.id).find((r) => r.workflowId === "release.yml");
    expect(run).toMatchObject({ ref: "refs/tags/v1.0.0", event: "push" });
  });

  test("branches-ignore: a push to an ignored branch starts nothing", async () => {
    await put(".gitea/workflows/ignore.yml", wf("  push:\n    branches-ignore: ['wip/**']"), "add ignore workflow");
    await t.ok("POST", "/api/v1/repos/alice/w/branches", token, { new_branch_name: "wip/x", old_branch_name: "main" }, 201);
    await settled(t);
    const before = runsOf(t, repo.id).filter((r) => r.workflowId === "ignore.yml").length;
    await put("wip.txt", "wip\n", "wip work", "wip/x");
    expect(runsOf(t, repo.id).filter((r) => r.workflowId === "ignore.yml").length).toBe(before);
  });
});

describe("other events", () => {
  test("issues opened and issue comments start their workflows, from the default branch", async () => {
    await put(".gitea/workflows/triage.yml", wf("  issues:\n    types: [opened]\n  issue_comment:\n    types: [created]"), "add triage");
    const issue = await t.ok("POST", "/api/v1/repos/alice/w/issues", token, { title: "Broken" }, 201);
    await settled(t);
    expect(latest("triage.yml")).toMatchObject({ event: "issues", triggerEvent: "issues", ref: "refs/heads/main" });
    await t.ok("POST", `/api/v1/repos/alice/w/issues/${issue.number}/comments`, token, { body: "me too" }, 201);
    await settled(t);
    expect(latest("triage.yml")).toMatchObject({ event: "issue_comment" });
    // A closed issue is not `opened`: no run.
    const before = count();
    await t.ok("PATCH", `/api/v1/repos/alice/w/issues/${issue.number}`, token, { state: "closed" }, 201);
    await settled(t);
    expect(count()).toBe(before);
  });

  test("a published release starts a `release` workflow at its tag", async () => {
    await put(".gitea/workflows/publish.yml", wf("  release:\n    types: [published]"), "add publish");
    await t.ok("POST", "/api/v1/repos/alice/w/releases", token, { tag_name: "v2.0.0", name: "Two" }, 201);
    await settled(t);
    expect(latest("publish.yml")).toMatchObject({ event: "release", triggerEvent: "release", ref: "refs/tags/v2.0.0" });
  });

  test("a pull request runs its head's workflow with the PR's types", async () => {
    await t.ok("POST", "/api/v1/repos/alice/w/branches", token, { new_branch_name: "feature", old_branch_name: "main" }, 201);
    await put(".gitea/workflows/pr.yml", wf("  pull_request:\n    branches: [main]"), "add PR workflow", "feature");
    const pr = await t.ok("POST", "/api/v1/repos/alice/w/pulls", token, { head: "feature", base: "main", title: "Feature" }, 201);
    await settled(t);
    const opened = latest("pr.yml")!;
    expect(opened).toMatchObject({ event: "pull_request", triggerEvent: "pull_request", ref: `refs/pull/${pr.number}/head` });
    await put("feature.txt", "more\n", "more work", "feature");
    expect(latest("pr.yml")).toMatchObject({ event: "pull_request_sync", triggerEvent: "pull_request" });
    expect(latest("pr.yml")!.id).not.toBe(opened.id);
  });
});

describe("jobs", () => {
  test("a matrix expands into one job per combination, named as act names them", async () => {
    await put(
      ".gitea/workflows/matrix.yml",
      wf(
        "  push:\n    paths: ['matrix/**']",
        "  test:\n    strategy:\n      matrix:\n        os: [linux, windows]\n        node: [18, 20]\n    runs-on: ${{ matrix.os }}\n    steps:\n      - run: echo\n",
      ),
      "add matrix",
    );
    await put("matrix/x", "x\n", "matrix please");
    const run = latest("matrix.yml")!;
    const jobs = jobsOf(t, run.id);
    // act names a combination by its values in the order of the sorted keys (node, os).
    expect(jobs.map((j) => j.name).sort()).toEqual(["test (18, linux)", "test (18, windows)", "test (20, linux)", "test (20, windows)"]);
    expect(jobs.map((j) => JSON.parse(j.runsOnJson)[0]).sort()).toEqual(["linux", "linux", "windows", "windows"]);
  });

  test("a runner only gets jobs whose runs-on labels it has", async () => {
    const linux = await MockRunner.register(t.baseUrl, { token: registrationToken(t.env, { repoId: repo.id }), name: "linux", labels: ["linux"] });
    const names: string[] = [];
    for (let task = (await linux.fetchTask()).task; task; task = (await linux.fetchTask()).task) {
      names.push(String((task.context as Record<string, unknown>).job));
      await linux.runTask(task, { steps: [{}] });
    }
    // Only the two linux jobs of the matrix; the windows ones wait for a windows runner.
    const run = runsOf(t, repo.id).find((r) => r.workflowId === "matrix.yml")!;
    const states = jobsOf(t, run.id).map((j) => [j.name, j.status]);
    expect(states.filter(([n]) => String(n).includes("linux")).every(([, s]) => s === ActionStatus.Success)).toBe(true);
    expect(states.filter(([n]) => String(n).includes("windows")).every(([, s]) => s === ActionStatus.Waiting)).toBe(true);
  });

  test("a workflow in a folder below the workflows directory runs too, named by its path there", async () => {
    await put(".gitea/workflows/deploy/nested.yml", wf("  push:\n    paths: ['nested/**']"), "add nested");
    await put("nested/x", "x\n", "nested please");
    expect(latest("deploy/nested.yml")?.title).toBe("nested please");
  });

  test("a broken workflow file is skipped; the others still run", async () => {
    await put(".gitea/workflows/broken.yml", "on: push\njobs: [this is not a mapping\n", "add broken");
    await put(".gitea/workflows/fine.yml", wf("  push:\n    paths: ['fine/**']"), "add fine");
    await put("fine/x", "x\n", "fine please");
    expect(latest("fine.yml")?.title).toBe("fine please");
    expect(runsOf(t, repo.id).some((r) => r.workflowId === "broken.yml")).toBe(false);
  });

  test("concurrency with cancel-in-progress cancels the group's unfinished run", async () => {
    await put(
      ".gitea/workflows/deploy.yml",
      "on:\n  push:\n    paths: ['deploy/**']\nconcurrency:\n  group: deploy-${{ github.ref }}\n  cancel-in-progress: true\njobs:\n  d:\n    runs-on: nowhere\n    steps:\n      - run: echo\n",
      "add deploy",
    );
    await put("deploy/1", "1\n", "deploy one");
    const first = latest("deploy.yml")!;
    expect(first).toMatchObject({ concurrencyGroup: "deploy-refs/heads/main", status: ActionStatus.Waiting });
    await put("deploy/2", "2\n", "deploy two");
    const runs = runsOf(t, repo.id).filter((r) => r.workflowId === "deploy.yml");
    expect(runs.map((r) => r.status)).toEqual([ActionStatus.Waiting, ActionStatus.Cancelled]);
  });
});

describe("concurrency groups hold one running and one pending member", () => {
  const deployRunner = async () =>
    MockRunner.register(t.baseUrl, { token: registrationToken(t.env, { repoId: repo.id }), name: `group-${crypto.randomUUID()}`, labels: ["group-runner"] });

  test("a run's group: a new run waits while one runs and replaces the pending one", async () => {
    await put(
      ".gitea/workflows/serial.yml",
      "on:\n  push:\n    paths: ['serial/**']\nconcurrency: serial\njobs:\n  s:\n    runs-on: group-runner\n    steps:\n      - run: echo\n",
      "add serial",
    );
    const runner = await deployRunner();
    await put("serial/1", "1\n", "serial one");
    const running = (await runner.fetchTask()).task!;
    expect(running).toBeDefined();
    await put("serial/2", "2\n", "serial two");
    await put("serial/3", "3\n", "serial three");
    const serial = () => runsOf(t, repo.id).filter((r) => r.workflowId === "serial.yml").map((r) => [r.title, r.status]);
    expect(serial()).toEqual([
      ["serial three", ActionStatus.Blocked],
      ["serial two", ActionStatus.Cancelled],
      ["serial one", ActionStatus.Running],
    ]);
    expect((await runner.fetchTask()).task).toBeUndefined();
    await runner.runTask(running, { steps: [{}] });
    await settled(t);
    expect(serial()[0]).toEqual(["serial three", ActionStatus.Waiting]);
    const next = (await runner.fetchTask()).task!;
    expect(next).toBeDefined();
    await runner.runTask(next, { steps: [{}] });
  });

  test("a job's own group, evaluated with its matrix", async () => {
    await put(
      ".gitea/workflows/jobgroup.yml",
      "on:\n  push:\n    paths: ['jobgroup/**']\njobs:\n  deploy:\n    runs-on: group-runner\n    concurrency:\n      group: deploy-${{ github.ref_name }}\n    steps:\n      - run: echo\n",
      "add job group",
    );
    const runner = await deployRunner();
    await put("jobgroup/1", "1\n", "job one");
    const first = (await runner.fetchTask()).task!;
    expect(first).toBeDefined();
    await put("jobgroup/2", "2\n", "job two");
    const runsNow = runsOf(t, repo.id).filter((r) => r.workflowId === "jobgroup.yml");
    const second = jobsOf(t, runsNow[0]!.id)[0]!;
    expect(second).toMatchObject({ concurrencyGroup: "deploy-main", status: ActionStatus.Blocked });
    await runner.runTask(first, { steps: [{}] });
    await settled(t);
    expect(jobsOf(t, runsNow[0]!.id)[0]!.status).toBe(ActionStatus.Waiting);
    const next = (await runner.fetchTask()).task!;
    await runner.runTask(next, { steps: [{}] });
  });
});

describe("Actions switched off", () => {
  test("on the repository: no run", async () => {
    await t.ok("PATCH", "/api/v1/repos/alice/w", token, { has_actions: false }, 200);
    const before = count();
    await put("src/off.ts", "off\n", "while off");
    expect(count()).toBe(before);
    await t.ok("PATCH", "/api/v1/repos/alice/w", token, { has_actions: true }, 200);
  });
});
