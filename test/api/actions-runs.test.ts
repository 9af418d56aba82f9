import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { MockRunner } from "../support/mock-runner.ts";
import { expectShape } from "../support/shape.ts";
import { Checkout, settledActions } from "../support/actions-api.ts";
import {
  ActionTask,
  ActionTaskResponse,
  ActionWorkflowJob,
  ActionWorkflowJobsResponse,
  ActionWorkflowRun,
  ActionWorkflowRunsResponse,
  ActionWorkflowStep,
} from "../../src/shapes/actions.ts";
import { toRFC3339 } from "../../src/lib/time.ts";

/**
 * Workflow runs, jobs, tasks and job logs over Gitea 1.25's API, on data made the real way: a
 * workflow pushed with git starts a run, a runner registered with the API's token fetches its
 * tasks over the runner protocol and reports steps and logs, and the API shows what happened.
 */
const t = makeTestApp("", { listen: true });
const API = "/api/v1";
const root = await t.user("root", { admin: true });
const alice = await t.user("alice");
const reader = await t.user("reader");
const stranger = await t.user("stranger");
const tok = { root: t.token(root), alice: t.token(alice), reader: t.token(reader), stranger: t.token(stranger) };

await t.ok("POST", `${API}/user/repos`, tok.alice, { name: "ci", auto_init: true }, 201);
await t.ok("POST", `${API}/user/repos`, tok.alice, { name: "hidden", auto_init: true, private: true }, 201);
await t.ok("PUT", `${API}/repos/alice/ci/collaborators/reader`, tok.alice, { permission: "read" }, 204);
const repo = await t.ok("GET", `${API}/repos/alice/ci`, tok.alice);

const WORKFLOW = `name: CI
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - name: Say hello
        run: echo hello
      - run: echo packing
  test:
    needs: build
    runs-on: ubuntu-latest
    steps:
      - run: echo test
`;

const checkout = await Checkout.clone(t, "alice/ci", "alice", tok.alice);
const firstSha = await checkout.push({ ".gitea/workflows/ci.yml": WORKFLOW }, "add CI");

const regToken = (await t.ok("POST", `${API}/repos/alice/ci/actions/runners/registration-token`, tok.alice)).token as string;
const runner = await MockRunner.register(t.baseUrl, { token: regToken, name: "runner-1", labels: ["ubuntu-latest"] });

// The build job succeeds with a log at a fixed clock; the test job fails.
const clock = () => new Date("2024-05-01T10:00:00.123Z");
const build = (await runner.fetchTask()).task!;
await runner.runTask(build, { setupLines: ["set up"], steps: [{ lines: ["hello"] }, { lines: ["packing"] }], now: clock });
await settledActions(t);
const testTask = (await runner.fetchTask()).task!;
await runner.runTask(testTask, { steps: [{ lines: ["boom"], result: "failure" }] });
await settledActions(t);

// A second push: a run whose jobs no runner has taken.
const secondSha = await checkout.push({ "README.md": "more\n" }, "second change");

const runs = await t.ok("GET", `${API}/repos/alice/ci/actions/runs`, tok.alice);
const [second, first] = runs.workflow_runs as any[];

