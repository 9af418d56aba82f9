/**
 * Password hashing: argon2id through Bun's built-in implementation (no native addon to embed).
 * Gitea's defaults are matched: 64 MiB memory, 2 passes.
 */
const ARGON2 = { algorithm: "argon2id", memoryCost: 65536, timeCost: 2 } as const;

export const PASSWORD_ALGO = "argon2id";

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, ARGON2);
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  if (!hash) return false;
  try {
    return await Bun.password.verify(password, hash);
  } catch {
    return false;
  }
}

/** A fixed hash verified against when the user does not exist, so timing does not reveal existence. */
let decoy: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  decoy ??= hashPassword("hearth-decoy-password");
  await verifyPassword(password, await decoy);
}
