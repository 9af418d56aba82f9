/**
 * Planning a run's jobs as Gitea's jobparser.Parse does: every job times every combination of its
 * `strategy.matrix` (act's GetMatrixes with `include`/`exclude`, sorted by the combination's name), each
 * named act's way, its `runs-on` interpolated with the matrix, and a single-job workflow YAML — the payload
 * Gitea stores per job and hands to the runner (needs erased, matrix narrowed to the one combination).
 */

import { WorkflowError } from "./errors.ts";
import { evaluateTemplate, ExpressionError, interpolate, type ExpressionContext } from "./expression.ts";
import { interpolateRunName } from "./run-name.ts";
import { isRecord, parseConcurrency, parseRunsOn, parseYamlMapping, type Concurrency, type Workflow, type WorkflowJob } from "./workflow.ts";
import { stringAt, stringMap } from "./yaml.ts";

export interface PlanContext {
  github: Record<string, unknown>;
  inputs?: Record<string, unknown>;
  vars?: Record<string, string>;
}

export interface PlannedJob {
  jobId: string;
  name: string;
  needs: string[];
  if?: string;
  runsOn: string[];
  /** The job's `concurrency:` as written (evaluated later, when the job is about to run). */
  concurrency?: Concurrency;
  /** The one matrix combination of this job ({} without a matrix). */
  matrix: Record<string, unknown>;
  /** The single-job workflow YAML Gitea stores as the job's WorkflowPayload. */
  payload: string;
}

type Combination = Record<string, unknown>;

