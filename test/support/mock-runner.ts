/**
 * A test runner that speaks the runner protocol as act_runner does: connect-go's Connect protocol
 * over HTTP/1.1 in binary protobuf, below `${server}/api/actions`, with act_runner's headers, and a
 * `runTask` that reports a job the way act_runner's reporter (internal/pkg/report/reporter.go) does.
 * act_runner itself cannot be built here, so this is the client hearth's runner door is tested with
 * (Gitea does the same in tests/integration/actions_runner_test.go).
 */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { compressionGzip, createConnectTransport } from "@connectrpc/connect-node";
import { PingService } from "../../src/http/runner/gen/ping/v1/services_pb.ts";
import {
  LogRowSchema,
  Result,
  type DeclareResponse,
  type FetchTaskResponse,
  type LogRow,
  type Runner,
  RunnerSchema,
  type StepState,
  StepStateSchema,
  type Task,
  type TaskState,
  TaskStateSchema,
  type UpdateLogResponse,
  type UpdateTaskResponse,
} from "../../src/http/runner/gen/runner/v1/messages_pb.ts";
import { RunnerService } from "../../src/http/runner/gen/runner/v1/services_pb.ts";

/** The version this runner reports; act_runner sends its own in Register, Declare and the User-Agent. */
export const MOCK_RUNNER_VERSION = "v0.2.13-mock";

export interface RegisterOptions {
  /** The registration token from `.../actions/runners/registration-token`. */
  token: string;
  name: string;
  labels: string[];
  version?: string;
  ephemeral?: boolean;
}

/** One step of a scripted job: the lines it prints and how it ends. */
export interface ScriptStep {
  lines?: string[];
  result?: "success" | "failure" | "skipped" | "cancelled";
}

/** What `runTask` plays back: job-level lines around the steps, the steps, the job's outputs. */
export interface TaskScript {
  /** Lines logged before the first step ("act_runner version ...", the container set-up). */
  setupLines?: string[];
  steps: ScriptStep[];
  /** Lines logged after the last step (clean-up). */
  teardownLines?: string[];
  outputs?: Record<string, string>;
  /** The job's result; by default failure if a step failed, else success. */
  result?: "success" | "failure" | "skipped" | "cancelled";
  /** The clock the rows and states are stamped with (tests pass a fixed one). */
  now?: () => Date;
}

export interface TaskReport {
  /** The final state as last sent. */
  state: TaskState;
  /** Every row sent, in order (their index is their position here). */
  rows: LogRow[];
  /** Every UpdateTask answer, in order. */
  updates: UpdateTaskResponse[];
  /** Every UpdateLog answer, in order. */
  logAcks: UpdateLogResponse[];
  /** The output keys the server acknowledged. */
  sentOutputs: string[];
  /** True when the server answered an UpdateTask with RESULT_CANCELLED and the run stopped early. */
  cancelled: boolean;
}

const RESULTS = {
  success: Result.SUCCESS,
  failure: Result.FAILURE,
  skipped: Result.SKIPPED,
  cancelled: Result.CANCELLED,
} as const;

const PING_PATH = "ping.v1.PingService/";
const RUNNER_PATH = "runner.v1.RunnerService/";

export class MockRunner {
  readonly runner: Runner;
  private readonly services: Services;

  private constructor(
    readonly serverUrl: string,
    runner: Runner,
    readonly version: string,
  ) {
    this.runner = runner;
    this.services = connectTo(serverUrl, version, runner.uuid, runner.token);
  }

  get uuid(): string {
    return this.runner.uuid;
  }
  get token(): string {
    return this.runner.token;
  }
  get id(): bigint {
    return this.runner.id;
  }

  /** As `act_runner register`: Ping without credentials, then Register; later calls carry the runner's uuid and token. */
  static async register(serverUrl: string, opts: RegisterOptions): Promise<MockRunner> {
    const version = opts.version ?? MOCK_RUNNER_VERSION;
    const anonymous = connectTo(serverUrl, version, "", "");
    await anonymous.ping.ping({ data: opts.name });
    const res = await anonymous.runner.register({
      name: opts.name,
      token: opts.token,
      version,
      labels: opts.labels,
      ephemeral: opts.ephemeral ?? false,
    });
    if (!res.runner) throw new Error("Register answered without a runner");
    return new MockRunner(serverUrl, res.runner, version);
  }

