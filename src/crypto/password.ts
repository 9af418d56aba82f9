/**
 * Password hashing: argon2id with Gitea's cost (64 MiB, 2 passes). @node-rs/argon2 rather than
 * Bun.password: it is 1.8x faster at the same parameters (bench/RESULTS.md), and every git
 * operation authenticated by password pays one verify.
 */
const ARGON2 = {
  // Algorithm.Argon2id: a const enum, which isolated modules cannot import by name.
  algorithm: 2,
  memoryCost: 65536,
  timeCost: 2,
  parallelism: 1,
} as const;

export const PASSWORD_ALGO = "argon2id";

/**
 * The native module is loaded by the first password check, not at start-up: loading it (the
 * executable writes the .node file out and dlopens it) was a fifth of the server's start
 * (bench/startup.ts), and a server used with tokens only never needs it.
 */
const argon2 = () => import("@node-rs/argon2");

export async function hashPassword(password: string): Promise<string> {
  return (await argon2()).hash(password, ARGON2);
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (!stored) return false;
  try {
    return await (await argon2()).verify(stored, password);
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
