/**
 * Reading a workflow file: YAML (read as go-yaml v3 reads it, see yaml.ts; `on` stays a string key) into
 * the parts the server needs — triggers, jobs in file order, `needs`, `if`, `runs-on`, strategy and
 * concurrency — keeping the raw document for re-emitting single-job payloads (`jobs.ts`).
 */

import { WorkflowError } from "./errors.ts";
import { parseEvents, type WorkflowEvents } from "./events.ts";
import { parseYaml, stringAt } from "./yaml.ts";

export { WorkflowError };

/** `concurrency:` as written: a bare group string, or `{group, cancel-in-progress}`; values may hold `${{ }}`. */
export interface Concurrency {
  group: string;
  /** The raw `cancel-in-progress` ("true", "false" or an expression); undefined when not given. */
  cancelInProgress?: string;
}

export interface Strategy {
  /** The raw `strategy.matrix` (a mapping, or an expression string). */
  matrix?: unknown;
  /** A literal boolean, or the raw expression text. */
  failFast?: boolean | string;
  maxParallel?: number | string;
}

export interface WorkflowJob {
  id: string;
  name?: string;
  needs: string[];
  if?: string;
  /** The labels as written (a `{group, labels}` form flattened as act does); may hold `${{ }}`. */
  runsOn: string[];
  strategy?: Strategy;
  concurrency?: Concurrency;
  /** A reusable workflow call (`uses:`) instead of steps. */
  uses?: string;
  raw: Record<string, unknown>;
}

export interface Workflow {
  name?: string;
  runName?: string;
  on: WorkflowEvents;
  env: Record<string, string>;
  jobs: WorkflowJob[];
  concurrency?: Concurrency;
  permissions?: unknown;
  raw: Record<string, unknown>;
}

const WORKFLOW_DIRS = [".gitea/workflows/", ".github/workflows/"] as const;

/** A `.yml`/`.yaml` file below `.gitea/workflows` or `.github/workflows` (any depth, as Gitea lists them recursively). */
export function isWorkflowFile(path: string): boolean {
  return (path.endsWith(".yml") || path.endsWith(".yaml")) && WORKFLOW_DIRS.some((d) => path.startsWith(d));
}

/**
 * Gitea's ListWorkflows over a commit's file paths: the workflows of `.gitea/workflows` when that folder
 * exists, else those of `.github/workflows` — never both.
 */
export function selectWorkflowFiles(paths: readonly string[]): string[] {
  const dir = paths.some((p) => p.startsWith(WORKFLOW_DIRS[0])) ? WORKFLOW_DIRS[0] : WORKFLOW_DIRS[1];
  return paths.filter((p) => p.startsWith(dir) && (p.endsWith(".yml") || p.endsWith(".yaml")));
}

/** The workflow's id as Gitea names it (its entry name): the path below the workflows folder, `ci.yml`. */
export function workflowIdOf(path: string): string {
  const dir = WORKFLOW_DIRS.find((d) => path.startsWith(d));
  return dir ? path.slice(dir.length) : path;
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Parses YAML (its first document, as go-yaml's Unmarshal), refusing what go-yaml refuses and what is not a mapping. */
export function parseYamlMapping(content: string, what: string): Record<string, unknown> {
  const doc = parseYaml(content, what);
  if (!isRecord(doc)) throw new WorkflowError(`${what} must be a YAML mapping (with "on" and "jobs")`);
  return doc;
}

/** `container[key]` as go-yaml decodes it into a Go string (a plain scalar as written). */
function textAt(container: object, key: string | number, field: string): string {
  const v = (container as Record<string, unknown>)[String(key)];
  if (v !== null && typeof v === "object") {
    throw new WorkflowError(`"${field}" must be a single value, found ${Array.isArray(v) ? "a list" : "a mapping"}`);
  }
  return stringAt(container, key) ?? "";
}

function stringList(container: object, key: string, field: string): string[] {
  const v = (container as Record<string, unknown>)[key];
  if (v === null || v === undefined) return [];
  const refuse = () => new WorkflowError(`"${field}" must be a string or a list of strings`);
  if (Array.isArray(v)) {
    return v.map((item, i) => {
      if (item !== null && typeof item === "object") throw refuse();
      return stringAt(v, i) ?? "";
    });
  }
  if (typeof v === "object") throw refuse();
  return [stringAt(container, key) ?? ""];
}

/** act's RunsOn: a string, a list, or `{group, labels}` (the group appended after the labels). */
export function parseRunsOn(job: Record<string, unknown>, where: string): string[] {
  const v = job["runs-on"];
  if (isRecord(v)) {
    const labels = stringList(v, "labels", `${where}.runs-on.labels`);
    const group = v["group"] === undefined ? "" : textAt(v, "group", `${where}.runs-on.group`);
    return group ? [...labels, group] : labels;
  }
  return stringList(job, "runs-on", `${where}.runs-on`);
}

export function parseConcurrency(container: Record<string, unknown>, where: string): Concurrency | undefined {
  const v = container["concurrency"];
  if (v === undefined || v === null) return undefined;
  if (isRecord(v)) {
    const group = v["group"] === undefined ? "" : textAt(v, "group", `${where}concurrency.group`);
    const cancel = v["cancel-in-progress"];
    return cancel === undefined || cancel === null
      ? { group }
      : { group, cancelInProgress: textAt(v, "cancel-in-progress", `${where}concurrency.cancel-in-progress`) };
  }
  if (Array.isArray(v)) throw new WorkflowError(`"${where}concurrency" must be a group name or a mapping with "group"`);
  return { group: textAt(container, "concurrency", `${where}concurrency`) };
}

function parseStrategy(v: unknown, id: string): Strategy | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v)) throw new WorkflowError(`"jobs.${id}.strategy" must be a mapping`);
  const strategy: Strategy = {};
  if (v["matrix"] !== undefined && v["matrix"] !== null) {
    const m = v["matrix"];
    if (!isRecord(m) && typeof m !== "string") {
      throw new WorkflowError(`"jobs.${id}.strategy.matrix" must be a mapping of lists or an expression`);
    }
    strategy.matrix = m;
  }
  const ff = v["fail-fast"];
  if (ff !== undefined && ff !== null) strategy.failFast = typeof ff === "boolean" ? ff : textAt(v, "fail-fast", `jobs.${id}.strategy.fail-fast`);
  const mp = v["max-parallel"];
  if (mp !== undefined && mp !== null) strategy.maxParallel = typeof mp === "number" ? mp : textAt(v, "max-parallel", `jobs.${id}.strategy.max-parallel`);
  return strategy;
}

