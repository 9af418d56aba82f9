// A tiny stand-in for the runner door, built only from `serveUnary`: enough server behind the
// runner protocol to test the adapter and the mock runner without hearth's real handlers.
import { create } from "@bufbuild/protobuf";
import { ConnectError, serveUnary, type ConnectCode } from "../../src/http/runner/connect.ts";
import { PingRequestSchema, PingResponseSchema } from "../../src/http/runner/gen/ping/v1/messages_pb.ts";
import {
  DeclareRequestSchema,
  DeclareResponseSchema,
  FetchTaskRequestSchema,
  FetchTaskResponseSchema,
  type LogRow,
  RegisterRequestSchema,
  RegisterResponseSchema,
  Result,
  type TaskState,
  TaskSchema,
  UpdateLogRequestSchema,
  UpdateLogResponseSchema,
  UpdateTaskRequestSchema,
  UpdateTaskResponseSchema,
} from "../../src/http/runner/gen/runner/v1/messages_pb.ts";

export const TOY_UUID = "5b1c1f8e-1b7e-4c57-9a55-2f6f0a1b2c3d";
export const TOY_TOKEN = "toy-runner-token";
export const TOY_REGISTRATION_TOKEN = "toy-registration-token";

export interface ToyServer {
  url: string;
  /** Every request's headers, by path (last one wins). */
  headers: Map<string, Headers>;
  /** Rows the UpdateLog handler accepted, in order. */
  rows: LogRow[];
  /** Every state UpdateTask received, and the outputs stored so far. */
  states: TaskState[];
  outputs: Map<string, string>;
  /** Set by tests: the next UpdateTask answers with this result (RESULT_CANCELLED to cancel). */
  answerResult?: Result;
  /** Set by tests: UpdateLog acknowledges at most this many new rows per call. */
  ackLimit?: number;
  /** Set by tests: UpdateTask stores only the first output of each call (to make the runner resend). */
  storeOneOutputPerCall?: boolean;
  noMore: boolean;
  internalErrors: unknown[];
  stop(): void;
}

/** The task FetchTask hands out; big enough for its answer to be gzipped when asked to. */
export const TOY_TASK = create(TaskSchema, {
  id: 42n,
  workflowPayload: new TextEncoder().encode("on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n" + "#".repeat(2000)),
  context: { repository: "alice/tools", run_number: 3, event: { ref: "refs/heads/main" } },
  secrets: { GITEA_TOKEN: "s3cret" },
  vars: { REGION: "eu" },
  needs: { setup: { outputs: { version: "1.2" }, result: Result.SUCCESS } },
});

