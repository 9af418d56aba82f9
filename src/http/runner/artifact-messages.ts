/**
 * The messages of the artifact v4 protocol (Gitea's routers/api/actions/artifact.proto, package
 * github.actions.results.api.v1) in protojson, as Gitea reads and writes them with Go's
 * protojson: a field by its proto name or its lowerCamel JSON name, int64 as a decimal string
 * (or a number), google.protobuf wrappers as their bare value, Timestamp as RFC 3339; unknown
 * fields and wrong types are refused (Gitea answers those with a 500). Answers leave out fields
 * at their zero value and spell int64 as strings.
 */

type Kind = "string" | "int64" | "int32" | "bool" | "timestamp" | "stringValue" | "int64Value";

/** A message: its fields by proto name, each with its kind. */
type Fields = Record<string, Kind>;

type ValueOf<K extends Kind> = K extends "string" | "stringValue"
  ? string
  : K extends "int64" | "int32" | "int64Value"
    ? number
    : K extends "bool"
      ? boolean
      : K extends "timestamp"
        ? number
        : never;

type Decoded<F extends Fields> = { [N in keyof F]?: ValueOf<F[N]> };

export class BadMessage extends Error {}

const camel = (proto: string) => proto.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function integer(v: unknown, bits: 32 | 64): number {
  let n: number;
  if (typeof v === "number") n = v;
  else if (typeof v === "string" && /^-?\d+$/.test(v)) n = Number(v);
  else throw new BadMessage("not an integer");
  if (!Number.isSafeInteger(n) || (bits === 32 && (n < -(2 ** 31) || n >= 2 ** 31))) throw new BadMessage("integer out of range");
  return n;
}

/** RFC 3339 as protojson takes a Timestamp ("Z" or an offset, up to nine fractional digits) → unix ms. */
function timestamp(v: unknown): number {
  if (typeof v !== "string") throw new BadMessage("not a timestamp");
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/.exec(v);
  if (!m) throw new BadMessage("not a timestamp");
  const [, y, mo, d, h, mi, s, frac = "", zone] = m;
  let ms = Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s!, Math.floor(Number(`0.${frac || "0"}`) * 1000));
  if (zone !== "Z") ms -= (zone![0] === "-" ? -1 : 1) * (Number(zone!.slice(1, 3)) * 60 + Number(zone!.slice(4, 6))) * 60_000;
  return ms;
}

function value(kind: Kind, v: unknown): unknown {
  switch (kind) {
    case "string":
    case "stringValue":
      if (typeof v !== "string") throw new BadMessage("not a string");
      return v;
    case "bool":
      if (typeof v !== "boolean") throw new BadMessage("not a bool");
      return v;
    case "int32":
      return integer(v, 32);
    case "int64":
    case "int64Value":
      return integer(v, 64);
    case "timestamp":
      return timestamp(v);
  }
}

/** Reads one message from a request body's text; BadMessage when Go's protojson would refuse it. */
export function decodeMessage<F extends Fields>(fields: F, text: string): Decoded<F> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BadMessage("not JSON");
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) throw new BadMessage("not an object");
  const byName = new Map<string, string>();
  for (const proto of Object.keys(fields)) {
    byName.set(proto, proto);
    byName.set(camel(proto), proto);
  }
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const [key, v] of Object.entries(json)) {
    const proto = byName.get(key);
    if (!proto) throw new BadMessage(`unknown field ${key}`);
    if (seen.has(proto)) throw new BadMessage(`duplicate field ${key}`);
    seen.add(proto);
    // null leaves a field unset (for a wrapper or a Timestamp: absent).
    if (v === null) continue;
    out[proto] = value(fields[proto]!, v);
  }
  return out as Decoded<F>;
}

/** protojson's Timestamp: RFC 3339 in UTC, fractional digits only when there are any. */
export function timestampJson(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/\.000Z$/, "Z");
}

export const CreateArtifactRequest = {
  workflow_run_backend_id: "string",
  workflow_job_run_backend_id: "string",
  name: "string",
  expires_at: "timestamp",
  version: "int32",
} as const satisfies Fields;

export const FinalizeArtifactRequest = {
  workflow_run_backend_id: "string",
  workflow_job_run_backend_id: "string",
  name: "string",
  size: "int64",
  hash: "stringValue",
} as const satisfies Fields;

export const ListArtifactsRequest = {
  workflow_run_backend_id: "string",
  workflow_job_run_backend_id: "string",
  name_filter: "stringValue",
  id_filter: "int64Value",
} as const satisfies Fields;

export const GetSignedArtifactURLRequest = {
  workflow_run_backend_id: "string",
  workflow_job_run_backend_id: "string",
  name: "string",
} as const satisfies Fields;

export const DeleteArtifactRequest = GetSignedArtifactURLRequest;

/** An int64 field as protojson writes it: a decimal string, left out at 0. */
export const int64Json = (n: number): string | undefined => (n === 0 ? undefined : String(n));

/** Drops the fields protojson leaves out: unset, false, 0, "", and empty lists. */
export function omitZero(message: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(message).filter(([, v]) => v !== undefined && v !== false && v !== 0 && v !== "" && !(Array.isArray(v) && v.length === 0)),
  );
}
