/**
 * The Connect protocol's unary calls over web Request/Response: the wire layer of the runner door.
 *
 * act_runner (connect-go) posts one protobuf message per call and reads one back; a browser or curl
 * may speak the same calls in Connect JSON. This module decodes the request by the Connect spec
 * (https://connectrpc.com/docs/protocol), hands the message to a handler, and encodes its answer or
 * its error. Errors are always Connect's JSON `{"code","message"}` with the spec's HTTP status, so
 * connect-go on the runner turns them back into the same codes Gitea's handlers return.
 */
import { create, fromBinary, fromJson, toBinary, toJson } from "@bufbuild/protobuf";
import type { DescMessage, MessageInitShape, MessageShape } from "@bufbuild/protobuf";

export type ConnectCode =
  | "canceled"
  | "unknown"
  | "invalid_argument"
  | "deadline_exceeded"
  | "not_found"
  | "already_exists"
  | "permission_denied"
  | "resource_exhausted"
  | "failed_precondition"
  | "aborted"
  | "out_of_range"
  | "unimplemented"
  | "internal"
  | "unavailable"
  | "data_loss"
  | "unauthenticated";

/** The HTTP status the Connect spec gives each code on a unary error. */
const HTTP_STATUS: Record<ConnectCode, number> = {
  canceled: 499,
  unknown: 500,
  invalid_argument: 400,
  deadline_exceeded: 504,
  not_found: 404,
  already_exists: 409,
  permission_denied: 403,
  resource_exhausted: 429,
  failed_precondition: 400,
  aborted: 409,
  out_of_range: 400,
  unimplemented: 501,
  internal: 500,
  unavailable: 503,
  data_loss: 500,
  unauthenticated: 401,
};

/** An error a handler throws on purpose: its code and message go to the caller as they are. */
export class ConnectError extends Error {
  constructor(
    readonly code: ConnectCode,
    message: string,
  ) {
    super(message);
    this.name = "ConnectError";
  }
}

export function httpStatusOf(code: ConnectCode): number {
  return HTTP_STATUS[code];
}

/** A Connect error answer; the door also uses it for failures outside `serveUnary` (an unknown runner). */
export function connectErrorResponse(err: ConnectError, headers?: Record<string, string>): Response {
  const body: { code: ConnectCode; message?: string } = { code: err.code };
  if (err.message !== "") body.message = err.message;
  const h = new Headers(headers);
  h.set("content-type", "application/json");
  return new Response(JSON.stringify(body), { status: HTTP_STATUS[err.code], headers: h });
}

/** Request bodies beyond this (before or after gunzip) are refused; runner logs come in far smaller batches. */
export const MAX_CONNECT_BODY_BYTES = 32 * 1024 * 1024;

/** Answers smaller than this go out uncompressed, as Gitea's handler is set up (`WithCompressMinBytes(1024)`). */
const COMPRESS_MIN_BYTES = 1024;

/** Connect-Timeout-Ms is "a positive integer of at most 10 digits". */
const TIMEOUT_PATTERN = /^[0-9]{1,10}$/;

const SUPPORTED_ENCODINGS = "gzip";
const ACCEPT_POST = "application/json, application/proto";

type Format = "proto" | "json";

export interface UnaryContext {
  /** The request's headers (the runner's `x-runner-uuid` / `x-runner-token`). */
  readonly headers: Headers;
  /** Aborted when the caller's Connect-Timeout-Ms runs out or the caller goes away. */
  readonly signal: AbortSignal;
}

export interface ServeUnaryOptions {
  /** Told about every error that is not a ConnectError (the caller sees only "internal"). */
  onInternalError?: (err: unknown) => void;
  /** Overrides MAX_CONNECT_BODY_BYTES (tests). */
  maxBodyBytes?: number;
}

/** A procedure's implementation: the decoded request in, the answer (a message or its init shape) out. */
export type UnaryHandler<I extends DescMessage, O extends DescMessage> = (
  msg: MessageShape<I>,
  ctx: UnaryContext,
) => Promise<MessageInitShape<O>> | MessageInitShape<O>;

/**
 * Serves one Connect unary call: decodes `input` from the request, runs `handle`, encodes its result
 * as `output` in the request's format (binary or JSON).
 */
export async function serveUnary<I extends DescMessage, O extends DescMessage>(
  req: Request,
  input: I,
  output: O,
  handle: NoInfer<UnaryHandler<I, O>>,
  options: ServeUnaryOptions = {},
): Promise<Response> {
  // Connect unary calls are POSTs (GET is only for idempotent methods, which these are not).
  if (req.method !== "POST") {
    return new Response(null, { status: 405, headers: { allow: "POST" } });
  }
  const format = formatOf(req.headers.get("content-type"));
  if (format === undefined) {
    return new Response(null, { status: 415, headers: { "accept-post": ACCEPT_POST } });
  }
  const timer = new AbortController();
  let timeout: ReturnType<typeof setTimeout> | undefined;
  try {
    checkProtocolVersion(req.headers.get("connect-protocol-version"));
    const timeoutMs = parseTimeout(req.headers.get("connect-timeout-ms"));
    const body = await readBody(req, options.maxBodyBytes ?? MAX_CONNECT_BODY_BYTES);
    const msg = decode(input, format, body);

    const ctx: UnaryContext = { headers: req.headers, signal: AbortSignal.any([timer.signal, req.signal]) };
    const work = Promise.resolve().then(() => handle(msg, ctx));
    const result =
      timeoutMs === undefined
        ? await work
        : await Promise.race([
            work,
            new Promise<never>((_, reject) => {
              timeout = setTimeout(() => {
                timer.abort();
                reject(new ConnectError("deadline_exceeded", "the call's deadline was exceeded"));
              }, timeoutMs);
            }),
          ]);
    return await encodeAnswer(output, format, create(output, result), req.headers.get("accept-encoding"));
  } catch (err) {
    if (err instanceof ConnectError) {
      // Refusing a Content-Encoding tells the client which ones it may use instead.
      const headers = err instanceof EncodingRefused ? { "accept-encoding": SUPPORTED_ENCODINGS } : undefined;
      return connectErrorResponse(err, headers);
    }
    options.onInternalError?.(err);
    // Never the error's own text: it may hold a stack, a server path or SQL.
    return connectErrorResponse(new ConnectError("internal", "internal error"));
  } finally {
    if (timeout !== undefined) clearTimeout(timeout);
  }
}

