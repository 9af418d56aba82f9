import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { putFile, runsOf, jobsOf } from "../support/actions.ts";
import { MockRunner } from "../support/mock-runner.ts";
import { registrationToken } from "../../src/services/actions/runners.ts";
import { ActionStatus } from "../../src/db/schema/index.ts";
import { getRunner } from "../../src/services/actions/runners.ts";

/**
 * The runner door over the wire: Connect JSON as well as binary, Connect errors for bad calls,
 * the tasks version that spares a runner's polls a query, ephemeral runners, and nothing
 * answered with a 5xx.
 */
const t = makeTestApp("", { listen: true });
const alice = await t.user("alice");
const token = t.token(alice);
await t.ok("POST", "/api/v1/user/repos", token, { name: "p", auto_init: true }, 201);
const repo = await t.ok("GET", "/api/v1/repos/alice/p", token);
const regToken = () => registrationToken(t.env, { repoId: repo.id });
const WORKFLOW = "on: push\njobs:\n  one:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo one\n";

describe("Connect JSON", () => {
  test("Register, Declare and FetchTask answer JSON with protobuf's JSON names", async () => {
    const reg = await MockRunner.call(t.baseUrl, "Register", { name: "json-runner", token: regToken(), labels: ["ubuntu-latest"], version: "v0.2.13" });
    expect(reg.status).toBe(200);
    expect(reg.headers.get("content-type")).toStartWith("application/json");
    const { runner } = (await reg.json()) as { runner: { id: string; uuid: string; token: string; labels: string[] } };
    expect(runner.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(runner.token).toMatch(/^[0-9a-f]{40}$/);
    expect(runner.labels).toEqual(["ubuntu-latest"]);
    const headers = { "x-runner-uuid": runner.uuid, "x-runner-token": runner.token };
    const declared = await MockRunner.call(t.baseUrl, "Declare", { version: "v0.2.14", labels: ["ubuntu-latest", "self-hosted"] }, headers);
    expect(((await declared.json()) as any).runner.labels).toEqual(["ubuntu-latest", "self-hosted"]);
    const fetched = await MockRunner.call(t.baseUrl, "FetchTask", {}, headers);
    expect(fetched.status).toBe(200);
    expect(((await fetched.json()) as any).tasksVersion).toMatch(/^\d+$/);
  });

  test("Ping answers as Gitea does", async () => {
    const res = await MockRunner.call(t.baseUrl, "ping.v1.PingService/Ping", { data: "hearth" });
    expect(await res.json()).toEqual({ data: "Hello, hearth!" });
  });
});

describe("bad calls get Connect errors, never a 5xx", () => {
  test("no credentials, unknown runner, wrong token", async () => {
    const attempts: Record<string, string>[] = [{}, { "x-runner-uuid": crypto.randomUUID(), "x-runner-token": "a".repeat(40) }];
    for (const headers of attempts) {
      const res = await MockRunner.call(t.baseUrl, "FetchTask", {}, headers);
      expect(res.status).toBe(401);
      expect(((await res.json()) as any).code).toBe("unauthenticated");
    }
  });

  test("an unknown registration token", async () => {
    const res = await MockRunner.call(t.baseUrl, "Register", { name: "x", token: "nope" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).code).toBe("invalid_argument");
  });

  test("malformed bodies and unknown procedures", async () => {
    const runner = await MockRunner.register(t.baseUrl, { token: regToken(), name: "bad", labels: ["x"] });
    const garbage = await runner.call("UpdateTask", new Uint8Array([0xff, 0xff, 0xff, 0x01]));
    expect(garbage.status).toBe(400);
    const badJson = await runner.call("UpdateLog", "{not json");
    expect(badJson.status).toBe(400);
    const noState = await runner.call("UpdateTask", {});
    expect(noState.status).toBeLessThan(500);
    const unknownTask = await runner.call("UpdateLog", { taskId: "999999", index: "0", rows: [{ content: "x" }] });
    expect(unknownTask.status).toBe(404);
    const unknown = await runner.call("runner.v1.RunnerService/Nope", {});
    expect(unknown.status).toBe(404);
    const get = await fetch(`${t.baseUrl}api/actions/runner.v1.RunnerService/FetchTask`);
    expect(get.status).toBe(405);
  });
});

describe("tasks version", () => {
  test("a poll with the version it was given gets no task until something becomes runnable", async () => {
    const runner = await MockRunner.register(t.baseUrl, { token: regToken(), name: "poller", labels: ["ubuntu-latest"] });
    const first = await runner.fetchTask();
    expect(first.task).toBeUndefined();
    const again = await runner.fetchTask(first.tasksVersion);
    expect(again.task).toBeUndefined();
    expect(again.tasksVersion).toBe(first.tasksVersion);
    await putFile(t, "alice/p", ".gitea/workflows/one.yml", WORKFLOW, token, "add one");
    const after = await runner.fetchTask(first.tasksVersion);
    expect(after.tasksVersion).not.toBe(first.tasksVersion);
    expect(after.task).toBeDefined();
    await runner.runTask(after.task!, { steps: [{ lines: ["one"] }] });
    const run = runsOf(t, repo.id)[0]!;
    expect(run.status).toBe(ActionStatus.Success);
  });
});

describe("label matching", () => {
  test("jobs for labels no runner has never crowd out those a runner can take", async () => {
    const matrix = Array.from({ length: 40 }, (_, i) => i + 1).join(", ");
    await putFile(
      t,
      "alice/p",
      ".gitea/workflows/nowhere.yml",
      `on:\n  push:\n    paths: ['nowhere/**']\njobs:\n  stuck:\n    strategy:\n      matrix:\n        n: [${matrix}]\n    runs-on: no-such-label\n    steps:\n      - run: echo\n`,
      token,
      "add nowhere",
    );
    const runner = await MockRunner.register(t.baseUrl, { token: regToken(), name: "labels", labels: ["ubuntu-latest"] });
    // The push that added the file ran one.yml (on every push): done with first.
    await runner.runTask((await runner.fetchTask()).task!, { steps: [{}] });
    await putFile(t, "alice/p", "nowhere/x", "x\n", token, "forty stuck jobs");
    // That push started forty jobs for a label no runner has, then (one.yml sorts after nowhere.yml) one.yml's job.
    const task = (await runner.fetchTask()).task;
    expect(task).toBeDefined();
    expect((task!.context as Record<string, unknown>).job).toBe("one");
    await runner.runTask(task!, { steps: [{}] });
  });
});

describe("ephemeral runners", () => {
  test("take one task and are gone once it is done", async () => {
    const runner = await MockRunner.register(t.baseUrl, { token: regToken(), name: "once", labels: ["ubuntu-latest"], ephemeral: true });
    await putFile(t, "alice/p", "a.txt", "a\n", token, "first");
    await putFile(t, "alice/p", "b.txt", "b\n", token, "second");
    const task = (await runner.fetchTask()).task!;
    expect(task).toBeDefined();
    expect((await runner.fetchTask()).task).toBeUndefined();
    await runner.runTask(task, { steps: [{}] });
    expect(() => getRunner(t.env, { repoId: repo.id }, Number(runner.id))).toThrow();
    // The other push's job is still waiting for a runner.
    const waiting = runsOf(t, repo.id)
      .flatMap((r) => jobsOf(t, r.id))
      .filter((j) => j.status === ActionStatus.Waiting && j.runsOnJson === '["ubuntu-latest"]');
    expect(waiting.length).toBe(1);
  });
});
