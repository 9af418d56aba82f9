import type { ActionRunJobRow } from "../../db/schema/index.ts";
import { parseSingleJob, type SingleJob } from "../../lib/actions/jobs.ts";

/**
 * What a job row keeps as text, read back in one place: its `needs` and `runs-on` (JSON lists)
 * and its single-job workflow payload (YAML, read as jobparser reads it: lib/actions/jobs.ts).
 */

function stringList(json: string): string[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/** The keys of the jobs this one needs. */
export const jobNeeds = (job: Pick<ActionRunJobRow, "needsJson">): string[] => stringList(job.needsJson);

/** The labels of its `runs-on`, evaluated. */
export const jobRunsOn = (job: Pick<ActionRunJobRow, "runsOnJson">): string[] => stringList(job.runsOnJson);

/** The job of its payload; undefined for a payload that no longer reads. */
export function payloadJob(job: Pick<ActionRunJobRow, "workflowPayload">): SingleJob | undefined {
  try {
    return parseSingleJob(job.workflowPayload);
  } catch {
    return undefined;
  }
}

/** Whether the job has an `if:` (then the runner decides, even after a failed need). */
export function jobHasIf(job: Pick<ActionRunJobRow, "workflowPayload">): boolean {
  return (payloadJob(job)?.if ?? "").trim() !== "";
}

/** act's Step.String() for each step: its name, else what it uses, else what it runs, else its id. */
export function stepNames(job: Pick<ActionRunJobRow, "workflowPayload">): string[] {
  const steps = payloadJob(job)?.raw.steps;
  if (!Array.isArray(steps)) return [];
  return steps.map((s) => {
    const step = (s ?? {}) as Record<string, unknown>;
    const name = [step.name, step.uses, step.run, step.id].find((v) => typeof v === "string" && v !== "");
    return String(name ?? "").slice(0, 255);
  });
}

/** The workflow's `name:`, else its file name: the first part of every status context of the run. */
export function workflowDisplayName(job: Pick<ActionRunJobRow, "workflowPayload">, run: { workflowId: string }): string {
  const name = payloadJob(job)?.workflow.name;
  return typeof name === "string" && name.trim() ? name : run.workflowId;
}
