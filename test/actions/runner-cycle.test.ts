import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConnectError } from "@connectrpc/connect";
import { makeTestApp } from "../support/app.ts";
import { settled as settledActions } from "../support/actions.ts";
import { MockRunner } from "../support/mock-runner.ts";
import { authUrl, gitOk } from "../support/git.ts";
import { Result, type Task } from "../../src/http/runner/gen/runner/v1/messages_pb.ts";
import { registrationToken } from "../../src/services/actions/runners.ts";
import { listRuns, jobsOfRun } from "../../src/models/actions-run.ts";
import { taskById } from "../../src/models/actions-task.ts";
import { actionLogs } from "../../src/services/actions/tasks.ts";
import { rerun } from "../../src/services/actions/cancel.ts";
import { ActionStatus } from "../../src/db/schema/index.ts";

/**
 * Full cycles over the real runner protocol (binary Connect, as act_runner speaks it): a pushed
 * workflow becomes a run whose tasks a registered runner fetches with their context, secrets,
 * variables and token, runs, and reports (steps, outputs, logs); commit statuses follow; the
 * Actions bot's own pushes start nothing.
 */
const t = makeTestApp("", { listen: true });
const alice = await t.user("alice");
const bob = await t.user("bob");
const aliceToken = t.token(alice);
const bobToken = t.token(bob);
await t.ok("POST", "/api/v1/user/repos", aliceToken, { name: "ci", auto_init: true }, 201);
const repo = await t.ok("GET", "/api/v1/repos/alice/ci", aliceToken);
await t.ok("PUT", "/api/v1/repos/alice/ci/actions/secrets/DEPLOY_KEY", aliceToken, { data: "s3cr3t" }, 201);
await t.ok("POST", "/api/v1/repos/alice/ci/actions/variables/TARGET", aliceToken, { value: "staging" }, 201);

const settled = () => settledActions(t);

const b64 = (s: string) => Buffer.from(s).toString("base64");

async function putFile(path: string, content: string, token: string, message: string): Promise<string> {
  const existing = await t.json("GET", `/api/v1/repos/alice/ci/contents/${path}`, { token });
  const body = { content: b64(content), message, ...(existing.status === 200 ? { sha: existing.body.sha } : {}) };
  const res = await t.json(existing.status === 200 ? "PUT" : "POST", `/api/v1/repos/alice/ci/contents/${path}`, { token, body });
  expect(res.status).toBeOneOf([200, 201]);
  await settled();
  return res.body.commit.sha as string;
}

const runsOf = (repoId = repo.id as number) => listRuns(t.env.db, { repoId }, { offset: 0, limit: 100 }).rows;

const WORKFLOW = `name: CI
on:
  push:
    branches: [main]
jobs:
  build:
    runs-on: ubuntu-latest
    outputs:
      artifact: \${{ steps.pack.outputs.name }}
    steps:
      - name: Say hello
        run: echo hello
      - id: pack
        run: echo "name=app.tar" >> "$GITHUB_OUTPUT"
  test:
    needs: build
    runs-on: ubuntu-latest
    steps:
      - run: echo test \${{ needs.build.outputs.artifact }}
`;

const runner = await MockRunner.register(t.baseUrl, {
  token: registrationToken(t.env, { repoId: repo.id }),
  name: "runner-1",
  labels: ["ubuntu-latest:docker://node:20"],
});

