import { and, asc, count, eq, ne } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { actionVariables, type ActionVariableRow, type NewActionVariableRow } from "../db/schema/index.ts";

/**
 * Where a variable lives, as Gitea's FindVariablesOpts tells them apart: a repository's (repo_id,
 * owner_id 0) or a user's or organization's (owner_id, repo_id 0). A condition on one level never
 * matches a row of another, so the same name at two levels are two variables.
 */
export type VariableLevel = { repoId: number } | { ownerId: number };

/** The row's columns for a level: Gitea stores repository variables with owner_id 0. */
export function variableLevelColumns(level: VariableLevel): { ownerId: number; repoId: number } {
  return "repoId" in level ? { ownerId: 0, repoId: level.repoId } : { ownerId: level.ownerId, repoId: 0 };
}

function levelCondition(level: VariableLevel) {
  const { ownerId, repoId } = variableLevelColumns(level);
  return and(eq(actionVariables.repoId, repoId), eq(actionVariables.ownerId, ownerId));
}

/** A level's variable by its stored (upper-cased) name. */
export function findVariable(tx: Tx, level: VariableLevel, name: string): ActionVariableRow | undefined {
  return tx
    .select()
    .from(actionVariables)
    .where(and(levelCondition(level), eq(actionVariables.name, name)))
    .get();
}

/** Whether another variable of the level than `exceptId` already has the stored name. */
export function variableNameTaken(tx: Tx, level: VariableLevel, name: string, exceptId: number): boolean {
  return (
    tx
      .select({ id: actionVariables.id })
      .from(actionVariables)
      .where(and(levelCondition(level), eq(actionVariables.name, name), ne(actionVariables.id, exceptId)))
      .get() !== undefined
  );
}

export function insertVariable(tx: Tx, row: NewActionVariableRow): ActionVariableRow {
  return tx.insert(actionVariables).values(row).returning().get();
}

/** Gitea's UpdateVariableCols(name, data, description), with its updated stamp. */
export function updateVariable(
  tx: Tx,
  id: number,
  patch: Pick<ActionVariableRow, "name" | "data" | "description" | "updatedUnix">,
): void {
  tx.update(actionVariables).set(patch).where(eq(actionVariables.id, id)).run();
}

/** A level's variables by name (id breaks ties), one page, and how many there are. */
export function listVariables(
  tx: Tx,
  level: VariableLevel,
  page: { offset: number; limit: number },
): { rows: ActionVariableRow[]; total: number } {
  const where = levelCondition(level);
  const rows = tx
    .select()
    .from(actionVariables)
    .where(where)
    .orderBy(asc(actionVariables.name), asc(actionVariables.id))
    .limit(page.limit)
    .offset(page.offset)
    .all();
  const total = tx.select({ n: count() }).from(actionVariables).where(where).get()?.n ?? 0;
  return { rows, total };
}

export function deleteVariable(tx: Tx, id: number): void {
  tx.delete(actionVariables).where(eq(actionVariables.id, id)).run();
}

/** A repository's own variables, when the repository is deleted. */
export function deleteRepoVariables(tx: Tx, repoId: number): void {
  tx.delete(actionVariables).where(eq(actionVariables.repoId, repoId)).run();
}

/** An account's own variables (user or organization level), when the account is deleted. */
export function deleteOwnerVariables(tx: Tx, ownerId: number): void {
  tx.delete(actionVariables).where(and(eq(actionVariables.ownerId, ownerId), eq(actionVariables.repoId, 0))).run();
}

/** Every variable of the level (a run gets them all). */
export function allVariablesOf(tx: Tx, level: VariableLevel): ActionVariableRow[] {
  return tx.select().from(actionVariables).where(levelCondition(level)).orderBy(asc(actionVariables.id)).all();
}
