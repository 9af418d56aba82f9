// The mock runner (test/support/mock-runner.ts) against the toy door: it must speak exactly as
// act_runner does (connect-node over HTTP/1.1, binary, act_runner's headers) and report a job as
// act_runner's reporter does, since hearth's runner door will be tested with it.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { Code, ConnectError } from "@connectrpc/connect";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Result } from "../../src/http/runner/gen/runner/v1/messages_pb.ts";
import { MOCK_RUNNER_VERSION, MockRunner } from "../support/mock-runner.ts";
import { startToyServer, TOY_REGISTRATION_TOKEN, TOY_TASK, TOY_TOKEN, TOY_UUID, type ToyServer } from "./toy-server.ts";

let server: ToyServer;
beforeAll(() => {
  server = startToyServer();
});
afterAll(() => server.stop());
beforeEach(() => {
  server.rows.length = 0;
  server.states.length = 0;
  server.outputs.clear();
  server.noMore = false;
  server.answerResult = undefined;
  server.ackLimit = undefined;
  server.storeOneOutputPerCall = false;
});

const register = () => MockRunner.register(server.url, { token: TOY_REGISTRATION_TOKEN, name: "runner-1", labels: ["ubuntu-latest"] });

/** A clock that ticks one second per reading, so every stamp is distinct and known. */
function ticking(start = Date.UTC(2026, 0, 1)): () => Date {
  let t = start;
  return () => new Date((t += 1000));
}

describe("registration and calls", () => {
  test("register pings, then registers without credentials, as act_runner's binary Connect client", async () => {
    const runner = await register();
    expect(runner.uuid).toBe(TOY_UUID);
    expect(runner.token).toBe(TOY_TOKEN);
    expect(runner.runner.labels).toEqual(["ubuntu-latest"]);
    expect(runner.runner.version).toBe(MOCK_RUNNER_VERSION);

    const ping = server.headers.get("ping.v1.PingService/Ping")!;
    const reg = server.headers.get("runner.v1.RunnerService/Register")!;
    for (const h of [ping, reg]) {
      expect(h.get("content-type")).toBe("application/proto");
      expect(h.get("connect-protocol-version")).toBe("1");
      expect(h.get("user-agent")).toBe(`act_runner/${MOCK_RUNNER_VERSION}`);
      expect(h.get("x-runner-uuid")).toBeNull();
      expect(h.get("x-runner-token")).toBeNull();
    }
  });

  test("a wrong registration token fails with unauthenticated", async () => {
    const err = await MockRunner.register(server.url, { token: "nope", name: "r", labels: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.Unauthenticated);
  });

  test("after Register every call carries x-runner-uuid and x-runner-token", async () => {
    const runner = await register();
    const declared = await runner.declare(["ubuntu-latest", "docker"]);
    expect(declared.runner?.labels).toEqual(["ubuntu-latest", "docker"]);
    expect(declared.runner?.version).toBe(MOCK_RUNNER_VERSION);
    const h = server.headers.get("runner.v1.RunnerService/Declare")!;
    expect(h.get("x-runner-uuid")).toBe(TOY_UUID);
    expect(h.get("x-runner-token")).toBe(TOY_TOKEN);
    expect(await runner.ping("again")).toBe("Hello, again!");
  });

  test("fetchTask decodes the task (gzipped on the way back) and honours tasks_version", async () => {
    const runner = await register();
    const first = await runner.fetchTask(0n);
    expect(first.tasksVersion).toBe(5n);
    expect(first.task?.id).toBe(42n);
    expect(first.task?.context).toEqual({ repository: "alice/tools", run_number: 3, event: { ref: "refs/heads/main" } });
    expect(first.task?.workflowPayload).toEqual(TOY_TASK.workflowPayload);
    expect(first.task?.needs["setup"]?.result).toBe(Result.SUCCESS);
    expect(server.headers.get("runner.v1.RunnerService/FetchTask")!.get("accept-encoding")).toContain("gzip");
    const again = await runner.fetchTask(5n);
    expect(again.task).toBeUndefined();
  });

  test("wrong credentials come back as unauthenticated", async () => {
    const stranger = MockRunner.withCredentials(server.url, { uuid: TOY_UUID, token: "stolen?" });
    const err = await stranger.fetchTask().catch((e: unknown) => e);
    expect((err as ConnectError).code).toBe(Code.Unauthenticated);
    expect((err as ConnectError).rawMessage).toBe("unregistered runner");
  });

  test("call() sends raw bytes or JSON with or without the runner's headers", async () => {
    const runner = await register();
    const ok = await runner.call("FetchTask", {});
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { tasksVersion: string }).tasksVersion).toBe("5");

    const noToken = await runner.call("FetchTask", new Uint8Array(0), { "x-runner-token": "" });
    expect(noToken.status).toBe(401);
    expect(server.headers.get("runner.v1.RunnerService/FetchTask")!.get("x-runner-token")).toBeNull();

    const garbage = await runner.call("UpdateLog", new Uint8Array([0x0a, 0xff]));
    expect(garbage.status).toBe(400);
    expect(((await garbage.json()) as { code: string }).code).toBe("invalid_argument");

    const pong = await MockRunner.call(server.url, "Ping", { data: "raw" });
    expect(await pong.json()).toEqual({ data: "Hello, raw!" });
  });
});