export function startToyServer(): ToyServer {
  const server: ToyServer = {
    url: "",
    headers: new Map(),
    rows: [],
    states: [],
    outputs: new Map(),
    noMore: false,
    internalErrors: [],
    stop: () => bun.stop(true),
  };
  const opts = { onInternalError: (err: unknown) => server.internalErrors.push(err) };

  const authed = (req: Request) => {
    if (req.headers.get("x-runner-uuid") !== TOY_UUID || req.headers.get("x-runner-token") !== TOY_TOKEN) {
      throw new ConnectError("unauthenticated", "unregistered runner");
    }
  };

  const routes: Record<string, (req: Request) => Promise<Response>> = {
    "ping.v1.PingService/Ping": (req) =>
      serveUnary(req, PingRequestSchema, PingResponseSchema, (m) => ({ data: `Hello, ${m.data}!` }), opts),
    "runner.v1.RunnerService/Register": (req) =>
      serveUnary(
        req,
        RegisterRequestSchema,
        RegisterResponseSchema,
        (m) => {
          if (m.token !== TOY_REGISTRATION_TOKEN) throw new ConnectError("unauthenticated", "runner registration token not found");
          return { runner: { id: 1n, uuid: TOY_UUID, token: TOY_TOKEN, name: m.name, version: m.version, labels: m.labels, ephemeral: m.ephemeral } };
        },
        opts,
      ),
    "runner.v1.RunnerService/Declare": (req) =>
      serveUnary(
        req,
        DeclareRequestSchema,
        DeclareResponseSchema,
        (m) => {
          authed(req);
          return { runner: { id: 1n, uuid: TOY_UUID, token: TOY_TOKEN, name: "toy", version: m.version, labels: m.labels } };
        },
        opts,
      ),
    "runner.v1.RunnerService/FetchTask": (req) =>
      serveUnary(
        req,
        FetchTaskRequestSchema,
        FetchTaskResponseSchema,
        (m) => {
          authed(req);
          // Gitea: no task for a runner that already has the latest tasks version.
          return m.tasksVersion >= 5n ? { tasksVersion: 5n } : { task: TOY_TASK, tasksVersion: 5n };
        },
        opts,
      ),
    "runner.v1.RunnerService/UpdateTask": (req) =>
      serveUnary(
        req,
        UpdateTaskRequestSchema,
        UpdateTaskResponseSchema,
        (m) => {
          authed(req);
          if (!m.state) throw new ConnectError("invalid_argument", "no state");
          server.states.push(m.state);
          for (const [k, v] of Object.entries(m.outputs)) {
            if (!server.outputs.has(k)) server.outputs.set(k, v);
            if (server.storeOneOutputPerCall) break;
          }
          const result = server.answerResult ?? m.state.result;
          return { state: { id: m.state.id, result }, sentOutputs: [...server.outputs.keys()] };
        },
        opts,
      ),
    "runner.v1.RunnerService/UpdateLog": (req) =>
      serveUnary(
        req,
        UpdateLogRequestSchema,
        UpdateLogResponseSchema,
        (m) => {
          authed(req);
          // Gitea's rule: rows before what it has are skipped, a gap is not accepted.
          const ack = BigInt(server.rows.length);
          if (m.rows.length === 0 || m.index > ack || BigInt(m.rows.length) + m.index <= ack) {
            if (m.noMore && m.index + BigInt(m.rows.length) <= ack) server.noMore = true;
            return { ackIndex: ack };
          }
          let fresh = m.rows.slice(Number(ack - m.index));
          if (server.ackLimit !== undefined) fresh = fresh.slice(0, server.ackLimit);
          server.rows.push(...fresh);
          const done = BigInt(server.rows.length);
          if (m.noMore && done === m.index + BigInt(m.rows.length)) server.noMore = true;
          return { ackIndex: done };
        },
        opts,
      ),
    // Test-only procedures exercising the adapter's edges.
    "toy.v1/Crash": (req) =>
      serveUnary(
        req,
        PingRequestSchema,
        PingResponseSchema,
        () => {
          throw new Error("SQLITE_CORRUPT at /srv/hearth/data/hearth.db\n    at query (/srv/hearth/src/db/client.ts:12:3)");
        },
        opts,
      ),
    "toy.v1/Fail": (req) =>
      serveUnary(
        req,
        PingRequestSchema,
        PingResponseSchema,
        (m) => {
          throw new ConnectError(m.data as ConnectCode, `failed with ${m.data}`);
        },
        opts,
      ),
    "toy.v1/Slow": (req) =>
      serveUnary(
        req,
        PingRequestSchema,
        PingResponseSchema,
        (_m, ctx) =>
          new Promise<{ data: string }>((resolve) => {
            // Never answers on its own: only the caller's deadline ends it.
            ctx.signal.addEventListener("abort", () => resolve({ data: "too late" }));
          }),
        opts,
      ),
    "toy.v1/Small": (req) =>
      serveUnary(req, PingRequestSchema, PingResponseSchema, (m) => ({ data: m.data }), { ...opts, maxBodyBytes: 64 }),
    "toy.v1/Big": (req) =>
      serveUnary(req, PingRequestSchema, PingResponseSchema, (m) => ({ data: m.data.repeat(1000) }), opts),
  };

  const bun = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const path = new URL(req.url).pathname.replace(/^\/api\/actions\//, "");
      server.headers.set(path, req.headers);
      const route = routes[path];
      return route ? route(req) : new Response("404 page not found", { status: 404 });
    },
  });
  server.url = `http://127.0.0.1:${bun.port}`;
  return server;
}
