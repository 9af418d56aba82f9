import { and, asc, count, eq } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { secrets, type NewSecretRow, type SecretRow } from "../db/schema/index.ts";

/**
 * Where a secret lives, as Gitea's FindSecretsOptions tells them apart: a repository's (repo_id,
 * owner_id 0) or a user's or organization's (owner_id, repo_id 0). A condition on one level never
 * matches a row of the other, so the same name at two levels are two secrets.
 */
export type SecretLevel = { repoId: number } | { ownerId: number };

/** The row's columns for a level: Gitea stores repository secrets with owner_id 0. */
export function levelColumns(level: SecretLevel): { ownerId: number; repoId: number } {
  return "repoId" in level ? { ownerId: 0, repoId: level.repoId } : { ownerId: level.ownerId, repoId: 0 };
}

function levelCondition(level: SecretLevel) {
  const { ownerId, repoId } = levelColumns(level);
  return and(eq(secrets.repoId, repoId), eq(secrets.ownerId, ownerId));
}

/** A level's secret by its stored (upper-cased) name. */
export function findSecret(tx: Tx, level: SecretLevel, name: string): SecretRow | undefined {
  return tx
    .select()
    .from(secrets)
    .where(and(levelCondition(level), eq(secrets.name, name)))
    .get();
}

export function insertSecret(tx: Tx, row: NewSecretRow): SecretRow {
  return tx.insert(secrets).values(row).returning().get();
}

/** Gitea's UpdateSecret: only the data and the description change. */
export function updateSecret(tx: Tx, id: number, patch: Pick<SecretRow, "data" | "description">): void {
  tx.update(secrets).set(patch).where(eq(secrets.id, id)).run();
}

/** A level's secrets by name (id breaks ties), one page, and how many there are. */
export function listSecrets(
  tx: Tx,
  level: SecretLevel,
  page: { offset: number; limit: number },
): { rows: SecretRow[]; total: number } {
  const where = levelCondition(level);
  const rows = tx
    .select()
    .from(secrets)
    .where(where)
    .orderBy(asc(secrets.name), asc(secrets.id))
    .limit(page.limit)
    .offset(page.offset)
    .all();
  const total = tx.select({ n: count() }).from(secrets).where(where).get()?.n ?? 0;
  return { rows, total };
}

export function deleteSecret(tx: Tx, id: number): void {
  tx.delete(secrets).where(eq(secrets.id, id)).run();
}

/** A repository's own secrets, when the repository is deleted. */
export function deleteRepoSecrets(tx: Tx, repoId: number): void {
  tx.delete(secrets).where(eq(secrets.repoId, repoId)).run();
}

/** An account's own secrets (user or organization level), when the account is deleted. */
export function deleteOwnerSecrets(tx: Tx, ownerId: number): void {
  tx.delete(secrets).where(and(eq(secrets.ownerId, ownerId), eq(secrets.repoId, 0))).run();
}

/** Every secret of the level (a task gets them all). */
export function allSecretsOf(tx: Tx, level: SecretLevel): SecretRow[] {
  return tx.select().from(secrets).where(levelCondition(level)).orderBy(asc(secrets.id)).all();
}
