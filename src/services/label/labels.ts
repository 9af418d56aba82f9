import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { LabelRow } from "../../db/schema/index.ts";
import * as labels from "../../models/label.ts";
import type { LabelParent, LabelSort } from "../../models/label.ts";
import { Invalid, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { normalizeColor } from "./color.ts";
import type { SignedIn } from "../access/repo-access.ts";

export type { LabelParent, LabelSort };

/**
 * Where a change of labels acts: a repository, whose context must carry its declaration's check
 * (a signed-in doer; Gitea's writer of issues or pull requests is asked by the caller, as a
 * declaration names one unit), or an organization by id (its level checks the owner in its
 * declaration; no checked type carries it yet).
 */
export type LabelTarget = { repo: SignedIn } | { orgId: number };

/** The parent whose labels a target names. */
export function labelParentOf(target: LabelTarget): LabelParent {
  return "repo" in target ? { repoId: target.repo.repo.id } : { orgId: target.orgId };
}

/** Gitea's `sort` values for label lists; anything else lists by name. */
export function labelSort(value: string | undefined): LabelSort {
  return value === "reversealphabetically" || value === "leastissues" || value === "mostissues" ? value : "alphabetically";
}

/** A page of labels, or all of them when the request named no page (Gitea paginates labels only then). */
export function listLabels(env: Env, parent: LabelParent, sort: LabelSort, page: { limit: number; offset: number } | undefined) {
  return labels.listLabels(env.db, parent, sort, page);
}

/**
 * `{id}` of GET …/labels/{id}: a decimal number is an id, anything else a name (Gitea's GetLabel
 * tries strconv.ParseInt first). A label of another repository or organization is a 404.
 */
export function labelByIdOrName(env: Env, parent: LabelParent, idOrName: string): LabelRow {
  const id = parseId(idOrName);
  const label =
    id === undefined ? labels.getLabelByName(env.db, parent, idOrName) : id > 0 ? labels.getLabel(env.db, parent, id) : undefined;
  if (!label) throw new NotFound();
  return label;
}

/** `{id}` of PATCH/DELETE …/labels/{id}: an id only (Gitea's PathParamInt64; a non-number is 0 and finds nothing). */
export function labelById(env: Env, parent: LabelParent, idParam: string): LabelRow {
  const id = parseId(idParam) ?? 0;
  const label = id > 0 ? labels.getLabel(env.db, parent, id) : undefined;
  if (!label) throw new NotFound();
  return label;
}

/** Go's strconv.ParseInt(s, 10, 64): optional sign, decimal digits, within int64. */
export function parseId(s: string): number | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = BigInt(s);
  if (n > 9223372036854775807n || n < -9223372036854775808n) return undefined;
  return Number(n);
}


export interface CreateLabelInput {
  name: string;
  color: string;
  exclusive?: boolean;
  description?: string;
  isArchived?: boolean;
}

/** Gitea's CreateLabel: the color normalized (422 when it is not one), archived now if asked. */
export function createLabel(env: Env, target: LabelTarget, input: CreateLabelInput): LabelRow {
  const parent = labelParentOf(target);
  const color = normalizeColor(input.color);
  const now = nowUnix();
  return writeTx(env.db, (tx) =>
    labels.insertLabel(tx, {
      repoId: "repoId" in parent ? parent.repoId : 0,
      orgId: "orgId" in parent ? parent.orgId : 0,
      name: input.name,
      exclusive: input.exclusive ?? false,
      color,
      description: input.description ?? "",
      archivedUnix: input.isArchived ? now : 0,
      createdUnix: now,
      updatedUnix: now,
    }),
  );
}

export interface EditLabelInput {
  name?: string;
  color?: string;
  exclusive?: boolean;
  description?: string;
  isArchived?: boolean;
}

/**
 * Gitea's EditLabel: the target's label of the path's id (404 for any other), then only the given
 * fields change. The archive time is set when a label becomes archived and kept while it stays so;
 * unarchiving clears it.
 */
export function editLabel(env: Env, target: LabelTarget, idParam: string, input: EditLabelInput): LabelRow {
  const label = labelById(env, labelParentOf(target), idParam);
  // Gitea would store an empty name; a label nobody can name or find by name is refused instead.
  if (input.name !== undefined && input.name === "") throw new Invalid("[Name]: Required");
  const color = input.color !== undefined ? normalizeColor(input.color) : undefined;
  const now = nowUnix();
  const patch: Partial<LabelRow> = { updatedUnix: now };
  if (input.name !== undefined) patch.name = input.name;
  if (input.exclusive !== undefined) patch.exclusive = input.exclusive;
  if (color !== undefined) patch.color = color;
  if (input.description !== undefined) patch.description = input.description;
  if (input.isArchived !== undefined) patch.archivedUnix = input.isArchived ? label.archivedUnix || now : 0;
  return writeTx(env.db, (tx) => labels.updateLabel(tx, label.id, patch));
}

/**
 * Deletes the target's label of the path's id (404 for any other): it goes off every issue, and
 * its timeline events with it (Gitea's DeleteLabel).
 */
export function deleteLabel(env: Env, target: LabelTarget, idParam: string): void {
  const label = labelById(env, labelParentOf(target), idParam);
  writeTx(env.db, (tx) => labels.deleteLabelRow(tx, label.id));
}
