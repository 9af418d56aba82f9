/**
 * Evaluating a `concurrency:` (the workflow's or a job's) as Gitea 1.25's jobparser.EvaluateConcurrency
 * does: the bare form `concurrency: <group>` is the group, interpolated, and never cancels; in the mapping
 * form each value holding `${{ }}` is evaluated — a whole expression keeps its type, so
 * `cancel-in-progress: ${{ github.ref != 'refs/heads/main' }}` is a boolean — and cancelling happens only
 * when `cancel-in-progress` reads "true".
 *
 * The caller supplies the contexts Gitea offers there: for the run, `github`, `vars` and `inputs`; for a
 * job, also its `matrix` combination, `strategy` and `needs` (with their outputs and results).
 */

import { evaluateTemplate, ExpressionError, type ExpressionContext } from "./expression.ts";
import type { Concurrency } from "./workflow.ts";

export interface EvaluatedConcurrency {
  /** Empty when the workflow asks for no concurrency group. */
  group: string;
  cancelInProgress: boolean;
}

/** A value as go-yaml writes an evaluated result and reads it back into a Go string. */
function asGoString(v: unknown, field: string): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  throw new ExpressionError(`concurrency ${field} must evaluate to a single value, not ${Array.isArray(v) ? "an array" : "an object"}`);
}

/** Evaluates one scalar as jobparser's EvaluateYamlNode does: text without `${{ }}` stays as it is. */
function evaluateScalar(text: string, ctx: ExpressionContext, field: string): string {
  if (!text.includes("${{") || !text.includes("}}")) return text;
  return asGoString(evaluateTemplate(text, ctx), field);
}

/** Throws `ExpressionError` when an expression is malformed or fails, as Gitea then reports the run's error. */
export function evaluateConcurrency(concurrency: Concurrency, ctx: ExpressionContext): EvaluatedConcurrency {
  const group = evaluateScalar(concurrency.group, ctx, "group");
  if (concurrency.cancelInProgress === undefined) return { group, cancelInProgress: false };
  const cancel = evaluateScalar(concurrency.cancelInProgress, ctx, "cancel-in-progress");
  return { group, cancelInProgress: cancel === "true" };
}
