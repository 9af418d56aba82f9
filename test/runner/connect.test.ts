// The Connect unary adapter (src/http/runner/connect.ts) over a real socket: binary and JSON round
// trips, gzip both ways, and every refusal the Connect spec defines, in its status and error body.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { fromBinary, toBinary, create } from "@bufbuild/protobuf";
import { httpStatusOf, type ConnectCode } from "../../src/http/runner/connect.ts";
import { PingRequestSchema, PingResponseSchema } from "../../src/http/runner/gen/ping/v1/messages_pb.ts";
import { FetchTaskResponseSchema } from "../../src/http/runner/gen/runner/v1/messages_pb.ts";
import { startToyServer, TOY_TOKEN, TOY_UUID, type ToyServer } from "./toy-server.ts";

let server: ToyServer;
beforeAll(() => {
  server = startToyServer();
});
afterAll(() => server.stop());

const RUNNER = { "x-runner-uuid": TOY_UUID, "x-runner-token": TOY_TOKEN };

function post(path: string, body: BodyInitLike, headers: Record<string, string>): Promise<Response> {
  return fetch(`${server.url}/api/actions/${path}`, { method: "POST", headers, body, decompress: false } as RequestInit);
}
type BodyInitLike = string | Uint8Array<ArrayBuffer>;

const pingBytes = (data: string) => toBinary(PingRequestSchema, create(PingRequestSchema, { data })) as Uint8Array<ArrayBuffer>;

async function connectError(res: Response): Promise<{ code: string; message?: string }> {
  expect(res.headers.get("content-type")).toBe("application/json");
  return (await res.json()) as { code: string; message?: string };
}