function parseJob(id: string, v: unknown): WorkflowJob {
  if (!isRecord(v)) throw new WorkflowError(`job "${id}" must be a mapping (with "runs-on" and "steps")`);
  const job: WorkflowJob = {
    id,
    needs: stringList(v, "needs", `jobs.${id}.needs`),
    runsOn: parseRunsOn(v, `jobs.${id}`),
    raw: v,
  };
  if (v["name"] !== undefined && v["name"] !== null) job.name = textAt(v, "name", `jobs.${id}.name`);
  if (v["if"] !== undefined && v["if"] !== null) job.if = textAt(v, "if", `jobs.${id}.if`);
  const strategy = parseStrategy(v["strategy"], id);
  if (strategy) job.strategy = strategy;
  const concurrency = parseConcurrency(v, `jobs.${id}.`);
  if (concurrency) job.concurrency = concurrency;
  if (typeof v["uses"] === "string") job.uses = v["uses"];
  return job;
}

/** The jobs mapping in file order; throws when it is missing or not a mapping, as jobparser does. */
export function parseJobs(raw: Record<string, unknown>): WorkflowJob[] {
  const jobs = raw["jobs"];
  if (!isRecord(jobs)) throw new WorkflowError(`the workflow needs a "jobs" mapping`);
  const ids = Object.keys(jobs);
  if (ids.length === 0) throw new WorkflowError(`the workflow's "jobs" is empty`);
  const known = new Set(ids);
  const parsed = ids.map((id) => parseJob(id, jobs[id]));
  for (const job of parsed) {
    for (const need of job.needs) {
      if (!known.has(need)) throw new WorkflowError(`job "${job.id}" needs "${need}", which is not a job of this workflow`);
    }
  }
  return parsed;
}

function parseEnv(v: unknown): Record<string, string> {
  if (v === undefined || v === null) return {};
  // An expression (`env: ${{ fromJSON(...) }}`) cannot be a mapping of strings; go-yaml refuses it as well.
  if (!isRecord(v)) throw new WorkflowError(`"env" must be a mapping of names to values`);
  const env: Record<string, string> = {};
  for (const k of Object.keys(v)) env[k] = textAt(v, k, `env.${k}`);
  return env;
}

/** Parses a workflow file; throws `WorkflowError` with a message the author can act on. */
export function parseWorkflow(content: string): Workflow {
  const raw = parseYamlMapping(content, "the workflow");
  if (!("on" in raw)) throw new WorkflowError(`the workflow needs an "on" section saying which events trigger it`);
  const workflow: Workflow = {
    on: parseEvents(raw["on"]),
    env: parseEnv(raw["env"]),
    jobs: parseJobs(raw),
    raw,
  };
  if (raw["name"] !== undefined && raw["name"] !== null) workflow.name = textAt(raw, "name", "name");
  if (raw["run-name"] !== undefined && raw["run-name"] !== null) workflow.runName = textAt(raw, "run-name", "run-name");
  const concurrency = parseConcurrency(raw, "");
  if (concurrency) workflow.concurrency = concurrency;
  if (raw["permissions"] !== undefined) workflow.permissions = raw["permissions"];
  return workflow;
}