describe("runTask reports as act_runner's reporter", () => {
  test("rows, step indexes, timestamps, outputs and the final no_more", async () => {
    const runner = await register();
    const { task } = await runner.fetchTask();
    const report = await runner.runTask(task!, {
      setupLines: ["act_runner version v0.2.13", "Set up job"],
      steps: [{ lines: ["checkout", "done"] }, { lines: [] }, { lines: ["build failed"], result: "failure" }],
      teardownLines: ["Cleaning up"],
      outputs: { artifact: "app.tar" },
      now: ticking(),
    });

    // The server holds every row in order, the last call said no_more.
    expect(server.rows.map((r) => r.content)).toEqual(["act_runner version v0.2.13", "Set up job", "checkout", "done", "build failed", "Cleaning up"]);
    expect(report.rows.map((r) => r.content)).toEqual(server.rows.map((r) => r.content));
    expect(server.noMore).toBe(true);
    expect(report.logAcks.at(-1)?.ackIndex).toBe(6n);

    // Steps: log_index is the absolute row of their first line; an empty step points where it would be.
    const final = server.states.at(-1)!;
    expect(final.id).toBe(42n);
    expect(final.result).toBe(Result.FAILURE);
    expect(final.steps.map((s) => [s.id, s.result, s.logIndex, s.logLength])).toEqual([
      [0n, Result.SUCCESS, 2n, 2n],
      [1n, Result.SUCCESS, 4n, 0n],
      [2n, Result.FAILURE, 4n, 1n],
    ]);
    expect(final.startedAt).toBeDefined();
    expect(timestampDate(final.stoppedAt!).getTime()).toBeGreaterThan(timestampDate(final.startedAt!).getTime());
    for (const s of final.steps) expect(timestampDate(s.stoppedAt!).getTime()).toBeGreaterThan(timestampDate(s.startedAt!).getTime());

    // Intermediate states carried no result; outputs went out and were acknowledged.
    expect(server.states.slice(0, -1).every((s) => s.result === Result.UNSPECIFIED)).toBe(true);
    expect(server.outputs.get("artifact")).toBe("app.tar");
    expect(report.sentOutputs).toEqual(["artifact"]);
    expect(report.cancelled).toBe(false);
  });

  test("rows the server did not acknowledge are sent again from its ack_index", async () => {
    server.ackLimit = 1;
    const runner = await register();
    const report = await runner.runTask(TOY_TASK, { steps: [{ lines: ["a", "b", "c"] }], now: ticking() });
    expect(server.rows.map((r) => r.content)).toEqual(["a", "b", "c"]);
    // Acknowledgements only grow, one row at a time here, and end with all three.
    const acks = report.logAcks.map((a) => a.ackIndex);
    expect(acks.filter((a, i) => i > 0 && a < acks[i - 1]!)).toEqual([]);
    expect(new Set(acks)).toEqual(new Set([0n, 1n, 2n, 3n]));
    expect(server.noMore).toBe(true);
  });

  test("outputs are resent until sent_outputs lists them all", async () => {
    server.storeOneOutputPerCall = true;
    const runner = await register();
    const report = await runner.runTask(TOY_TASK, { steps: [{ lines: ["x"] }], outputs: { a: "1", b: "2" }, now: ticking() });
    expect([...server.outputs.entries()].sort()).toEqual([["a", "1"], ["b", "2"]]);
    expect(report.sentOutputs.sort()).toEqual(["a", "b"]);
    expect(server.states.filter((s) => s.result !== Result.UNSPECIFIED).length).toBeGreaterThanOrEqual(2);
  });

  test("a cancelled answer stops the job: later steps are cancelled", async () => {
    server.answerResult = Result.CANCELLED;
    const runner = await register();
    const report = await runner.runTask(TOY_TASK, { steps: [{ lines: ["one"] }, { lines: ["two"] }], now: ticking() });
    expect(report.cancelled).toBe(true);
    const final = server.states.at(-1)!;
    expect(final.result).toBe(Result.CANCELLED);
    expect(final.steps.map((s) => s.result)).toEqual([Result.CANCELLED, Result.CANCELLED]);
    expect(server.rows.map((r) => r.content)).not.toContain("one");
  });
});
