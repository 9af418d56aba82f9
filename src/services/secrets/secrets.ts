import type { Env } from "../env.ts";
import type { SecretRow } from "../../db/schema/index.ts";
import { writeTx } from "../../db/client.ts";
import * as model from "../../models/secret.ts";
import type { SecretLevel } from "../../models/secret.ts";
import { NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { checkSecretData, truncateDescription, validateSecretName } from "./validation.ts";
import { sealSecretData } from "./seal.ts";
import type { Owns } from "../access/repo-access.ts";

export type { SecretLevel };

/**
 * Where a change of secrets acts: a repository, whose context must carry the owner's check (Gitea's
 * reqOwner on the repository's Actions routes), or an organization's or user's level by owner id
 * (those levels check their owner in their declarations; no checked type carries it yet).
 */
export type SecretTarget = { repo: Owns } | { ownerId: number };

/** The level a target's secrets live at. */
export function secretLevelOf(target: SecretTarget): SecretLevel {
  return "repo" in target ? { repoId: target.repo.repo.id } : { ownerId: target.ownerId };
}

/**
 * Gitea's CreateOrUpdateSecret, one operation for both: the name is checked (400), then the
 * level's secret of that name (case-insensitively: names are stored upper-cased) gets the new
 * value and description, or is created. `created` tells which, for the 201 / 204 answer.
 */
export function createOrUpdateSecret(
  env: Env,
  target: SecretTarget,
  name: string,
  data: string,
  description: string,
): { secret: SecretRow; created: boolean } {
  const level = secretLevelOf(target);
  validateSecretName(name);
  checkSecretData(data);
  const stored = { ...model.levelColumns(level), name: name.toUpperCase() };
  const sealed = sealSecretData(env, stored, data);
  const desc = truncateDescription(description);
  return writeTx(env.db, (tx) => {
    const existing = model.findSecret(tx, level, stored.name);
    if (existing) {
      model.updateSecret(tx, existing.id, { data: sealed, description: desc });
      return { secret: { ...existing, data: sealed, description: desc }, created: false };
    }
    const secret = model.insertSecret(tx, { ...stored, data: sealed, description: desc, createdUnix: nowUnix() });
    return { secret, created: true };
  });
}

/**
 * Gitea's DeleteSecretByName: the level's secret of that name, or 404 with Gitea's message
 * (which names no secret: Gitea builds the error without it). A secret of the same name at
 * another level is never touched.
 */
export function deleteSecretByName(env: Env, target: SecretTarget, name: string): void {
  const level = secretLevelOf(target);
  writeTx(env.db, (tx) => {
    const secret = model.findSecret(tx, level, name.toUpperCase());
    if (!secret) throw new NotFound("secret was not found [name: ]");
    model.deleteSecret(tx, secret.id);
  });
}

/** A level's secrets by name, one page, and how many there are. */
export function listSecrets(
  env: Env,
  level: SecretLevel,
  page: { offset: number; limit: number },
): { items: SecretRow[]; total: number } {
  const { rows, total } = model.listSecrets(env.db, level, page);
  return { items: rows, total };
}
