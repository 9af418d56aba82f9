import type { Env } from "../env.ts";
import type { ActionVariableRow } from "../../db/schema/index.ts";
import { writeTx } from "../../db/client.ts";
import * as model from "../../models/action-variable.ts";
import type { VariableLevel } from "../../models/action-variable.ts";
import { Conflict, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { validateSecretName } from "../secrets/validation.ts";
import type { Owns } from "../access/repo-access.ts";
import { checkVariableData, normalizeVariableData, truncateVariableDescription } from "./validation.ts";

export type { VariableLevel };

/**
 * Where a change of variables acts: a repository, whose context must carry the owner's check
 * (Gitea's reqOwner on the repository's Actions routes), or an organization's or user's level by
 * owner id (those levels check their owner in their declarations; no checked type carries it yet).
 */
export type VariableTarget = { repo: Owns } | { ownerId: number };

/** The level a target's variables live at. */
export function variableLevelOf(target: VariableTarget): VariableLevel {
  return "repo" in target ? { repoId: target.repo.repo.id } : { ownerId: target.ownerId };
}

/** Gitea's GetVariable error (util.NewNotExistErrorf("variable not found")). */
const notFound = () => new NotFound("variable not found");

/** Gitea's 409 for a name the level already has: the name as the caller wrote it. */
const nameTaken = (name: string) => new Conflict(`variable name ${name} already exists`);

/** Gitea's GetVariable: the level's variable of that name, case-insensitively, or 404. */
export function getVariable(env: Env, level: VariableLevel, name: string): ActionVariableRow {
  const variable = model.findVariable(env.db, level, name.toUpperCase());
  if (!variable) throw notFound();
  return variable;
}

/** A level's variables by name, one page, and how many there are. */
export function listVariables(
  env: Env,
  level: VariableLevel,
  page: { offset: number; limit: number },
): { items: ActionVariableRow[]; total: number } {
  const { rows, total } = model.listVariables(env.db, level, page);
  return { items: rows, total };
}

/**
 * Gitea's API create: 409 when the level already has the name (looked up before the name is
 * checked, as Gitea's handler does), then the shared secret/variable name rules (400), then
 * InsertVariable's data limit (400). The name is stored upper-cased, the value with CRLF line
 * breaks made LF, the description cut at 4096 characters.
 */
export function createVariable(
  env: Env,
  target: VariableTarget,
  name: string,
  value: string,
  description: string,
): ActionVariableRow {
  const level = variableLevelOf(target);
  return writeTx(env.db, (tx) => {
    if (model.findVariable(tx, level, name.toUpperCase())) throw nameTaken(name);
    validateSecretName(name);
    const data = normalizeVariableData(value);
    checkVariableData(data);
    const now = nowUnix();
    return model.insertVariable(tx, {
      ...model.variableLevelColumns(level),
      name: name.toUpperCase(),
      data,
      description: truncateVariableDescription(description),
      createdUnix: now,
      updatedUnix: now,
    });
  });
}

/**
 * Gitea's API update (UpdateVariableNameData): the level's variable named `name` (404), renamed to
 * `patch.name` when one is given, with the new value and description (an omitted description
 * clears it, as in Gitea). A new name follows the name rules (400); a name another variable of the
 * level has is a 409 here, where Gitea's unique index answers 500.
 */
export function updateVariable(
  env: Env,
  target: VariableTarget,
  name: string,
  patch: { name?: string; value: string; description?: string },
): ActionVariableRow {
  const level = variableLevelOf(target);
  return writeTx(env.db, (tx) => {
    const existing = model.findVariable(tx, level, name.toUpperCase());
    if (!existing) throw notFound();
    const newName = patch.name || name;
    validateSecretName(newName);
    const data = normalizeVariableData(patch.value);
    checkVariableData(data);
    if (model.variableNameTaken(tx, level, newName.toUpperCase(), existing.id)) throw nameTaken(newName);
    const changed = {
      name: newName.toUpperCase(),
      data,
      description: truncateVariableDescription(patch.description ?? ""),
      updatedUnix: nowUnix(),
    };
    model.updateVariable(tx, existing.id, changed);
    return { ...existing, ...changed };
  });
}

/**
 * Gitea's DeleteVariableByName: the level's variable of that name, or 404. The name is not checked
 * against the rules (Gitea 1.25 only looks it up); another level's variable is never touched.
 */
export function deleteVariableByName(env: Env, target: VariableTarget, name: string): void {
  const level = variableLevelOf(target);
  writeTx(env.db, (tx) => {
    const variable = model.findVariable(tx, level, name.toUpperCase());
    if (!variable) throw notFound();
    model.deleteVariable(tx, variable.id);
  });
}
