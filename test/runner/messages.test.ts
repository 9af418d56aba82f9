// The generated runner messages against the wire: field numbers as actions-proto-go declares them,
// and payloads built byte by byte decoding into the shapes the runner door will read.
import { describe, expect, test } from "bun:test";
import { create, fromBinary, fromJson, toBinary, toJson, type DescMessage } from "@bufbuild/protobuf";
import { PingRequestSchema, PingResponseSchema } from "../../src/http/runner/gen/ping/v1/messages_pb.ts";
import { PingService } from "../../src/http/runner/gen/ping/v1/services_pb.ts";
import {
  DeclareRequestSchema,
  DeclareResponseSchema,
  FetchTaskRequestSchema,
  FetchTaskResponseSchema,
  LogRowSchema,
  RegisterRequestSchema,
  RegisterResponseSchema,
  Result,
  RunnerSchema,
  RunnerStatus,
  StepStateSchema,
  TaskNeedSchema,
  TaskSchema,
  TaskStateSchema,
  UpdateLogRequestSchema,
  UpdateLogResponseSchema,
  UpdateTaskRequestSchema,
  UpdateTaskResponseSchema,
} from "../../src/http/runner/gen/runner/v1/messages_pb.ts";
import { RunnerService } from "../../src/http/runner/gen/runner/v1/services_pb.ts";

/** name:number:kind, from the struct tags of actions-proto-go's runner/v1/messages.pb.go. */
const FIELDS: [DescMessage, string][] = [
  [PingRequestSchema, "data:1:string"],
  [PingResponseSchema, "data:1:string"],
  [
    RegisterRequestSchema,
    "name:1:string token:2:string agent_labels:3:string[] custom_labels:4:string[] version:5:string labels:6:string[] ephemeral:7:bool capabilities:8:string[]",
  ],
  [RegisterResponseSchema, "runner:1:runner.v1.Runner"],
  [DeclareRequestSchema, "version:1:string labels:2:string[] capabilities:3:string[]"],
  [DeclareResponseSchema, "runner:1:runner.v1.Runner"],
  [FetchTaskRequestSchema, "tasks_version:1:int64"],
  [FetchTaskResponseSchema, "task:1:runner.v1.Task tasks_version:2:int64"],
  [UpdateTaskRequestSchema, "state:1:runner.v1.TaskState outputs:2:map<string,string>"],
  [UpdateTaskResponseSchema, "state:1:runner.v1.TaskState sent_outputs:2:string[]"],
  [UpdateLogRequestSchema, "task_id:1:int64 index:2:int64 rows:3:runner.v1.LogRow[] no_more:4:bool"],
  [UpdateLogResponseSchema, "ack_index:1:int64"],
  [
    RunnerSchema,
    "id:1:int64 uuid:2:string token:3:string name:4:string status:5:enum runner.v1.RunnerStatus agent_labels:6:string[] custom_labels:7:string[] version:8:string labels:9:string[] ephemeral:10:bool",
  ],
  [
    TaskSchema,
    "id:1:int64 workflow_payload:2:bytes? context:3:google.protobuf.Struct? secrets:4:map<string,string> machine:5:string needs:6:map<string,runner.v1.TaskNeed> vars:7:map<string,string>",
  ],
  [TaskNeedSchema, "outputs:1:map<string,string> result:2:enum runner.v1.Result"],
  [
    TaskStateSchema,
    "id:1:int64 result:2:enum runner.v1.Result started_at:3:google.protobuf.Timestamp stopped_at:4:google.protobuf.Timestamp steps:5:runner.v1.StepState[]",
  ],
  [
    StepStateSchema,
    "id:1:int64 result:2:enum runner.v1.Result started_at:3:google.protobuf.Timestamp stopped_at:4:google.protobuf.Timestamp log_index:5:int64 log_length:6:int64",
  ],
  [LogRowSchema, "time:1:google.protobuf.Timestamp content:2:string"],
];

function describeField(f: DescMessage["fields"][number]): string {
  const scalarName = (s: number) =>
    ({ 3: "int64", 8: "bool", 9: "string", 12: "bytes" })[s] ?? `scalar${s}`;
  let kind: string;
  switch (f.fieldKind) {
    case "scalar":
      kind = scalarName(f.scalar) + (f.proto.proto3Optional ? "?" : "");
      break;
    case "message":
      kind = f.message.typeName + (f.proto.proto3Optional ? "?" : "");
      break;
    case "enum":
      kind = `enum ${f.enum.typeName}`;
      break;
    case "list":
      kind = (f.listKind === "scalar" ? scalarName(f.scalar) : f.listKind === "message" ? f.message.typeName : "enum") + "[]";
      break;
    case "map":
      kind = `map<${scalarName(f.mapKey)},${f.mapKind === "scalar" ? scalarName(f.scalar) : f.mapKind === "message" ? f.message.typeName : "enum"}>`;
      break;
  }
  return `${f.name}:${f.number}:${kind}`;
}