/** Go's fmt.Sprint of a decoded YAML/JSON value, which act uses for matrix names. */
export function goSprint(v: unknown): string {
  if (v === null || v === undefined) return "<nil>";
  if (typeof v === "string") return v;
  if (typeof v === "number") {
    if (Number.isInteger(v) || !Number.isFinite(v)) return Number.isFinite(v) ? String(v) : v > 0 ? "+Inf" : Number.isNaN(v) ? "NaN" : "-Inf";
    const s = String(v);
    return s.includes("e") ? s.replace(/e([+-])(\d)$/, "e$10$2") : s;
  }
  if (typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return `[${v.map(goSprint).join(" ")}]`;
  if (isRecord(v)) {
    return `map[${Object.keys(v).sort().map((k) => `${k}:${goSprint(v[k])}`).join(" ")}]`;
  }
  return String(v);
}

/** act's matrixName: the values in key order, `(v1, v2)`. */
export function matrixName(m: Combination): string {
  return `(${Object.keys(m).sort().map((k) => goSprint(m[k])).join(", ")})`;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/** A value that may be a `${{ }}` expression, evaluated at plan time (throws ExpressionError when it cannot be). */
function resolve(v: unknown, ctx: ExpressionContext): unknown {
  return typeof v === "string" && v.includes("${{") ? evaluateTemplate(v, ctx) : v;
}

function listOfMaps(v: unknown, what: string): Combination[] {
  const items = v === null || v === undefined ? [] : Array.isArray(v) ? v.flat() : [v];
  return items.map((item) => {
    if (!isRecord(item)) throw new WorkflowError(`matrix ${what} entries must be mappings`);
    return { ...item };
  });
}

/**
 * act's GetMatrixes: the cartesian product of the matrix's lists, less the `exclude` entries, with each
 * `include` entry merged into every combination it agrees with on the original keys, or added on its own.
 * A matrix that cannot be computed yet (it reads `needs` outputs) gives one combination-less job, as
 * Gitea 1.25 plans it.
 */
export function matrixCombinations(job: WorkflowJob, ctx: ExpressionContext): Combination[] {
  const rawMatrix = job.strategy?.matrix;
  if (rawMatrix === undefined || rawMatrix === null) return [{}];
  let lists: Record<string, unknown[]>;
  let includes: Combination[];
  let excludes: Combination[];
  try {
    const matrix = resolve(rawMatrix, ctx);
    if (!isRecord(matrix)) throw new WorkflowError(`jobs.${job.id}.strategy.matrix must be a mapping of lists`);
    lists = {};
    for (const [key, value] of Object.entries(matrix)) {
      if (key === "include" || key === "exclude") continue;
      const v = resolve(value, ctx);
      lists[key] = Array.isArray(v) ? v : [v];
    }
    includes = listOfMaps(resolve(matrix["include"], ctx), "include");
    excludes = listOfMaps(resolve(matrix["exclude"], ctx), "exclude");
  } catch (err) {
    if (err instanceof ExpressionError) return [{}];
    throw err;
  }
  for (const exclude of excludes) {
    for (const key of Object.keys(exclude)) {
      if (!Object.hasOwn(lists, key)) {
        throw new WorkflowError(`the workflow is not valid. Matrix exclude key "${key}" does not match any key within the matrix (job "${job.id}")`);
      }
    }
  }
  const keys = Object.keys(lists);
  let product: Combination[] = keys.length === 0 ? [] : [{}];
  for (const key of keys) {
    product = product.flatMap((combo) => lists[key]!.map((value) => ({ ...combo, [key]: value })));
  }
  const agrees = (combo: Combination, other: Combination, onlyKeys?: Record<string, unknown>) =>
    Object.entries(combo).every(([k, v]) => (onlyKeys && !Object.hasOwn(onlyKeys, k)) || !Object.hasOwn(other, k) || deepEqual(v, other[k]));
  const combos = product.filter((combo) => !excludes.some((ex) => agrees(combo, ex)));
  const extra: Combination[] = [];
  for (const include of includes) {
    let merged = false;
    for (const combo of combos) {
      if (agrees(combo, include, lists)) {
        Object.assign(combo, include);
        merged = true;
      }
    }
    if (!merged) extra.push(include);
  }
  const all = [...combos, ...extra];
  return all.length === 0 ? [{}] : all;
}

/** act's Interpolate in jobparser: an expression that fails to evaluate leaves an empty string. */
function safeInterpolate(text: string, ctx: ExpressionContext): string {
  try {
    return interpolate(text, ctx);
  } catch (err) {
    if (err instanceof ExpressionError) return "";
    throw err;
  }
}

function nameWithMatrix(name: string, matrix: Combination, ctx: ExpressionContext): string {
  if (Object.keys(matrix).length === 0) return name;
  if (!name.includes("${{") || !name.includes("}}")) return `${name} ${matrixName(matrix)}`;
  return safeInterpolate(name, ctx);
}

const sortedMap = (v: unknown): unknown =>
  isRecord(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v;

const present = (v: unknown) => v !== undefined && v !== null;

/** The fields jobparser's Step keeps, in its order; a null step is dropped. */
const STEP_FIELDS = ["id", "if", "name", "uses", "run", "working-directory", "shell", "env", "with", "continue-on-error", "timeout-minutes"];
const CONTAINER_FIELDS = ["image", "env", "ports", "volumes", "options", "credentials", "cmd"];

/** Fields decoded into Go strings or map[string]string keep their written text (`1.20` stays "1.20"). */
const STRING_FIELDS = new Set(["id", "name", "uses", "run", "working-directory", "shell", "timeout-minutes", "image", "options"]);
// env is a yaml.Node in jobparser's structs, re-emitted with its scalars as written; the runner reads it as strings
const STRING_MAP_FIELDS = new Set(["with", "env"]);

function pick(src: Record<string, unknown>, fields: readonly string[], stringMaps = STRING_MAP_FIELDS): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (!present(src[f])) continue;
    if (STRING_FIELDS.has(f)) out[f] = stringAt(src, f) ?? src[f];
    else if (stringMaps.has(f)) out[f] = stringMap(src[f]) ?? sortedMap(src[f]); // a Go map: keys sorted
    else out[f] = src[f];
  }
  return out;
}

function defaultsOf(v: unknown): Record<string, unknown> | undefined {
  if (!isRecord(v) || !isRecord(v["run"])) return undefined;
  const run = pick(v["run"], ["shell", "working-directory"]);
  return Object.keys(run).length > 0 ? { run } : undefined;
}

/** The job as jobparser's Job struct re-encodes it: its fields in struct order, unknown keys dropped. */
function singleJob(raw: Record<string, unknown>, name: string, runsOn: string[], matrix: Combination): Record<string, unknown> {
  const job: Record<string, unknown> = { name };
  // needs are erased: the stored payload holds one job, which cannot need another
  job["runs-on"] = runsOn.length === 1 ? runsOn[0] : runsOn;
  if (present(raw["env"])) job["env"] = stringMap(raw["env"]) ?? raw["env"];
  if (present(raw["if"])) job["if"] = raw["if"];
  if (Array.isArray(raw["steps"])) {
    const steps = raw["steps"].filter(isRecord).map((s) => pick(s, STEP_FIELDS));
    if (steps.length > 0) job["steps"] = steps;
  }
  if (present(raw["timeout-minutes"])) job["timeout-minutes"] = stringAt(raw, "timeout-minutes") ?? raw["timeout-minutes"];
  if (present(raw["continue-on-error"])) job["continue-on-error"] = raw["continue-on-error"];
  if (isRecord(raw["services"])) {
    const services = sortedMap(raw["services"]) as Record<string, unknown>;
    // a service's env is a map[string]string too
    const serviceMaps = new Set(["env", "credentials"]);
    job["services"] = Object.fromEntries(Object.entries(services).map(([k, v]) => [k, isRecord(v) ? pick(v, CONTAINER_FIELDS, serviceMaps) : v]));
  }
  const strategy: Record<string, unknown> = {};
  const rawStrategy = isRecord(raw["strategy"]) ? raw["strategy"] : {};
  if (present(rawStrategy["fail-fast"])) strategy["fail-fast"] = rawStrategy["fail-fast"];
  if (present(rawStrategy["max-parallel"])) strategy["max-parallel"] = rawStrategy["max-parallel"];
  if (Object.keys(matrix).length > 0) {
    strategy["matrix"] = Object.fromEntries(Object.keys(matrix).sort().map((k) => [k, [matrix[k]]]));
  }
  if (Object.keys(strategy).length > 0) job["strategy"] = strategy;
  if (present(raw["container"])) job["container"] = raw["container"];
  const defaults = defaultsOf(raw["defaults"]);
  if (defaults) job["defaults"] = defaults;
  if (isRecord(raw["outputs"])) job["outputs"] = stringMap(raw["outputs"]) ?? sortedMap(raw["outputs"]);
  if (typeof raw["uses"] === "string" && raw["uses"] !== "") job["uses"] = raw["uses"];
  if (isRecord(raw["with"])) job["with"] = sortedMap(raw["with"]);
  if (present(raw["secrets"])) job["secrets"] = raw["secrets"];
  if (present(raw["concurrency"])) job["concurrency"] = raw["concurrency"];
  if (present(raw["permissions"])) job["permissions"] = raw["permissions"];
  return job;
}

/**
 * jobparser's SingleWorkflow: name, on, env (sorted, as a Go map), jobs, defaults, permissions and run-name
 * (already interpolated, as jobparser stores it).
 */
function singleWorkflow(workflow: Workflow, runName: string, jobId: string, job: Record<string, unknown>): string {
  const raw = workflow.raw;
  const doc: Record<string, unknown> = {};
  if (workflow.name) doc["name"] = workflow.name;
  if (present(raw["on"])) doc["on"] = raw["on"];
  if (Object.keys(workflow.env).length > 0) doc["env"] = sortedMap(workflow.env);
  doc["jobs"] = { [jobId]: job };
  const defaults = defaultsOf(raw["defaults"]);
  if (defaults) doc["defaults"] = defaults;
  if (present(raw["permissions"])) doc["permissions"] = raw["permissions"];
  if (runName) doc["run-name"] = runName;
  return Bun.YAML.stringify(doc, null, 2);
}

/** The contexts jobparser's interpreter offers: github, vars, inputs, matrix, strategy and empty needs. */
function jobContext(job: WorkflowJob, ctx: PlanContext, matrix: Combination): ExpressionContext {
  const ff = job.strategy?.failFast;
  const mp = job.strategy?.maxParallel;
  return {
    github: ctx.github,
    inputs: ctx.inputs ?? {},
    vars: ctx.vars ?? {},
    matrix,
    strategy: {
      "fail-fast": typeof ff === "boolean" ? ff : ff === undefined ? true : ff === "true",
      "max-parallel": typeof mp === "number" ? mp : mp === undefined ? 4 : Number(mp) || 4,
    },
    needs: Object.fromEntries(job.needs.map((n) => [n, { outputs: null, result: "" }])),
  };
}

/** Plans a run's jobs; `content` is the workflow file the `workflow` was parsed from. */
export function expandJobs(workflow: Workflow, content: string, ctx: PlanContext): PlannedJob[] {
  // The parsed workflow carries its raw document; the text must be the one it was parsed from.
  if (content.length === 0) throw new WorkflowError("the workflow file is empty");
  const planned: PlannedJob[] = [];
  const runName = workflow.runName ? interpolateRunName(workflow.runName, ctx) : "";
  for (const job of workflow.jobs) {
    const baseCtx = jobContext(job, ctx, {});
    const combos = matrixCombinations(job, baseCtx).sort((a, b) => {
      const na = matrixName(a);
      const nb = matrixName(b);
      return na < nb ? -1 : na > nb ? 1 : 0;
    });
    for (const matrix of combos) {
      const jctx = jobContext(job, ctx, matrix);
      const name = nameWithMatrix(job.name || job.id, matrix, jctx);
      const runsOn = job.runsOn.map((label) => safeInterpolate(label, jctx));
      const payload = singleWorkflow(workflow, runName, job.id, singleJob(job.raw, name, runsOn, matrix));
      const plannedJob: PlannedJob = { jobId: job.id, name, needs: [...job.needs], runsOn, matrix, payload };
      if (job.if !== undefined) plannedJob.if = job.if;
      if (job.concurrency) plannedJob.concurrency = job.concurrency;
      planned.push(plannedJob);
    }
  }
  return planned;
}

export interface SingleJob {
  id: string;
  name: string;
  if?: string;
  runsOn: string[];
  concurrency?: Concurrency;
  /** The combination the payload's `strategy.matrix` narrows to ({} without a matrix). */
  matrix: Record<string, unknown>;
  raw: Record<string, unknown>;
  /** The payload's whole document (name, on, env, run-name, ...). */
  workflow: Record<string, unknown>;
}

/** Reads back a stored single-job payload (its first job), for the job's `if`, name and matrix. */
export function parseSingleJob(payload: string): SingleJob {
  const doc = parseYamlMapping(payload, "the job payload");
  const jobs = doc["jobs"];
  if (!isRecord(jobs) || Object.keys(jobs).length === 0) throw new WorkflowError(`the job payload has no job`);
  const id = Object.keys(jobs)[0]!;
  const raw = jobs[id];
  if (!isRecord(raw)) throw new WorkflowError(`job "${id}" in the payload must be a mapping`);
  const matrix: Record<string, unknown> = {};
  const rawMatrix = isRecord(raw["strategy"]) ? raw["strategy"]["matrix"] : undefined;
  if (isRecord(rawMatrix)) {
    for (const [k, v] of Object.entries(rawMatrix)) if (Array.isArray(v) && v.length === 1) matrix[k] = v[0];
  }
  const job: SingleJob = {
    id,
    name: (raw["name"] === undefined || raw["name"] === null ? undefined : stringAt(raw, "name")) || id,
    runsOn: parseRunsOn(raw, `jobs.${id}`),
    matrix,
    raw,
    workflow: doc,
  };
  if (present(raw["if"])) job.if = stringAt(raw, "if") ?? "";
  const concurrency = parseConcurrency(raw, `jobs.${id}.`);
  if (concurrency) job.concurrency = concurrency;
  return job;
}