describe("a pushed workflow runs on the runner", () => {
  let sha = "";
  let build: Task;

  test("the push creates a run with a waiting and a blocked job", async () => {
    sha = await putFile(".gitea/workflows/ci.yml", WORKFLOW, aliceToken, "add CI");
    const runs = runsOf();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ workflowId: "ci.yml", commitSha: sha, event: "push", triggerEvent: "push", index: 1, title: "add CI" });
    const jobs = jobsOfRun(t.env.db, runs[0]!.id);
    expect(jobs.map((j) => [j.jobId, j.status])).toEqual([
      ["build", ActionStatus.Waiting],
      ["test", ActionStatus.Blocked],
    ]);
  });

  test("the runner gets the build task with context, secrets, variables and a token", async () => {
    const res = await runner.fetchTask();
    expect(res.task).toBeDefined();
    build = res.task!;
    const payload = new TextDecoder().decode(build.workflowPayload);
    expect(payload).toContain("build:");
    expect(payload).not.toContain("test:");
    const ctx = build.context as Record<string, any>;
    expect(ctx).toMatchObject({ event_name: "push", ref: "refs/heads/main", sha, repository: "alice/ci", actor: "alice", job: "build", run_number: "1" });
    expect(ctx.event.head_commit.id).toBe(sha);
    expect(typeof ctx.token).toBe("string");
    expect(build.secrets.DEPLOY_KEY).toBe("s3cr3t");
    expect(build.secrets.GITEA_TOKEN).toBe(ctx.token);
    expect(build.secrets.GITHUB_TOKEN).toBe(ctx.token);
    expect(build.vars.TARGET).toBe("staging");
    // Nothing else is runnable: the test job waits for build.
    expect((await runner.fetchTask()).task).toBeUndefined();
  });

  test("the task token is the Actions bot, limited to the task's repository", async () => {
    const token = (build.context as Record<string, any>).token as string;
    const me = await t.json("GET", "/api/v1/user", { token });
    expect(me.body).toMatchObject({ id: -2, login: "gitea-actions" });
    expect((await t.json("GET", "/api/v1/repos/alice/ci", { token })).status).toBe(200);
    await t.ok("POST", "/api/v1/user/repos", bobToken, { name: "secret-stuff", private: true }, 201);
    expect((await t.json("GET", "/api/v1/repos/bob/secret-stuff", { token })).status).toBe(404);
  });

  test("the bot's push starts no run; the same push by a user does", async () => {
    const token = (build.context as Record<string, any>).token as string;
    const before = runsOf().length;
    await putFile("from-bot.txt", "bot\n", token, "bot change");
    expect(runsOf().length).toBe(before);
    // Over git too: a push with the task token as the password.
    const work = mkdtempSync(join(tmpdir(), "hearth-bot-"));
    await gitOk(["clone", "-q", authUrl(t.baseUrl, "alice/ci.git", "x-access-token", token), work]);
    await Bun.write(join(work, "git-bot.txt"), "bot over git\n");
    await gitOk(["add", "git-bot.txt"], { cwd: work });
    await gitOk(["-c", "user.name=bot", "-c", "user.email=bot@example.com", "commit", "-qm", "bot over git"], { cwd: work });
    await gitOk(["push", "-q", "origin", "main"], { cwd: work });
    await settled();
    expect(runsOf().length).toBe(before);
    await putFile("from-alice.txt", "alice\n", aliceToken, "alice change");
    expect(runsOf().length).toBe(before + 1);
  });

  test("the runner reports steps, outputs and logs; the next job gets the needs' outputs", async () => {
    const report = await runner.runTask(build, {
      setupLines: ["set up job"],
      steps: [{ lines: ["hello"] }, { lines: ["packing"] }],
      outputs: { artifact: "app.tar" },
    });
    expect(report.sentOutputs).toEqual(["artifact"]);
    const task = taskById(t.env.db, Number(build.id))!;
    expect(task.status).toBe(ActionStatus.Success);
    expect(task.logCompressed).toBe(true);
    const rows = await actionLogs(t.env).read(task.logFilename);
    expect(rows.map((r) => r.content)).toEqual(report.rows.map((r) => r.content));
    expect(rows.map((r) => r.content)).toContain("hello");
    await settled();
    const next = (await runner.fetchTask()).task!;
    expect(next).toBeDefined();
    expect((next.context as Record<string, any>).job).toBe("test");
    expect(next.needs.build?.outputs).toEqual({ artifact: "app.tar" });
    expect(next.needs.build?.result).toBe(Result.SUCCESS);
    await runner.runTask(next, { steps: [{ lines: ["failing"], result: "failure" }] });
    await settled();
    const run = runsOf().find((r) => r.commitSha === sha)!;
    expect(run.status).toBe(ActionStatus.Failure);
  });

  test("each job's commit status is `{workflow} / {job} ({event})`, by the Actions bot", async () => {
    const statuses = await t.ok("GET", `/api/v1/repos/alice/ci/commits/${sha}/statuses`, aliceToken);
    // Newest first: the first of each context is its current state.
    const byContext = new Map<string, any>();
    for (const s of statuses) if (!byContext.has(s.context)) byContext.set(s.context, s);
    expect(byContext.get("CI / build (push)")).toMatchObject({ status: "success", creator: { login: "gitea-actions" } });
    expect(byContext.get("CI / test (push)")).toMatchObject({ status: "failure" });
    expect((byContext.get("CI / build (push)") as any).target_url).toBe(`${t.baseUrl}alice/ci/actions/runs/1/jobs/0`);
  });

  test("a log batch sent twice is stored once", async () => {
    const task = taskById(t.env.db, Number(build.id))!;
    const rows = await actionLogs(t.env).read(task.logFilename);
    const again = await runner.updateLog(build.id, 0n, [], true);
    expect(Number(again.ackIndex)).toBe(rows.length);
  });

  test("a re-run starts the jobs over as a new attempt", async () => {
    const run = runsOf().find((r) => r.commitSha === sha)!;
    rerun(t.env, run);
    await settled();
    const task = (await runner.fetchTask()).task!;
    expect((task.context as Record<string, any>).job).toBe("build");
    expect((task.context as Record<string, any>).run_attempt).toBe("2");
    await runner.runTask(task, { steps: [{}, {}] });
  });
});

