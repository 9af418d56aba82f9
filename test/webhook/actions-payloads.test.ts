import { afterAll, describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { settled as settledActions } from "../support/actions.ts";
import { MockRunner } from "../support/mock-runner.ts";
import { listHookTasks } from "../../src/models/webhook.ts";
import { registrationToken } from "../../src/services/actions/runners.ts";
import { listRuns } from "../../src/models/actions-run.ts";
import { taskById } from "../../src/models/actions-task.ts";
import { rerun } from "../../src/services/actions/cancel.ts";
import { actionsTick } from "../../src/services/actions/tick.ts";
import { ActionStatus } from "../../src/db/schema/index.ts";
import { workflowJobAction, workflowRunAction } from "../../src/services/webhook/notifier/actions.ts";

/**
 * The `workflow_run` and `workflow_job` webhooks (Gitea 1.25's WorkflowRunStatusUpdate and
 * WorkflowJobStatusUpdate): a run's creation and every change of its jobs reach the hooks that
 * chose them, with GitHub's actions and the run, job and workflow as the API shows them. Chat-type
 * hooks have no message for them, as in Gitea.
 */
const receiver = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("ok") });
afterAll(() => receiver.stop(true));
const t = makeTestApp("[webhook]\nALLOWED_HOST_LIST = loopback\n", { listen: true });
const alice = await t.user("alice");
const token = t.token(alice);
await t.ok("POST", "/api/v1/orgs", token, { username: "acme" }, 201);
await t.ok("POST", "/api/v1/orgs/acme/repos", token, { name: "ci", auto_init: true }, 201);
const repo = await t.ok("GET", "/api/v1/repos/acme/ci", token);

const hookBody = (events: string[], type = "gitea") => ({
  type,
  config: { url: `http://127.0.0.1:${receiver.port}/hook`, content_type: "json" },
  events,
  active: true,
});
const both = (await t.ok("POST", "/api/v1/repos/acme/ci/hooks", token, hookBody(["workflow_run", "workflow_job"]), 201)).id as number;
const runsOnly = (await t.ok("POST", "/api/v1/repos/acme/ci/hooks", token, hookBody(["workflow_run"]), 201)).id as number;
const pushOnly = (await t.ok("POST", "/api/v1/repos/acme/ci/hooks", token, hookBody(["push"]), 201)).id as number;
const slack = (await t.ok("POST", "/api/v1/repos/acme/ci/hooks", token, { ...hookBody(["workflow_job"], "slack"), config: { url: `http://127.0.0.1:${receiver.port}/slack`, content_type: "json", channel: "#ci" } }, 201)).id as number;

const settled = () => settledActions(t);

const seen = new Map<number, number>();
/** The hook's tasks since the last look, oldest first. */
function newTasks(hookId: number): { event: string; payload: any; task: ReturnType<typeof listHookTasks>["rows"][number] }[] {
  const rows = listHookTasks(t.env.db, hookId, { offset: 0, limit: 100 }).rows.filter((r) => r.id > (seen.get(hookId) ?? 0));
  if (rows[0]) seen.set(hookId, rows[0].id);
  return rows.reverse().map((r) => ({ event: r.eventType, payload: JSON.parse(r.payloadContent), task: r }));
}
const summary = (hookId: number) =>
  newTasks(hookId).map(({ event, payload }) =>
    event === "workflow_run" ? [event, payload.action, payload.workflow_run.status, payload.workflow_run.conclusion ?? ""] : [event, payload.action, payload.workflow_job.name, payload.workflow_job.conclusion ?? ""],
  );

const b64 = (s: string) => Buffer.from(s).toString("base64");

const WORKFLOW = `name: CI
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - name: compile
        run: make
  test:
    needs: build
    runs-on: ubuntu-latest
    steps:
      - run: make test
`;

const runner = await MockRunner.register(t.baseUrl, {
  token: registrationToken(t.env, { repoId: repo.id }),
  name: "runner-1",
  labels: ["ubuntu-latest:docker://node:20"],
});

