import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { putFile as putRepoFile, settled as settledActions } from "../support/actions.ts";
import { MockRunner } from "../support/mock-runner.ts";
import { registrationToken } from "../../src/services/actions/runners.ts";
import { listRuns, jobsOfRun, runById } from "../../src/models/actions-run.ts";
import { stepsOfTask, taskById, updateTask } from "../../src/models/actions-task.ts";
import { actionsTick } from "../../src/services/actions/tick.ts";
import { writeTx } from "../../src/db/client.ts";
import { ActionStatus } from "../../src/db/schema/index.ts";
import { Result } from "../../src/http/runner/gen/runner/v1/messages_pb.ts";

/**
 * Gitea's clear_tasks.go on the cron tick, called here with the time it runs at: a task whose
 * runner went silent for ZOMBIE_TASK_TIMEOUT fails, one running longer than ENDLESS_TASK_TIMEOUT
 * fails however busy its runner is, a job nobody took for ABANDONED_JOB_TIMEOUT is cancelled; each
 * with its run settled in the same change, so dependent jobs are skipped and commit statuses follow.
 */
const t = makeTestApp("[actions]\nZOMBIE_TASK_TIMEOUT = 10m\nENDLESS_TASK_TIMEOUT = 3h\nABANDONED_JOB_TIMEOUT = 24h\n", { listen: true });
const alice = await t.user("alice");
const token = t.token(alice);
await t.ok("POST", "/api/v1/user/repos", token, { name: "ci", auto_init: true }, 201);
const repo = await t.ok("GET", "/api/v1/repos/alice/ci", token);

const settled = () => settledActions(t);
const putFile = (path: string, content: string, message: string) => putRepoFile(t, "alice/ci", path, content, token, message);

const latestRun = () => listRuns(t.env.db, { repoId: repo.id }, { offset: 0, limit: 1 }).rows[0]!;

const TWO_JOBS = (label: string) => `name: CI
on: push
jobs:
  build:
    runs-on: ${label}
    steps:
      - name: compile
        run: make
      - name: package
        run: make dist
  test:
    needs: build
    runs-on: ${label}
    steps:
      - run: make test
`;

const runner = await MockRunner.register(t.baseUrl, {
  token: registrationToken(t.env, { repoId: repo.id }),
  name: "runner-1",
  labels: ["ubuntu-latest:docker://node:20"],
});

describe("stale tasks and jobs", () => {
  test("a task whose runner stopped reporting fails after ZOMBIE_TASK_TIMEOUT, with its steps, job and run", async () => {
    const sha = await putFile(".gitea/workflows/ci.yml", TWO_JOBS("ubuntu-latest"), "add CI");
    const task = (await runner.fetchTask()).task!;
    expect(task).toBeDefined();
    // One step reported started, then silence.
    await runner.updateTask({ id: task.id, steps: [{ id: 0n, result: Result.UNSPECIFIED, startedAt: { seconds: BigInt(Math.floor(Date.now() / 1000)) } }] });
    const row = taskById(t.env.db, Number(task.id))!;
    expect(row.status).toBe(ActionStatus.Running);

    expect(await actionsTick(t.env, row.updatedUnix + 600)).toMatchObject({ zombies: 0, endless: 0 });
    expect(taskById(t.env.db, row.id)!.status).toBe(ActionStatus.Running);

    const now = row.updatedUnix + 601;
    expect((await actionsTick(t.env, now)).zombies).toBe(1);
    const failed = taskById(t.env.db, row.id)!;
    expect(failed).toMatchObject({ status: ActionStatus.Failure, stoppedUnix: now, tokenHash: "", logCompressed: true });
    expect(stepsOfTask(t.env.db, row.id).map((s) => [s.name, s.status, s.stoppedUnix])).toEqual([
      ["compile", ActionStatus.Failure, now],
      ["package", ActionStatus.Failure, now],
    ]);
    const run = latestRun();
    expect(run.commitSha).toBe(sha);
    expect(run).toMatchObject({ status: ActionStatus.Failure, stoppedUnix: now });
    // The job that needed it is skipped in the same change.
    expect(jobsOfRun(t.env.db, run.id).map((j) => [j.jobId, j.status])).toEqual([
      ["build", ActionStatus.Failure],
      ["test", ActionStatus.Skipped],
    ]);
    // The runner hears of it on its next report; the task's token is gone.
    const answer = await runner.updateTask({ id: task.id, result: Result.UNSPECIFIED });
    expect(answer.state?.result).toBe(Result.FAILURE);
    // Commit statuses follow from the settled run.
    await settled();
    const statuses = await t.ok("GET", `/api/v1/repos/alice/ci/commits/${sha}/statuses`, token);
    expect(statuses.find((s: any) => s.context === "CI / build (push)")).toMatchObject({ status: "failure" });
  });

  test("a task running longer than ENDLESS_TASK_TIMEOUT fails even while its runner reports", async () => {
    await putFile("a.txt", "a\n", "second run");
    const task = (await runner.fetchTask()).task!;
    const row = taskById(t.env.db, Number(task.id))!;
    const now = row.startedUnix + 3 * 3600 + 1;
    // Heard from a second ago: no zombie.
    writeTx(t.env.db, (tx) => updateTask(tx, row.id, { updatedUnix: now - 1 }));
    expect(await actionsTick(t.env, now - 2)).toMatchObject({ zombies: 0, endless: 0 });
    expect(await actionsTick(t.env, now)).toMatchObject({ zombies: 0, endless: 1 });
    expect(taskById(t.env.db, row.id)!.status).toBe(ActionStatus.Failure);
    expect(runById(t.env.db, latestRun().id)!.status).toBe(ActionStatus.Failure);
  });

  test("jobs no runner takes for ABANDONED_JOB_TIMEOUT are cancelled, and their run with them", async () => {
    await putFile(".gitea/workflows/ci.yml", TWO_JOBS("gpu"), "needs a gpu");
    const run = latestRun();
    const jobs = jobsOfRun(t.env.db, run.id);
    expect(jobs.map((j) => j.status)).toEqual([ActionStatus.Waiting, ActionStatus.Blocked]);
    expect((await runner.fetchTask()).task).toBeUndefined();
    const since = Math.max(...jobs.map((j) => j.updatedUnix));
    expect((await actionsTick(t.env, since + 24 * 3600)).abandoned).toBe(0);
    const now = since + 24 * 3600 + 1;
    expect((await actionsTick(t.env, now)).abandoned).toBe(2);
    expect(jobsOfRun(t.env.db, run.id).map((j) => [j.status, j.stoppedUnix])).toEqual([
      [ActionStatus.Cancelled, now],
      [ActionStatus.Cancelled, now],
    ]);
    expect(runById(t.env.db, run.id)).toMatchObject({ status: ActionStatus.Cancelled, stoppedUnix: now });
    // Finished work is left alone on later ticks.
    expect(await actionsTick(t.env, now + 10 * 24 * 3600)).toMatchObject({ zombies: 0, endless: 0, abandoned: 0 });
  });
});