describe("round trips", () => {
  test("binary in, binary out", async () => {
    const res = await post("ping.v1.PingService/Ping", pingBytes("runner"), { "content-type": "application/proto" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/proto");
    expect(fromBinary(PingResponseSchema, new Uint8Array(await res.arrayBuffer())).data).toBe("Hello, runner!");
  });

  test("JSON in, JSON out, with a charset and the protocol version header", async () => {
    const res = await post("ping.v1.PingService/Ping", JSON.stringify({ data: "json" }), {
      "content-type": "application/json; charset=utf-8",
      "connect-protocol-version": "1",
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toEqual({ data: "Hello, json!" });
  });

  test("JSON requests may carry fields this server does not know", async () => {
    const res = await post("ping.v1.PingService/Ping", JSON.stringify({ data: "x", futureField: 1 }), {
      "content-type": "application/json",
    });
    expect(await res.json()).toEqual({ data: "Hello, x!" });
  });

  test("JSON answers use the canonical mapping: int64 as strings, bytes as base64, Struct as an object", async () => {
    const res = await post("runner.v1.RunnerService/FetchTask", "{}", { "content-type": "application/json", ...RUNNER });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { tasksVersion: string; task: Record<string, unknown> };
    expect(body.tasksVersion).toBe("5");
    expect(body.task["id"]).toBe("42");
    expect(typeof body.task["workflowPayload"]).toBe("string");
    expect(body.task["context"]).toEqual({ repository: "alice/tools", run_number: 3, event: { ref: "refs/heads/main" } });
    expect(body.task["needs"]).toEqual({ setup: { outputs: { version: "1.2" }, result: "RESULT_SUCCESS" } });
  });

  test("a gzipped request is inflated", async () => {
    const res = await post("ping.v1.PingService/Ping", Bun.gzipSync(pingBytes("zipped")) as Uint8Array<ArrayBuffer>, {
      "content-type": "application/proto",
      "content-encoding": "gzip",
    });
    expect(res.status).toBe(200);
    expect(fromBinary(PingResponseSchema, new Uint8Array(await res.arrayBuffer())).data).toBe("Hello, zipped!");
  });

  test("a large answer is gzipped for a caller that accepts gzip, a small one is not", async () => {
    const big = await post("toy.v1/Big", pingBytes("0123456789"), { "content-type": "application/proto", "accept-encoding": "gzip" });
    expect(big.headers.get("content-encoding")).toBe("gzip");
    const inflated = Bun.gunzipSync(new Uint8Array(await big.arrayBuffer()));
    expect(fromBinary(PingResponseSchema, inflated).data).toBe("0123456789".repeat(1000));

    const small = await post("ping.v1.PingService/Ping", pingBytes("s"), { "content-type": "application/proto", "accept-encoding": "gzip" });
    expect(small.headers.get("content-encoding")).toBeNull();

    const refused = await post("toy.v1/Big", pingBytes("0123456789"), { "content-type": "application/proto", "accept-encoding": "gzip;q=0, br" });
    expect(refused.headers.get("content-encoding")).toBeNull();
    expect(fromBinary(PingResponseSchema, new Uint8Array(await refused.arrayBuffer())).data.length).toBe(10000);
  });

  test("an empty binary body is the empty message", async () => {
    const res = await post("runner.v1.RunnerService/FetchTask", new Uint8Array(0), { "content-type": "application/proto", ...RUNNER });
    expect(res.status).toBe(200);
    expect(fromBinary(FetchTaskResponseSchema, new Uint8Array(await res.arrayBuffer())).task?.id).toBe(42n);
  });
});

describe("refusals", () => {
  test("only POST", async () => {
    const res = await fetch(`${server.url}/api/actions/ping.v1.PingService/Ping`);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });

  test.each(["text/plain", "application/grpc", "application/connect+proto", "application/json; charset=iso-8859-1"])(
    "content type %s is 415 with Accept-Post",
    async (type) => {
      const res = await post("ping.v1.PingService/Ping", "{}", { "content-type": type });
      expect(res.status).toBe(415);
      expect(res.headers.get("accept-post")).toBe("application/json, application/proto");
    },
  );

  test("no content type is 415", async () => {
    const res = await fetch(`${server.url}/api/actions/ping.v1.PingService/Ping`, { method: "POST" });
    expect(res.status).toBe(415);
  });

  test("an unknown Content-Encoding is unimplemented and names gzip", async () => {
    const res = await post("ping.v1.PingService/Ping", pingBytes("x"), { "content-type": "application/proto", "content-encoding": "br" });
    expect(res.status).toBe(501);
    expect(res.headers.get("accept-encoding")).toBe("gzip");
    expect((await connectError(res)).code).toBe("unimplemented");
  });

  test("a body that is not gzip though it says so is invalid_argument", async () => {
    const res = await post("ping.v1.PingService/Ping", pingBytes("x"), { "content-type": "application/proto", "content-encoding": "gzip" });
    expect(res.status).toBe(400);
    expect((await connectError(res)).code).toBe("invalid_argument");
  });

  test("another protocol version is invalid_argument", async () => {
    const res = await post("ping.v1.PingService/Ping", pingBytes("x"), { "content-type": "application/proto", "connect-protocol-version": "2" });
    expect(res.status).toBe(400);
    expect((await connectError(res)).code).toBe("invalid_argument");
  });

  test("a malformed Connect-Timeout-Ms is invalid_argument, a valid one is accepted", async () => {
    const bad = await post("ping.v1.PingService/Ping", pingBytes("x"), { "content-type": "application/proto", "connect-timeout-ms": "soon" });
    expect(bad.status).toBe(400);
    expect((await connectError(bad)).code).toBe("invalid_argument");
    const tooLong = await post("ping.v1.PingService/Ping", pingBytes("x"), { "content-type": "application/proto", "connect-timeout-ms": "12345678901" });
    expect(tooLong.status).toBe(400);
    const good = await post("ping.v1.PingService/Ping", pingBytes("x"), { "content-type": "application/proto", "connect-timeout-ms": "30000" });
    expect(good.status).toBe(200);
  });

  test("a handler still running at the deadline answers deadline_exceeded", async () => {
    const res = await post("toy.v1/Slow", pingBytes("x"), { "content-type": "application/proto", "connect-timeout-ms": "1" });
    expect(res.status).toBe(504);
    expect((await connectError(res)).code).toBe("deadline_exceeded");
  });

  test.each([
    ["binary", new Uint8Array([0x0a, 0x05, 0x61]), "application/proto"],
    ["truncated varint", new Uint8Array([0x08, 0xff]), "application/proto"],
    ["JSON", "{not json", "application/json"],
    ["JSON of the wrong shape", JSON.stringify({ data: 5 }), "application/json"],
    ["empty JSON", "", "application/json"],
    ["JSON in invalid UTF-8", new Uint8Array([0x7b, 0x22, 0x64, 0xff, 0x22, 0x7d]), "application/json"],
  ] as const)("a malformed %s body is invalid_argument", async (_what, body, type) => {
    const res = await post("ping.v1.PingService/Ping", body as BodyInitLike, { "content-type": type });
    expect(res.status).toBe(400);
    expect((await connectError(res)).code).toBe("invalid_argument");
  });

  test("a body over the limit is resource_exhausted, declared or not, and after inflating", async () => {
    const big = pingBytes("y".repeat(100));
    const declared = await post("toy.v1/Small", big, { "content-type": "application/proto" });
    expect(declared.status).toBe(429);
    expect((await connectError(declared)).code).toBe("resource_exhausted");

    const streamed = await fetch(`${server.url}/api/actions/toy.v1/Small`, {
      method: "POST",
      headers: { "content-type": "application/proto" },
      body: new Blob([big]).stream(),
    });
    expect(streamed.status).toBe(429);

    // Under the limit on the wire, over it once inflated.
    const bomb = Bun.gzipSync(pingBytes("z".repeat(1000))) as Uint8Array<ArrayBuffer>;
    expect(bomb.byteLength).toBeLessThan(64);
    const inflated = await post("toy.v1/Small", bomb, { "content-type": "application/proto", "content-encoding": "gzip" });
    expect(inflated.status).toBe(429);
    expect((await connectError(inflated)).code).toBe("resource_exhausted");
  });

  test("a handler's crash is internal, with no trace of the error's text", async () => {
    const before = server.internalErrors.length;
    const res = await post("toy.v1/Crash", pingBytes("x"), { "content-type": "application/proto" });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ code: "internal", message: "internal error" });
    expect(text).not.toContain("/srv/hearth");
    expect(text).not.toContain("SQLITE");
    // The server side still hears of it.
    expect(server.internalErrors.length).toBe(before + 1);
  });

  const CODES: ConnectCode[] = [
    "canceled", "unknown", "invalid_argument", "deadline_exceeded", "not_found", "already_exists",
    "permission_denied", "resource_exhausted", "failed_precondition", "aborted", "out_of_range",
    "unimplemented", "internal", "unavailable", "data_loss", "unauthenticated",
  ];
  const STATUS = [499, 500, 400, 504, 404, 409, 403, 429, 400, 409, 400, 501, 500, 503, 500, 401];

  test.each(CODES.map((code, i) => [code, STATUS[i]!] as const))("a thrown ConnectError %s is HTTP %d", async (code, status) => {
    expect(httpStatusOf(code)).toBe(status);
    const res = await post("toy.v1/Fail", JSON.stringify({ data: code }), { "content-type": "application/json" });
    expect(res.status).toBe(status);
    expect(await connectError(res)).toEqual({ code, message: `failed with ${code}` });
  });

  test("errors answer in JSON even to a binary request", async () => {
    const res = await post("runner.v1.RunnerService/Declare", new Uint8Array(0), { "content-type": "application/proto" });
    expect(res.status).toBe(401);
    expect(await connectError(res)).toEqual({ code: "unauthenticated", message: "unregistered runner" });
  });
});
