import type { Env } from "../../services/env.ts";
import { create } from "@bufbuild/protobuf";
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { serveUnary as serveConnect, ConnectError, type ServeUnaryOptions } from "./connect.ts";
import { runnerDoor, type RunnerDoor } from "../doors/runner.ts";
import { PingRequestSchema, PingResponseSchema } from "./gen/ping/v1/messages_pb.ts";
import {
  DeclareRequestSchema,
  DeclareResponseSchema,
  FetchTaskRequestSchema,
  FetchTaskResponseSchema,
  RegisterRequestSchema,
  RegisterResponseSchema,
  RunnerSchema,
  TaskSchema,
  UpdateLogRequestSchema,
  UpdateLogResponseSchema,
  UpdateTaskRequestSchema,
  UpdateTaskResponseSchema,
  type Runner,
} from "./gen/runner/v1/messages_pb.ts";
import { declareRunner, registerRunner, RegistrationRefused, runnerLabels } from "../../services/actions/runners.ts";
import { appendLog, LogArchived, pickTask, TaskUpdateRefused, updateTask } from "../../services/actions/tasks.ts";
import type { ActionRunnerRow } from "../../db/schema/index.ts";
import type { JsonObject } from "@bufbuild/protobuf";

const PREFIX = "/api/actions/";

const seconds = (t: Timestamp | undefined): number | undefined => (t ? timestampDate(t).getTime() / 1000 : undefined);

function runnerMessage(r: ActionRunnerRow, token = ""): Runner {
  return create(RunnerSchema, {
    id: BigInt(r.id),
    uuid: r.uuid,
    token,
    name: r.name,
    version: r.version,
    labels: runnerLabels(r),
    ephemeral: r.ephemeral,
  });
}

type Procedure = (env: Env, door: RunnerDoor, request: Request) => Promise<Response>;

const options = new WeakMap<Env, ServeUnaryOptions>();
/** serveUnary with the Env's log told of every internal error (the runner sees only "internal"). */
function serve(env: Env): typeof serveConnect {
  let opts = options.get(env);
  if (!opts) {
    opts = { onInternalError: (err) => env.log.error("runner procedure failed", { error: err instanceof Error ? (err.stack ?? err.message) : String(err) }) };
    options.set(env, opts);
  }
  const o = opts;
  return (request, input, output, handle) => serveConnect(request, input, output, handle, o);
}

/**
 * The runner protocol's procedures (Gitea's routers/api/actions/ping and runner): each decodes its
 * message (binary or JSON), asks the door for the runner (all but Ping and Register), and calls
 * one service.
 */
const procedures: Record<string, Procedure> = {
  "ping.v1.PingService/Ping": (env, _door, request) =>
    serve(env)(request, PingRequestSchema, PingResponseSchema, (m) => ({ data: `Hello, ${m.data}!` })),

  "runner.v1.RunnerService/Register": (env, _door, request) =>
    serve(env)(request, RegisterRequestSchema, RegisterResponseSchema, (m) => {
      // Runners before Gitea 1.20 sent their labels as agent_labels.
      const labels = m.labels.length === 0 && m.agentLabels.length > 0 ? m.agentLabels : m.labels;
      try {
        const { runner, token } = registerRunner(env, { token: m.token, name: m.name, labels, version: m.version, ephemeral: m.ephemeral });
        return { runner: runnerMessage(runner, token) };
      } catch (err) {
        if (err instanceof RegistrationRefused) throw new ConnectError("invalid_argument", err.message);
        throw err;
      }
    }),

  "runner.v1.RunnerService/Declare": (env, door, request) =>
    serve(env)(request, DeclareRequestSchema, DeclareResponseSchema, (m) => {
      const runner = declareRunner(env, door.runnerOf(request, false), m.labels, m.version);
      return { runner: runnerMessage(runner) };
    }),

  "runner.v1.RunnerService/FetchTask": (env, door, request) =>
    serve(env)(request, FetchTaskRequestSchema, FetchTaskResponseSchema, async (m) => {
      const runner = door.runnerOf(request, false);
      const { task, version } = await pickTask(env, runner, Number(m.tasksVersion));
      if (!task) return { tasksVersion: BigInt(version) };
      return {
        tasksVersion: BigInt(version),
        task: create(TaskSchema, {
          id: BigInt(task.id),
          workflowPayload: new TextEncoder().encode(task.workflowPayload),
          context: task.context as JsonObject,
          secrets: task.secrets,
          vars: task.vars,
          needs: Object.fromEntries(Object.entries(task.needs).map(([k, n]) => [k, { outputs: n.outputs, result: n.result }])),
        }),
      };
    }),

  "runner.v1.RunnerService/UpdateTask": (env, door, request) =>
    serve(env)(request, UpdateTaskRequestSchema, UpdateTaskResponseSchema, (m) => {
      const runner = door.runnerOf(request, true);
      const state = m.state;
      if (!state) throw new ConnectError("invalid_argument", "missing task state");
      try {
        const { status, sentOutputs } = updateTask(
          env,
          runner,
          {
            id: Number(state.id),
            result: state.result,
            startedAt: seconds(state.startedAt),
            stoppedAt: seconds(state.stoppedAt),
            steps: state.steps.map((s) => ({
              id: Number(s.id),
              result: s.result,
              startedAt: seconds(s.startedAt),
              stoppedAt: seconds(s.stoppedAt),
              logIndex: Number(s.logIndex),
              logLength: Number(s.logLength),
            })),
          },
          m.outputs,
        );
        // The runner learns of a cancellation from the result it gets back.
        return { state: { id: state.id, result: status <= 4 ? status : 0 }, sentOutputs };
      } catch (err) {
        if (err instanceof TaskUpdateRefused) throw new ConnectError("not_found", err.message);
        throw err;
      }
    }),

  "runner.v1.RunnerService/UpdateLog": (env, door, request) =>
    serve(env)(request, UpdateLogRequestSchema, UpdateLogResponseSchema, async (m) => {
      const runner = door.runnerOf(request, true);
      try {
        const rows = m.rows.map((r) => ({ time: r.time ? timestampDate(r.time).getTime() : Date.now(), content: r.content }));
        const ack = await appendLog(env, runner, Number(m.taskId), Number(m.index), rows, m.noMore);
        return { ackIndex: BigInt(ack) };
      } catch (err) {
        if (err instanceof TaskUpdateRefused) throw new ConnectError("not_found", err.message);
        if (err instanceof LogArchived) throw new ConnectError("already_exists", err.message);
        throw err;
      }
    }),
};

/** Answers a request below `/api/actions/`: a procedure, or connect-go's plain 404 for anything else. */
export async function serveRunner(env: Env, request: Request, path: string): Promise<Response> {
  const procedure = procedures[path.slice(PREFIX.length)];
  if (!procedure || !env.settings.actions.enabled) {
    return new Response("404 page not found\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const door = runnerDoor(env);
  try {
    return await procedure(env, door, request);
  } catch (err) {
    return door.errorResponse(err);
  }
}