describe("the runner protocol refuses", () => {
  test("a wrong runner token", async () => {
    const impostor = MockRunner.withCredentials(t.baseUrl, { uuid: runner.uuid, token: "0".repeat(40) });
    const err = await impostor.fetchTask().catch((e) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(16); // Code.Unauthenticated
  });

  test("a registration token used twice", async () => {
    const token = registrationToken(t.env, { repoId: repo.id });
    await MockRunner.register(t.baseUrl, { token, name: "once", labels: ["x"] });
    const err = await MockRunner.register(t.baseUrl, { token, name: "twice", labels: ["x"] }).catch((e) => e);
    expect(err).toBeInstanceOf(ConnectError);
    // A fresh one is handed out afterwards.
    expect(registrationToken(t.env, { repoId: repo.id })).not.toBe(token);
  });

  test("another runner's task", async () => {
    await putFile("again.txt", "x\n", aliceToken, "again");
    const other = await MockRunner.register(t.baseUrl, { token: registrationToken(t.env, { repoId: repo.id }), name: "other", labels: ["ubuntu-latest"] });
    const task = (await runner.fetchTask()).task!;
    const err = await other.updateTask({ id: task.id, result: Result.SUCCESS }).catch((e) => e);
    expect(err).toBeInstanceOf(ConnectError);
    await runner.runTask(task, { steps: [{}, {}] });
  });
});

describe("a pull request from a fork", () => {
  test("runs without the repository's secrets", async () => {
    await putFile(
      ".gitea/workflows/pr.yml",
      "on: pull_request\njobs:\n  check:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo pr\n",
      aliceToken,
      "add PR workflow",
    );
    // Drain the push's own run first.
    for (let task = (await runner.fetchTask()).task; task; task = (await runner.fetchTask()).task) {
      await runner.runTask(task, { steps: [{}, {}] });
      await settled();
    }
    await t.ok("POST", "/api/v1/repos/alice/ci/forks", bobToken, {}, 202);
    const b = await t.json("GET", "/api/v1/repos/bob/ci/contents/README.md", { token: bobToken });
    await t.ok("PUT", "/api/v1/repos/bob/ci/contents/README.md", bobToken, { content: b64("changed by bob\n"), message: "bob's change", sha: b.body.sha }, 200);
    await settled();
    await t.ok("POST", "/api/v1/repos/alice/ci/pulls", bobToken, { head: "bob:main", base: "main", title: "Bob's PR" }, 201);
    await settled();
    const task = (await runner.fetchTask()).task!;
    expect(task).toBeDefined();
    const ctx = task.context as Record<string, any>;
    expect(ctx.event_name).toBe("pull_request");
    expect(ctx.head_ref).toBe("main");
    expect(task.secrets.DEPLOY_KEY).toBeUndefined();
    expect(task.secrets.GITEA_TOKEN).toBe(ctx.token);
    // The fork's token may read, not write, the base repository.
    expect((await t.json("GET", "/api/v1/repos/alice/ci/branches/main", { token: ctx.token })).status).toBe(200);
    const write = await t.json("POST", "/api/v1/repos/alice/ci/branches", { token: ctx.token, body: { new_branch_name: "from-fork-job" } });
    expect(write.status).toBe(403);
    await runner.runTask(task, { steps: [{}] });
  });
});
