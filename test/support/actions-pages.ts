/**
 * A repository with finished workflow runs for the Actions pages' tests: a workflow pushed with
 * git starts a run, a runner speaking act_runner's protocol plays its jobs back.
 */
import { mkdtempSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestApp } from "./app.ts";
import { authUrl, gitOk } from "./git.ts";
import { MockRunner, type TaskReport, type TaskScript } from "./mock-runner.ts";
import type { ActionRunRow } from "../../src/db/schema/index.ts";
import { listRuns } from "../../src/models/actions-run.ts";
import { eventsIdle } from "../../src/services/events/bus.ts";
import { refAnnouncementsIdle } from "../../src/services/repo/push-events.ts";

/** Two jobs, the second needing the first: the run page has a job list and needs to show. */
export const CI_WORKFLOW = `name: CI
on: [push]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: echo build
      - run: echo check
  test:
    needs: build
    runs-on: ubuntu-latest
    steps:
      - run: echo test
`;

/** Commits `files` on `main` of `owner/repo` with the real git client and pushes them as `owner`. */
export async function pushFiles(t: TestApp & { baseUrl: string }, owner: string, repo: string, files: Record<string, string>, message: string): Promise<void> {
  const dir = join(mkdtempSync(join(tmpdir(), "hearth-actions-")), "w");
  await gitOk(["clone", "-q", authUrl(t.baseUrl, `/${owner}/${repo}.git`, owner, "password123"), dir]);
  for (const [name, content] of Object.entries(files)) {
    await mkdir(join(dir, name, ".."), { recursive: true });
    await Bun.write(join(dir, name), content);
    await gitOk(["add", name], { cwd: dir });
  }
  await gitOk(["commit", "-q", "-m", message], { cwd: dir });
  await gitOk(["push", "-q", "origin", "main"], { cwd: dir });
}

/** Waits until the repository has at least `n` runs (pushes start them in the background). */
export async function waitForRuns(t: TestApp, repoId: number, n: number): Promise<ActionRunRow[]> {
  for (let i = 0; i < 250; i++) {
    await refAnnouncementsIdle(t.env);
    await eventsIdle(t.env);
    const { rows } = listRuns(t.env.db, { repoId }, { offset: 0, limit: 100 });
    if (rows.length >= n) return rows;
    await Bun.sleep(20);
  }
  throw new Error(`repository ${repoId} never had ${n} runs`);
}

/** A runner registered for `ownerId`'s repositories with the `ubuntu-latest` label. */
export async function ownerRunner(t: TestApp & { baseUrl: string }, ownerId: number): Promise<MockRunner> {
  const { registrationToken } = await import("../../src/services/actions/runners.ts");
  const runner = await MockRunner.register(t.baseUrl, { token: registrationToken(t.env, { ownerId }), name: "mock", labels: ["ubuntu-latest"] });
  await runner.declare(["ubuntu-latest"]);
  return runner;
}

/** Takes the runner's next task and plays `script` back as act_runner would. */
export async function runNextTask(t: TestApp, runner: MockRunner, script: TaskScript): Promise<TaskReport> {
  const res = await runner.fetchTask();
  if (!res.task) throw new Error("no task for the runner");
  const report = await runner.runTask(res.task, script);
  await eventsIdle(t.env);
  return report;
}