describe("runs", () => {
  test("a repository's runs, newest first, as ActionWorkflowRunsResponse with paging headers", async () => {
    const res = await t.json("GET", `${API}/repos/alice/ci/actions/runs`, { token: tok.alice });
    expectShape(res.body, ActionWorkflowRunsResponse);
    for (const r of res.body.workflow_runs) expectShape(r, ActionWorkflowRun);
    expect(res.body.total_count).toBe(2);
    expect(res.headers.get("X-Total-Count")).toBe("2");
    expect(res.body.workflow_runs.map((r: any) => r.head_sha)).toEqual([secondSha, firstSha]);
  });

  test("a finished run as Gitea converts it", () => {
    expect(first).toMatchObject({
      url: `${t.baseUrl}api/v1/repos/alice/ci/actions/runs/${first.id}`,
      html_url: `${t.baseUrl}alice/ci/actions/runs/1`,
      display_title: "add CI",
      path: "ci.yml@refs/heads/main",
      event: "push",
      run_attempt: 0,
      run_number: 1,
      head_sha: firstSha,
      head_branch: "main",
      status: "completed",
      conclusion: "failure",
      actor: { login: "alice" },
      trigger_actor: { login: "alice" },
      repository: { id: repo.id, full_name: "alice/ci" },
    });
    expect(Date.parse(first.completed_at)).toBeGreaterThanOrEqual(Date.parse(first.started_at));
    // A run that is waiting has no conclusion (omitempty) and no start yet.
    expect(second).toMatchObject({ status: "queued", run_number: 2, display_title: "second change" });
    expect("conclusion" in second).toBe(false);
    expect(second.started_at).toBe(toRFC3339(0));
  });

  test("the list pages with Gitea's Link header", async () => {
    const res = await t.json("GET", `${API}/repos/alice/ci/actions/runs?limit=1`, { token: tok.alice });
    expect(res.body.workflow_runs.map((r: any) => r.id)).toEqual([second.id]);
    expect(res.body.total_count).toBe(2);
    expect(res.headers.get("Link")).toContain('rel="next"');
    const page2 = await t.ok("GET", `${API}/repos/alice/ci/actions/runs?limit=1&page=2`, tok.alice);
    expect(page2.workflow_runs.map((r: any) => r.id)).toEqual([first.id]);
  });

  test("filters: status (GitHub's names, repeatable), branch, event, actor, head_sha", async () => {
    const ids = async (query: string) =>
      ((await t.ok("GET", `${API}/repos/alice/ci/actions/runs?${query}`, tok.alice)).workflow_runs as any[]).map((r) => r.id);
    expect(await ids("status=completed")).toEqual([first.id]);
    expect(await ids("status=failure")).toEqual([first.id]);
    expect(await ids("status=success")).toEqual([]);
    expect(await ids("status=queued")).toEqual([second.id]);
    expect(await ids("status=queued&status=failure")).toEqual([second.id, first.id]);
    expect(await ids("branch=main")).toEqual([second.id, first.id]);
    expect(await ids("branch=other")).toEqual([]);
    expect(await ids("event=push")).toEqual([second.id, first.id]);
    expect(await ids("event=pull_request")).toEqual([]);
    expect(await ids("actor=alice")).toEqual([second.id, first.id]);
    expect(await ids("actor=ALICE")).toEqual([second.id, first.id]);
    expect(await ids("actor=nobody-at-all")).toEqual([]);
    expect(await ids(`head_sha=${firstSha}`)).toEqual([first.id]);
    const bad = await t.json("GET", `${API}/repos/alice/ci/actions/runs?status=bogus`, { token: tok.alice });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("Invalid status bogus");
  });

  test("one run by id; another repository's or no run is 404", async () => {
    const got = await t.ok("GET", `${API}/repos/alice/ci/actions/runs/${first.id}`, tok.alice);
    expectShape(got, ActionWorkflowRun);
    expect(got).toEqual(first);
    const elsewhere = await t.json("GET", `${API}/repos/alice/hidden/actions/runs/${first.id}`, { token: tok.alice });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.message).toBe("resource does not exist");
    for (const bad of ["999999", "0", "-3", "x"]) {
      expect((await t.json("GET", `${API}/repos/alice/ci/actions/runs/${bad}`, { token: tok.alice })).status).toBe(404);
    }
  });

  test("the user's, the organization's and the admin's run lists", async () => {
    const mine = await t.ok("GET", `${API}/user/actions/runs`, tok.alice);
    expect(mine.workflow_runs.map((r: any) => r.id)).toEqual([second.id, first.id]);
    expect((await t.ok("GET", `${API}/user/actions/runs`, tok.stranger)).total_count).toBe(0);
    const all = await t.ok("GET", `${API}/admin/actions/runs?status=completed`, tok.root);
    expect(all.workflow_runs.map((r: any) => r.id)).toEqual([first.id]);
    await t.ok("POST", `${API}/orgs`, tok.alice, { username: "acme" }, 201);
    expect(await t.ok("GET", `${API}/orgs/acme/actions/runs`, tok.alice)).toEqual({ workflow_runs: [], total_count: 0 });
  });
});