describe("workflow_run and workflow_job webhooks", () => {
  let sha = "";

  test("the actions as Gitea names them", () => {
    expect([ActionStatus.Waiting, ActionStatus.Blocked, ActionStatus.Running, ActionStatus.Success, ActionStatus.Cancelled].map(workflowRunAction)).toEqual([
      "requested",
      "requested",
      "in_progress",
      "completed",
      "completed",
    ]);
    expect([ActionStatus.Waiting, ActionStatus.Blocked, ActionStatus.Running, ActionStatus.Failure, ActionStatus.Skipped].map(workflowJobAction)).toEqual([
      "queued",
      "waiting",
      "in_progress",
      "completed",
      "completed",
    ]);
  });

  test("a new run announces itself as requested, then each job as queued or waiting", async () => {
    const res = await t.json("POST", "/api/v1/repos/acme/ci/contents/.gitea/workflows/ci.yml", { token, body: { content: b64(WORKFLOW), message: "add CI" } });
    expect(res.status).toBe(201);
    sha = res.body.commit.sha;
    await settled();
    const tasks = newTasks(both);
    expect(tasks.map((x) => [x.event, x.payload.action])).toEqual([
      ["workflow_run", "requested"],
      ["workflow_job", "queued"],
      ["workflow_job", "waiting"],
    ]);
    const run = tasks[0]!.payload;
    expect(Object.keys(run)).toEqual(["action", "workflow", "workflow_run", "organization", "repository", "sender"]);
    expect(run.workflow).toMatchObject({ id: "ci.yml", name: "CI", path: ".gitea/workflows/ci.yml", state: "active" });
    const [row] = listRuns(t.env.db, { repoId: repo.id }, { offset: 0, limit: 1 }).rows;
    expect(run.workflow_run).toMatchObject({ id: row!.id, run_number: 1, event: "push", head_sha: sha, head_branch: "main", status: "queued", display_title: "add CI" });
    expect(run.workflow_run.html_url).toBe(`${t.baseUrl}acme/ci/actions/runs/1`);
    expect(run.organization).toMatchObject({ username: "acme" });
    expect(run.repository).toMatchObject({ full_name: "acme/ci", permissions: { admin: true } });
    expect(run.sender.login).toBe("alice");

    const job = tasks[1]!.payload;
    expect(Object.keys(job)).toEqual(["action", "workflow_job", "organization", "repository", "sender"]);
    expect(job.workflow_job).toMatchObject({ name: "build", status: "queued", run_id: row!.id, head_sha: sha, labels: ["ubuntu-latest"], steps: null });
    expect(job.workflow_job.html_url).toBe(`${t.baseUrl}acme/ci/actions/runs/1/jobs/0`);
    expect(tasks[2]!.payload.workflow_job).toMatchObject({ name: "test", status: "waiting" });

    // Delivered with the event's own name in Gitea's headers.
    for (let i = 0; i < 200 && !listHookTasks(t.env.db, both, { offset: 0, limit: 100 }).rows.every((r) => r.isDelivered); i++) await Bun.sleep(10);
    const sent = listHookTasks(t.env.db, both, { offset: 0, limit: 100 }).rows.reverse();
    expect(sent.map((r) => [r.isSucceed, JSON.parse(r.requestContent).headers["X-Gitea-Event"]])).toEqual([
      [true, "workflow_run"],
      [true, "workflow_job"],
      [true, "workflow_job"],
    ]);

    // A hook that chose only workflow_run gets the run; one that chose push gets the push only.
    expect(summary(runsOnly)).toEqual([["workflow_run", "requested", "queued", ""]]);
    expect(newTasks(pushOnly).map((x) => x.event)).toEqual(["push"]);
  });

  test("a runner taking the first job: the job is in progress, then the run", async () => {
    const task = (await runner.fetchTask()).task!;
    await settled();
    expect(summary(both)).toEqual([
      ["workflow_job", "in_progress", "build", ""],
      ["workflow_run", "in_progress", "in_progress", ""],
    ]);
    const [tasks] = [newTasks(runsOnly)];
    expect(tasks.map((x) => x.payload.action)).toEqual(["in_progress"]);

    await runner.runTask(task, { steps: [{ lines: ["ok"] }] });
    await settled();
    const done = newTasks(both);
    expect(done.map((x) => [x.payload.action, x.payload.workflow_job.name, x.payload.workflow_job.conclusion ?? ""])).toEqual([
      ["completed", "build", "success"],
      ["queued", "test", ""],
    ]);
    expect(done[0]!.payload.workflow_job).toMatchObject({ runner_name: "runner-1", steps: [{ name: "compile", number: 0, status: "completed", conclusion: "success" }] });
  });

  test("the last job failing completes the run with its conclusion", async () => {
    const task = (await runner.fetchTask()).task!;
    await settled();
    expect(summary(both)).toEqual([
      ["workflow_job", "in_progress", "test", ""],
    ]);
    await runner.runTask(task, { steps: [{ lines: ["boom"], result: "failure" }] });
    await settled();
    expect(summary(both)).toEqual([
      ["workflow_job", "completed", "test", "failure"],
      ["workflow_run", "completed", "completed", "failure"],
    ]);
    expect(summary(runsOnly)).toEqual([["workflow_run", "completed", "completed", "failure"]]);
  });

  test("a re-run is requested again; the cron failing its silent task completes it", async () => {
    const [row] = listRuns(t.env.db, { repoId: repo.id }, { offset: 0, limit: 1 }).rows;
    rerun(t.env, row!);
    await settled();
    expect(summary(both)).toEqual([
      ["workflow_job", "queued", "build", ""],
      ["workflow_job", "waiting", "test", ""],
      ["workflow_run", "requested", "queued", ""],
    ]);
    const task = (await runner.fetchTask()).task!;
    await settled();
    const started = newTasks(both);
    expect(started.map((x) => [x.event, x.payload.action])).toEqual([
      ["workflow_job", "in_progress"],
      ["workflow_run", "in_progress"],
    ]);
    expect(started[0]!.payload.workflow_job.run_attempt).toBe(2);
    const silent = taskById(t.env.db, Number(task.id))!;
    await actionsTick(t.env, silent.updatedUnix + t.settings.actions.zombieTaskTimeout + 1);
    await settled();
    expect(summary(both)).toEqual([
      ["workflow_job", "completed", "build", "failure"],
      ["workflow_job", "completed", "test", "skipped"],
      ["workflow_run", "completed", "completed", "failure"],
    ]);
  });

  test("a chat-type hook has no message for them: its deliveries fail as Gitea's newPayload does", async () => {
    // The first attempt of each is recorded (deliveries run in the background).
    for (let i = 0; i < 200; i++) {
      const rows = listHookTasks(t.env.db, slack, { offset: 0, limit: 100 }).rows;
      if (rows.length > 0 && rows.every((r) => r.isDelivered)) break;
      await Bun.sleep(10);
    }
    const tasks = newTasks(slack);
    expect(tasks.length).toBeGreaterThan(0);
    expect(tasks.every((x) => x.event === "workflow_job")).toBe(true);
    for (const { task } of tasks) {
      expect(task).toMatchObject({ isDelivered: true, isSucceed: false });
      expect(task.responseContent).toContain("newPayload unsupported event: workflow_job");
    }
  });

  test("a run of a workflow the default branch does not have announces its jobs only, as Gitea's GetActionWorkflow fails", async () => {
    await t.ok("POST", "/api/v1/repos/acme/ci/branches", token, { new_branch_name: "feature", old_branch_name: "main" }, 201);
    await settled();
    newTasks(both);
    const res = await t.json("POST", "/api/v1/repos/acme/ci/contents/.gitea/workflows/lint.yml", {
      token,
      body: { content: b64(WORKFLOW.replace("name: CI", "name: Lint")), message: "add lint", branch: "feature" },
    });
    expect(res.status).toBe(201);
    await settled();
    const tasks = newTasks(both);
    // The push to feature runs ci.yml (on the default branch too) and lint.yml (not there).
    expect(tasks.filter((x) => x.event === "workflow_job").map((x) => x.payload.workflow_job.name)).toEqual(["build", "test", "build", "test"]);
    expect(tasks.filter((x) => x.event === "workflow_run").map((x) => [x.payload.workflow.id, x.payload.workflow_run.head_branch])).toEqual([["ci.yml", "feature"]]);
  });
});