  /** A runner that already has credentials (a `.runner` file), or deliberately wrong ones. */
  static withCredentials(serverUrl: string, runner: MessageInitShape<typeof RunnerSchema>, version = MOCK_RUNNER_VERSION): MockRunner {
    return new MockRunner(serverUrl, create(RunnerSchema, runner), version);
  }

  /** As the daemon's start: its version and labels, before it fetches tasks. */
  declare(labels: string[]): Promise<DeclareResponse> {
    return this.services.runner.declare({ version: this.version, labels });
  }

  async ping(data: string): Promise<string> {
    return (await this.services.ping.ping({ data })).data;
  }

  fetchTask(tasksVersion: bigint = 0n): Promise<FetchTaskResponse> {
    return this.services.runner.fetchTask({ tasksVersion });
  }

  updateTask(state: MessageInitShape<typeof TaskStateSchema>, outputs: Record<string, string> = {}): Promise<UpdateTaskResponse> {
    return this.services.runner.updateTask({ state, outputs });
  }

  updateLog(taskId: bigint, index: bigint, rows: LogRow[], noMore: boolean): Promise<UpdateLogResponse> {
    return this.services.runner.updateLog({ taskId, index, rows, noMore });
  }

  /**
   * A raw call for malformed input and wrong credentials: `method` is "Register" (a RunnerService
   * method), "ping.v1.PingService/Ping" or any "package.Service/Method". Bytes go as
   * `application/proto`, anything else as JSON; this runner's uuid and token are sent unless
   * `headers` overrides them (an empty value drops the header).
   */
  call(method: string, body: Uint8Array | string | object, headers: Record<string, string> = {}): Promise<Response> {
    return rawCall(this.serverUrl, method, body, {
      "x-runner-uuid": this.uuid,
      "x-runner-token": this.token,
      ...headers,
    }, this.version);
  }

  /** A raw call without any credentials (as before Register). */
  static call(serverUrl: string, method: string, body: Uint8Array | string | object, headers: Record<string, string> = {}): Promise<Response> {
    return rawCall(serverUrl, method, body, headers, MOCK_RUNNER_VERSION);
  }

  /** Plays a job back through UpdateLog and UpdateTask as act_runner's reporter would. */
  runTask(task: Task, script: TaskScript): Promise<TaskReport> {
    return new Reporter(this, task, script).run();
  }
}

interface Services {
  ping: Client<typeof PingService>;
  runner: Client<typeof RunnerService>;
}

/** act_runner's client: binary Connect over HTTP/1.1, gzip accepted, headers set by an interceptor (client/http.go). */
function connectTo(serverUrl: string, version: string, uuid: string, token: string): Services {
  const headers: Interceptor = (next) => (req) => {
    req.header.set("user-agent", `act_runner/${version}`);
    if (uuid !== "") req.header.set("x-runner-uuid", uuid);
    if (token !== "") req.header.set("x-runner-token", token);
    return next(req);
  };
  const transport = createConnectTransport({
    baseUrl: `${serverUrl.replace(/\/+$/, "")}/api/actions`,
    httpVersion: "1.1",
    useBinaryFormat: true,
    acceptCompression: [compressionGzip],
    interceptors: [headers],
  });
  return { ping: createClient(PingService, transport), runner: createClient(RunnerService, transport) };
}

function rawCall(
  serverUrl: string,
  method: string,
  body: Uint8Array | string | object,
  headers: Record<string, string>,
  version: string,
): Promise<Response> {
  const path = method.includes("/") ? method : `${method === "Ping" ? PING_PATH : RUNNER_PATH}${method}`;
  const binary = body instanceof Uint8Array;
  const h = new Headers({
    "content-type": binary ? "application/proto" : "application/json",
    "connect-protocol-version": "1",
    "user-agent": `act_runner/${version}`,
  });
  for (const [k, v] of Object.entries(headers)) {
    if (v === "") h.delete(k);
    else h.set(k, v);
  }
  const payload = body instanceof Uint8Array ? body : typeof body === "string" ? body : JSON.stringify(body);
  return fetch(`${serverUrl.replace(/\/+$/, "")}/api/actions/${path}`, { method: "POST", headers: h, body: payload as Uint8Array<ArrayBuffer> | string });
}

/**
 * act_runner's reporter, with its one-second daemon replaced by a report after each step so tests
 * are deterministic: rows are buffered and sent from the acknowledged offset, a step's log_index is
 * the absolute index of its first row, outputs are resent until the server lists them in
 * sent_outputs, and Close sends the rest with no_more before the final state.
 */