describe("jobs", () => {
  test("a run's jobs in order, as ActionWorkflowJobsResponse, with their tasks' steps and runner", async () => {
    const res = await t.json("GET", `${API}/repos/alice/ci/actions/runs/${first.id}/jobs`, { token: tok.alice });
    expect(res.status).toBe(200);
    expectShape(res.body, ActionWorkflowJobsResponse);
    expect(res.headers.get("X-Total-Count")).toBe("2");
    const [b, tj] = res.body.jobs as any[];
    for (const j of [b, tj]) expectShape(j, ActionWorkflowJob);
    expect(b).toMatchObject({
      url: `${t.baseUrl}api/v1/repos/alice/ci/actions/jobs/${b.id}`,
      html_url: `${t.baseUrl}alice/ci/actions/runs/1/jobs/0`,
      run_id: first.id,
      run_url: `${t.baseUrl}api/v1/repos/alice/ci/actions/runs/${first.id}`,
      name: "build",
      labels: ["ubuntu-latest"],
      run_attempt: 1,
      head_sha: firstSha,
      head_branch: "main",
      status: "completed",
      conclusion: "success",
      runner_id: Number(runner.id),
      runner_name: "runner-1",
    });
    expect(b.steps.map((s: any) => [s.number, s.name])).toEqual([
      [0, "Say hello"],
      [1, "echo packing"],
    ]);
    for (const s of b.steps) expectShape(s, ActionWorkflowStep);
    expect(tj).toMatchObject({ name: "test", html_url: `${t.baseUrl}alice/ci/actions/runs/1/jobs/1`, conclusion: "failure" });
  });

  test("a job no runner took has no steps (null) and no runner", async () => {
    const jobs = (await t.ok("GET", `${API}/repos/alice/ci/actions/runs/${second.id}/jobs`, tok.alice)).jobs as any[];
    expect(jobs.map((j) => [j.name, j.status])).toEqual([
      ["build", "queued"],
      ["test", "waiting"],
    ]);
    expect(jobs[0].steps).toBeNull();
    expect("runner_id" in jobs[0]).toBe(false);
  });

  test("job filters and the repository's, user's and admin's job lists", async () => {
    const names = async (path: string) => ((await t.ok("GET", `${API}${path}`, path.startsWith("/admin") ? tok.root : tok.alice)).jobs as any[]).map((j) => `${j.run_id}:${j.name}`);
    expect(await names(`/repos/alice/ci/actions/runs/${first.id}/jobs?status=failure`)).toEqual([`${first.id}:test`]);
    expect(await names("/repos/alice/ci/actions/jobs")).toEqual([`${first.id}:build`, `${first.id}:test`, `${second.id}:build`, `${second.id}:test`]);
    expect(await names("/repos/alice/ci/actions/jobs?status=pending")).toEqual([`${second.id}:test`]);
    expect(await names("/user/actions/jobs?status=success")).toEqual([`${first.id}:build`]);
    expect(await names("/admin/actions/jobs?status=in_progress")).toEqual([]);
    expect((await t.json("GET", `${API}/repos/alice/ci/actions/jobs?status=nope`, { token: tok.alice })).status).toBe(400);
    const zero = await t.json("GET", `${API}/repos/alice/ci/actions/runs/0/jobs`, { token: tok.alice });
    expect(zero.status).toBe(400);
    expect(zero.body.message).toBe("runID must be a positive integer");
  });

  test("one job by id; another repository's is 404", async () => {
    const jobs = (await t.ok("GET", `${API}/repos/alice/ci/actions/runs/${first.id}/jobs`, tok.alice)).jobs as any[];
    const got = await t.ok("GET", `${API}/repos/alice/ci/actions/jobs/${jobs[0].id}`, tok.alice);
    expectShape(got, ActionWorkflowJob);
    expect(got).toEqual(jobs[0]);
    expect((await t.json("GET", `${API}/repos/alice/hidden/actions/jobs/${jobs[0].id}`, { token: tok.alice })).status).toBe(404);
  });

  test("a job's log is the plain text of its latest task, a line per row in Gitea's time format", async () => {
    const jobs = (await t.ok("GET", `${API}/repos/alice/ci/actions/runs/${first.id}/jobs`, tok.alice)).jobs as any[];
    const res = await t.request("GET", `${API}/repos/alice/ci/actions/jobs/${jobs[0].id}/logs`, { token: tok.alice });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="ci-build-${build.id}.log"; filename*=UTF-8''ci-build-${build.id}.log`);
    const text = await res.text();
    expect(text).toBe(["set up", "hello", "packing"].map((l) => `2024-05-01T10:00:00.1230000Z ${l}\n`).join(""));
    expect(res.headers.get("Content-Length")).toBe(String(Buffer.byteLength(text)));
  });

  test("the log of a job no runner took is 404 (job not started)", async () => {
    const jobs = (await t.ok("GET", `${API}/repos/alice/ci/actions/runs/${second.id}/jobs`, tok.alice)).jobs as any[];
    const res = await t.json("GET", `${API}/repos/alice/ci/actions/jobs/${jobs[0].id}/logs`, { token: tok.alice });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("The target couldn't be found.");
    expect((await t.json("GET", `${API}/repos/alice/ci/actions/jobs/999999/logs`, { token: tok.alice })).status).toBe(404);
  });
});

describe("tasks", () => {
  test("a repository's tasks, newest first, as ActionTaskResponse", async () => {
    const res = await t.json("GET", `${API}/repos/alice/ci/actions/tasks`, { token: tok.alice });
    expectShape(res.body, ActionTaskResponse);
    for (const task of res.body.workflow_runs) expectShape(task, ActionTask);
    expect(res.body.total_count).toBe(2);
    expect(res.body.workflow_runs.map((x: any) => x.id)).toEqual([Number(testTask.id), Number(build.id)]);
    expect(res.body.workflow_runs[1]).toMatchObject({
      id: Number(build.id),
      name: "build",
      head_branch: "main",
      head_sha: firstSha,
      run_number: 1,
      event: "push",
      display_title: "add CI",
      status: "success",
      workflow_id: "ci.yml",
      url: `${t.baseUrl}alice/ci/actions/runs/1`,
    });
    expect(res.body.workflow_runs[0].status).toBe("failure");
    const paged = await t.ok("GET", `${API}/repos/alice/ci/actions/tasks?limit=1&page=2`, tok.alice);
    expect(paged.workflow_runs.map((x: any) => x.id)).toEqual([Number(build.id)]);
  });
});

describe("who may", () => {
  test("runs, a run's jobs and tasks are readable by anyone who may read the repository's Actions, without a token", async () => {
    expect((await t.json("GET", `${API}/repos/alice/ci/actions/runs/${first.id}`)).status).toBe(200);
    expect((await t.json("GET", `${API}/repos/alice/ci/actions/runs/${first.id}/jobs`)).status).toBe(200);
    expect((await t.json("GET", `${API}/repos/alice/ci/actions/tasks`)).status).toBe(200);
    expect((await t.json("GET", `${API}/repos/alice/hidden/actions/tasks`, { token: tok.stranger })).status).toBe(404);
  });

  test("a single job and its log need a token (401)", async () => {
    const jobs = (await t.ok("GET", `${API}/repos/alice/ci/actions/runs/${first.id}/jobs`, tok.alice)).jobs as any[];
    for (const path of [`/actions/jobs/${jobs[0].id}`, `/actions/jobs/${jobs[0].id}/logs`]) {
      const res = await t.json("GET", `${API}/repos/alice/ci${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 401 });
      expect((await t.json("GET", `${API}/repos/alice/ci${path}`, { token: tok.reader })).status).toBe(200);
    }
  });

  test("the repository's run and job lists are its owner's (Gitea 1.25's reqOwner)", async () => {
    for (const path of ["/actions/runs", "/actions/jobs"]) {
      const res = await t.json("GET", `${API}/repos/alice/ci${path}`, { token: tok.reader });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe("user should be the owner of the repo");
      expect((await t.json("GET", `${API}/repos/alice/ci${path}`)).status).toBe(401);
      expect((await t.json("GET", `${API}/repos/alice/ci${path}`, { token: tok.root })).status).toBe(200);
    }
    expect((await t.json("GET", `${API}/admin/actions/runs`, { token: tok.alice })).status).toBe(403);
  });

  test("Actions switched off for the repository: its runs are not readable (403)", async () => {
    await t.ok("POST", `${API}/user/repos`, tok.alice, { name: "noactions", auto_init: true }, 201);
    await t.ok("PATCH", `${API}/repos/alice/noactions`, tok.alice, { has_actions: false });
    const res = await t.json("GET", `${API}/repos/alice/noactions/actions/tasks`, { token: tok.reader });
    expect(res.status).toBe(403);
  });
});