describe("runner protocol descriptors", () => {
  test.each(FIELDS.map(([schema, fields]) => [schema.typeName, schema, fields] as const))(
    "%s has actions-proto-go's fields",
    (_name, schema, fields) => {
      expect(schema.fields.map(describeField).join(" ")).toBe(fields);
    },
  );

  test("the deprecated fields are marked so", () => {
    const deprecated = (schema: DescMessage) =>
      schema.fields.filter((f) => f.deprecated).map((f) => f.name);
    expect(deprecated(RegisterRequestSchema)).toEqual(["agent_labels", "custom_labels"]);
    expect(deprecated(RunnerSchema)).toEqual(["agent_labels", "custom_labels"]);
    expect(deprecated(TaskSchema)).toEqual(["machine"]);
  });

  test("enums keep Gitea's numbers", () => {
    expect([RunnerStatus.UNSPECIFIED, RunnerStatus.IDLE, RunnerStatus.ACTIVE, RunnerStatus.OFFLINE]).toEqual([0, 1, 2, 3]);
    expect([Result.UNSPECIFIED, Result.SUCCESS, Result.FAILURE, Result.CANCELLED, Result.SKIPPED]).toEqual([0, 1, 2, 3, 4]);
  });

  test("the services name act_runner's procedures", () => {
    expect(PingService.typeName).toBe("ping.v1.PingService");
    expect(PingService.methods.map((m) => `${m.name}:${m.input.typeName}>${m.output.typeName}`)).toEqual([
      "Ping:ping.v1.PingRequest>ping.v1.PingResponse",
    ]);
    expect(RunnerService.typeName).toBe("runner.v1.RunnerService");
    expect(RunnerService.methods.map((m) => `${m.name}:${m.methodKind}`)).toEqual([
      "Register:unary",
      "Declare:unary",
      "FetchTask:unary",
      "UpdateTask:unary",
      "UpdateLog:unary",
    ]);
  });
});

/** A Task as Gitea would send it, written out by hand. */
const TASK_BYTES = new Uint8Array([
  // id = 7
  0x08, 0x07,
  // workflow_payload = "on"
  0x12, 0x02, 0x6f, 0x6e,
  // context = Struct{fields: {"a": Value{string_value: "b"}}}
  0x1a, 0x0a, 0x0a, 0x08, 0x0a, 0x01, 0x61, 0x12, 0x03, 0x1a, 0x01, 0x62,
  // secrets = {"K": "V"}
  0x22, 0x06, 0x0a, 0x01, 0x4b, 0x12, 0x01, 0x56,
  // needs = {"j": TaskNeed{outputs: {"o": "p"}, result: SUCCESS}}
  0x32, 0x0f, 0x0a, 0x01, 0x6a, 0x12, 0x0a, 0x0a, 0x06, 0x0a, 0x01, 0x6f, 0x12, 0x01, 0x70, 0x10, 0x01,
  // vars = {"x": "y"}
  0x3a, 0x06, 0x0a, 0x01, 0x78, 0x12, 0x01, 0x79,
]);

describe("runner messages on the wire", () => {
  test("a hand-built Task decodes with its Struct context, maps and needs", () => {
    const task = fromBinary(TaskSchema, TASK_BYTES);
    expect(task.id).toBe(7n);
    expect(new TextDecoder().decode(task.workflowPayload)).toBe("on");
    // google.protobuf.Struct arrives as a plain JSON object.
    expect(task.context).toEqual({ a: "b" });
    expect(task.secrets).toEqual({ K: "V" });
    expect(task.needs["j"]?.outputs).toEqual({ o: "p" });
    expect(task.needs["j"]?.result).toBe(Result.SUCCESS);
    expect(task.vars).toEqual({ x: "y" });
    // And it encodes back to the very same bytes.
    expect(toBinary(TaskSchema, task)).toEqual(TASK_BYTES);
  });

  test("a Task's optional fields are absent on the wire when unset", () => {
    expect(toBinary(TaskSchema, create(TaskSchema, { id: 1n }))).toEqual(new Uint8Array([0x08, 0x01]));
    const empty = fromBinary(TaskSchema, new Uint8Array([0x08, 0x01]));
    expect(empty.workflowPayload).toBeUndefined();
    expect(empty.context).toBeUndefined();
    // An empty payload is still sent when set: proto3 `optional` tracks presence.
    expect(toBinary(TaskSchema, create(TaskSchema, { workflowPayload: new Uint8Array() }))).toEqual(new Uint8Array([0x12, 0x00]));
  });

  test("a LogRow's Timestamp is seconds and nanos", () => {
    const bytes = new Uint8Array([
      // time = Timestamp{seconds: 1700000000, nanos: 5}
      0x0a, 0x08, 0x08, 0x80, 0xe2, 0xcf, 0xaa, 0x06, 0x10, 0x05,
      // content = "hi"
      0x12, 0x02, 0x68, 0x69,
    ]);
    const row = fromBinary(LogRowSchema, bytes);
    expect(row.time?.seconds).toBe(1700000000n);
    expect(row.time?.nanos).toBe(5);
    expect(row.content).toBe("hi");
    expect(toBinary(LogRowSchema, row)).toEqual(bytes);
    expect(toJson(LogRowSchema, row)).toEqual({ time: "2023-11-14T22:13:20.000000005Z", content: "hi" });
  });

  test("the JSON mapping is protobuf's canonical one", () => {
    const task = fromBinary(TaskSchema, TASK_BYTES);
    expect(toJson(TaskSchema, task)).toEqual({
      id: "7",
      workflowPayload: "b24=",
      context: { a: "b" },
      secrets: { K: "V" },
      needs: { j: { outputs: { o: "p" }, result: "RESULT_SUCCESS" } },
      vars: { x: "y" },
    });
    const req = fromJson(RegisterRequestSchema, { name: "r", agent_labels: ["x"], ephemeral: true, labels: ["ubuntu"] });
    expect(req.agentLabels).toEqual(["x"]);
    expect(req.labels).toEqual(["ubuntu"]);
    expect(req.ephemeral).toBe(true);
  });

  test("a register request from an old runner (agent_labels only) keeps them apart from labels", () => {
    // name = "n", agent_labels = ["a"]
    const req = fromBinary(RegisterRequestSchema, new Uint8Array([0x0a, 0x01, 0x6e, 0x1a, 0x01, 0x61]));
    expect(req.name).toBe("n");
    expect(req.agentLabels).toEqual(["a"]);
    expect(req.labels).toEqual([]);
  });
});
