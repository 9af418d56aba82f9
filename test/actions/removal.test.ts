import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { putFile, runsOf } from "../support/actions.ts";
import { MockRunner } from "../support/mock-runner.ts";
import { registrationToken } from "../../src/services/actions/runners.ts";
import { sqliteOf } from "../../src/db/client.ts";

/** What Actions keeps of a repository, a run or an account goes with it, files included. */
const t = makeTestApp("", { listen: true });
const alice = await t.user("alice");
const token = t.token(alice);
const WORKFLOW = "on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n";
const count = (table: string, where = "1") => (sqliteOf(t.env.db).query(`SELECT count(*) AS n FROM ${table} WHERE ${where}`).get() as { n: number }).n;

async function repoWithARun(name: string) {
  await t.ok("POST", "/api/v1/user/repos", token, { name, auto_init: true }, 201);
  const repo = await t.ok("GET", `/api/v1/repos/alice/${name}`, token);
  const runner = await MockRunner.register(t.baseUrl, { token: registrationToken(t.env, { repoId: repo.id }), name, labels: ["ubuntu-latest"] });
  await putFile(t, `alice/${name}`, ".gitea/workflows/ci.yml", WORKFLOW, token, "ci");
  const task = (await runner.fetchTask()).task!;
  await runner.runTask(task, { steps: [{ lines: ["log line"] }] });
  const log = (sqliteOf(t.env.db).query("SELECT log_filename AS f FROM action_task WHERE id = ?").get(Number(task.id)) as { f: string }).f;
  const file = join(t.settings.server.appDataPath, "actions_log", `${log}.zst`);
  expect(existsSync(file)).toBe(true);
  return { repo, file };
}

test("deleting a run removes its jobs, tasks and log files", async () => {
  const { repo, file } = await repoWithARun("one");
  const run = runsOf(t, repo.id)[0]!;
  await t.ok("DELETE", `/api/v1/repos/alice/one/actions/runs/${run.id}`, token, undefined, 204);
  expect(count("action_run_job", `run_id = ${run.id}`)).toBe(0);
  expect(count("action_task", `repo_id = ${repo.id}`)).toBe(0);
  expect(existsSync(file)).toBe(false);
});

test("deleting a repository removes its runs, runners and files", async () => {
  const { repo, file } = await repoWithARun("two");
  expect(count("action_runner", `repo_id = ${repo.id}`)).toBe(1);
  await t.ok("DELETE", "/api/v1/repos/alice/two", token, undefined, 204);
  for (const table of ["action_run", "action_run_job", "action_task", "action_runner", "action_runner_token", "action_schedule"]) {
    expect({ table, n: count(table, `repo_id = ${repo.id}`) }).toEqual({ table, n: 0 });
  }
  expect(existsSync(file)).toBe(false);
});

test("deleting an account removes its own runners", async () => {
  const bob = await t.user("bob");
  await MockRunner.register(t.baseUrl, { token: registrationToken(t.env, { ownerId: bob.id }), name: "bob's", labels: ["x"] });
  expect(count("action_runner", `owner_id = ${bob.id}`)).toBe(1);
  await t.ok("DELETE", "/api/v1/admin/users/bob", t.token(await t.user("root", { admin: true })), undefined, 204);
  expect(count("action_runner", `owner_id = ${bob.id}`)).toBe(0);
  expect(count("action_runner_token", `owner_id = ${bob.id}`)).toBe(0);
});