describe("deleting a run", () => {
  test("a reader may not (403); an unfinished run is refused (400)", async () => {
    const res = await t.json("DELETE", `${API}/repos/alice/ci/actions/runs/${first.id}`, { token: tok.reader });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe("user should have a permission to write to a repo");
    const busy = await t.json("DELETE", `${API}/repos/alice/ci/actions/runs/${second.id}`, { token: tok.alice });
    expect(busy.status).toBe(400);
    expect(busy.body.message).toBe("this workflow run is not done");
    expect((await t.json("DELETE", `${API}/repos/alice/ci/actions/runs/999999`, { token: tok.alice })).status).toBe(404);
  });

  test("a finished run goes with its jobs, tasks and logs", async () => {
    const jobs = (await t.ok("GET", `${API}/repos/alice/ci/actions/runs/${first.id}/jobs`, tok.alice)).jobs as any[];
    const logFile = join(t.settings.server.appDataPath, "actions_log", String(repo.id), (Number(build.id) % 256).toString(16).padStart(2, "0"), `${build.id}.log.zst`);
    expect(existsSync(logFile)).toBe(true);
    expect((await t.json("DELETE", `${API}/repos/alice/ci/actions/runs/${first.id}`, { token: tok.alice })).status).toBe(204);
    expect((await t.json("GET", `${API}/repos/alice/ci/actions/runs/${first.id}`, { token: tok.alice })).status).toBe(404);
    expect((await t.json("GET", `${API}/repos/alice/ci/actions/jobs/${jobs[0].id}`, { token: tok.alice })).status).toBe(404);
    expect((await t.ok("GET", `${API}/repos/alice/ci/actions/tasks`, tok.alice)).total_count).toBe(0);
    expect(existsSync(logFile)).toBe(false);
    expect((await t.ok("GET", `${API}/repos/alice/ci/actions/runs`, tok.alice)).total_count).toBe(1);
  });
});