class Reporter {
  private readonly state: TaskState;
  private logOffset = 0;
  private pending: LogRow[] = [];
  private readonly sent: LogRow[] = [];
  private readonly outputs = new Map<string, string | null>(); // null once acknowledged
  private readonly report: Omit<TaskReport, "state">;
  private readonly now: () => Date;

  constructor(
    private readonly runner: MockRunner,
    private readonly task: Task,
    private readonly script: TaskScript,
  ) {
    this.now = script.now ?? (() => new Date());
    this.state = create(TaskStateSchema, { id: task.id });
    this.report = { rows: this.sent, updates: [], logAcks: [], sentOutputs: [], cancelled: false };
  }

  async run(): Promise<TaskReport> {
    this.state.startedAt = timestampFromDate(this.now());
    for (const line of this.script.setupLines ?? []) this.log(line);
    // ResetSteps: one StepState per step, ids from 0.
    this.state.steps = this.script.steps.map((_, i) => create(StepStateSchema, { id: BigInt(i) }));
    await this.flush();

    let failed = false;
    for (const [i, step] of this.script.steps.entries()) {
      if (this.report.cancelled) break;
      const s = this.state.steps[i]!;
      s.startedAt = timestampFromDate(this.now());
      for (const line of step.lines ?? []) this.stepLog(s, line);
      const result = step.result ?? "success";
      if (s.logLength === 0n) s.logIndex = BigInt(this.logOffset + this.pending.length);
      s.result = RESULTS[result];
      s.stoppedAt = timestampFromDate(this.now());
      if (result === "failure") failed = true;
      await this.flush();
    }

    // The job's result, as act reports "jobResult": steps that never ran are cancelled (or skipped).
    const jobResult = this.report.cancelled ? Result.CANCELLED : RESULTS[this.script.result ?? (failed ? "failure" : "success")];
    this.state.result = jobResult;
    this.state.stoppedAt = timestampFromDate(this.now());
    for (const s of this.state.steps) {
      if (s.result === Result.UNSPECIFIED) s.result = jobResult === Result.SKIPPED ? Result.SKIPPED : Result.CANCELLED;
    }
    for (const [k, v] of Object.entries(this.script.outputs ?? {})) {
      if (!this.outputs.has(k)) this.outputs.set(k, v);
    }
    for (const line of this.script.teardownLines ?? []) this.log(line);
    await this.close();
    return { ...this.report, state: this.state };
  }

  /** A job-level row: kept only outside the steps, as the reporter drops non-raw lines during them. */
  private log(content: string): void {
    this.pending.push(create(LogRowSchema, { time: timestampFromDate(this.now()), content }));
  }

  private stepLog(step: StepState, content: string): void {
    if (step.logLength === 0n) step.logIndex = BigInt(this.logOffset + this.pending.length);
    step.logLength++;
    this.log(content);
  }

  private async flush(): Promise<void> {
    await this.reportLog(false);
    await this.reportState();
  }

  /** Close: the remaining rows with no_more until all are acknowledged, then the final state (retried as act_runner's retry.Do). */
  private async close(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.reportLog(true);
        if (this.pending.length > 0) throw new Error("not all logs are submitted");
        await this.reportState();
        if ([...this.outputs.values()].some((v) => v !== null)) throw new Error("there are still outputs that have not been sent");
        return;
      } catch (err) {
        if (attempt >= 4) throw err;
      }
    }
  }

  private async reportLog(noMore: boolean): Promise<void> {
    const rows = this.pending;
    const res = await this.runner.updateLog(this.task.id, BigInt(this.logOffset), rows, noMore);
    this.report.logAcks.push(res);
    const ack = Number(res.ackIndex);
    if (ack < this.logOffset) throw new Error("submitted logs are lost");
    const accepted = ack - this.logOffset;
    this.sent.push(...rows.slice(0, accepted));
    this.pending = rows.slice(accepted);
    this.logOffset = ack;
  }

  private async reportState(): Promise<void> {
    const unsent: Record<string, string> = {};
    for (const [k, v] of this.outputs) if (v !== null) unsent[k] = v;
    const res = await this.runner.updateTask(this.state, unsent);
    this.report.updates.push(res);
    for (const k of res.sentOutputs) {
      this.outputs.set(k, null);
      if (!this.report.sentOutputs.includes(k)) this.report.sentOutputs.push(k);
    }
    if (res.state?.result === Result.CANCELLED) this.report.cancelled = true;
  }
}