/** `application/proto` or `application/json`, parameters (charset) allowed; anything else is not Connect unary. */
function formatOf(contentType: string | null): Format | undefined {
  if (contentType === null) return undefined;
  const [type, ...params] = contentType.split(";").map((s) => s.trim().toLowerCase());
  if (type === "application/proto") return "proto";
  if (type === "application/json") {
    // JSON is UTF-8 by definition; another declared charset is a different body.
    const charset = params.find((p) => p.startsWith("charset="))?.slice("charset=".length).replace(/"/g, "");
    if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") return undefined;
    return "json";
  }
  return undefined;
}

function checkProtocolVersion(value: string | null): void {
  if (value !== null && value.trim() !== "1") {
    throw new ConnectError("invalid_argument", `connect-protocol-version must be "1": got "${value}"`);
  }
}

function parseTimeout(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (!TIMEOUT_PATTERN.test(value.trim())) {
    throw new ConnectError("invalid_argument", `protocol error: invalid connect-timeout-ms "${value}"`);
  }
  return Number(value.trim());
}

/** A request compressed in a way we cannot read: `unimplemented`, and the answer names what we can. */
class EncodingRefused extends ConnectError {
  constructor(encoding: string) {
    super("unimplemented", `unsupported content-encoding "${encoding}": supported are ${SUPPORTED_ENCODINGS}`);
  }
}

/** The request body, gunzipped when sent so, and never more than `cap` bytes either way. */
async function readBody(req: Request, cap: number): Promise<Uint8Array> {
  const encoding = (req.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding !== "identity" && encoding !== "gzip" && encoding !== "") {
    throw new EncodingRefused(encoding);
  }
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > cap) throw tooLarge(cap);
  if (req.body === null) return new Uint8Array(0);
  let stream: ReadableStream<Uint8Array> = req.body;
  if (encoding === "gzip") {
    // Counting the compressed bytes first, then the inflated ones, stops both a huge upload and a gzip bomb.
    stream = stream.pipeThrough(capStream(cap)).pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>);
  }
  try {
    return await collect(stream, cap);
  } catch (err) {
    if (err instanceof ConnectError) throw err;
    throw new ConnectError("invalid_argument", "the request body is not valid gzip");
  }
}

function tooLarge(cap: number): ConnectError {
  return new ConnectError("resource_exhausted", `the request body is larger than ${cap} bytes`);
}

function capStream(cap: number): TransformStream<Uint8Array, Uint8Array> {
  let size = 0;
  return new TransformStream({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > cap) controller.error(tooLarge(cap));
      else controller.enqueue(chunk);
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>, cap: number): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel().catch(() => {});
      throw tooLarge(cap);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decode<I extends DescMessage>(schema: I, format: Format, body: Uint8Array): MessageShape<I> {
  try {
    if (format === "proto") return fromBinary(schema, body);
    // As connect-go's JSON codec: an empty body is not a JSON object; unknown fields are skipped so a
    // newer client's additions do not break an older server.
    if (body.byteLength === 0) throw new Error("zero-length payload is not a valid JSON object");
    return fromJson(schema, JSON.parse(utf8.decode(body)), { ignoreUnknownFields: true });
  } catch (err) {
    const what = err instanceof Error ? err.message : String(err);
    throw new ConnectError("invalid_argument", `unmarshal into ${schema.typeName}: ${what}`);
  }
}

async function encodeAnswer<O extends DescMessage>(
  schema: O,
  format: Format,
  msg: MessageShape<O>,
  acceptEncoding: string | null,
): Promise<Response> {
  const payload =
    format === "proto" ? toBinary(schema, msg) : new TextEncoder().encode(JSON.stringify(toJson(schema, msg)));
  const headers = new Headers({
    "content-type": format === "proto" ? "application/proto" : "application/json",
    "accept-encoding": SUPPORTED_ENCODINGS,
  });
  if (payload.byteLength >= COMPRESS_MIN_BYTES && acceptsGzip(acceptEncoding)) {
    headers.set("content-encoding", "gzip");
    return new Response(await gzip(payload), { status: 200, headers });
  }
  return new Response(payload, { status: 200, headers });
}

function acceptsGzip(header: string | null): boolean {
  if (header === null) return false;
  return header.split(",").some((part) => {
    const [name, ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    return name === "gzip" && !params.some((p) => /^q=0(\.0*)?$/.test(p));
  });
}

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
