import type { Env } from "../env.ts";
import type { SecretRow } from "../../db/schema/index.ts";

/**
 * A secret's value is kept sealed (AES-GCM under a key derived from SECRET_KEY, env.secretBox),
 * bound to the row's level and name: a sealed value copied onto another secret, another
 * repository or another account does not open.
 */
const context = (s: Pick<SecretRow, "ownerId" | "repoId" | "name">) => `secret:${s.ownerId}:${s.repoId}:${s.name}`;

export function sealSecretData(env: Env, s: Pick<SecretRow, "ownerId" | "repoId" | "name">, data: string): string {
  return env.secretBox.seal(data, context(s));
}

/** The clear value, for whoever runs the workflows; throws when it does not open (another SECRET_KEY, a moved row). */
export function openSecretData(env: Env, s: Pick<SecretRow, "ownerId" | "repoId" | "name" | "data">): string {
  return env.secretBox.open(s.data, context(s));
}
