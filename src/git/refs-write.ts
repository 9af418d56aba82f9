import { runGit } from "./exec.ts";
import { isHexId } from "./reflist.ts";

/**
 * Every ref change the API makes: one `git update-ref --stdin` transaction per change, each
 * command carrying the value the ref must have now (compare-and-swap), so a concurrent push is
 * never overwritten and a half-done change never shows. Ref names and ids are checked before
 * they reach git, and travel on stdin, never as arguments.
 */

export const ZERO_ID = "0000000000000000000000000000000000000000";

export type RefOp =
  | { op: "create"; ref: string; sha: string }
  | { op: "update"; ref: string; sha: string; old: string }
  | { op: "delete"; ref: string; old: string };

/** Why a ref transaction was refused. */
export type RefErrorKind =
  /** A ref to create already exists. */
  | "exists"
  /** A ref is not at the expected value (moved meanwhile, or gone). */
  | "moved"
  /** A directory/file clash: `a` exists and `a/b` was to be created, or the reverse. */
  | "conflict"
  /** Anything else (bad name, I/O). */
  | "failed";

export class RefUpdateError extends Error {
  constructor(
    readonly kind: RefErrorKind,
    readonly detail: string,
  ) {
    super(`ref update refused (${kind}): ${detail}`);
    this.name = "RefUpdateError";
  }
}

// eslint-disable-next-line no-control-regex
const SAFE_REF = /^refs\/[^\x00-\x20\x7f]+$/;

function line(op: RefOp): string {
  if (!SAFE_REF.test(op.ref)) throw new RefUpdateError("failed", `unsafe ref name ${JSON.stringify(op.ref)}`);
  const ids = op.op === "create" ? [op.sha] : op.op === "update" ? [op.sha, op.old] : [op.old];
  for (const id of ids) if (!isHexId(id)) throw new RefUpdateError("failed", `not an object id: ${JSON.stringify(id)}`);
  switch (op.op) {
    case "create":
      return `create ${op.ref} ${op.sha}\n`;
    case "update":
      return `update ${op.ref} ${op.sha} ${op.old}\n`;
    case "delete":
      return `delete ${op.ref} ${op.old}\n`;
  }
}

function classify(stderr: string): RefErrorKind {
  if (/reference already exists/.test(stderr)) return "exists";
  if (/but expected|unable to resolve reference|reference is missing/.test(stderr)) return "moved";
  if (/exists; cannot create|at the same time/.test(stderr)) return "conflict";
  return "failed";
}

/** Applies the operations atomically: all of them, or (on a RefUpdateError) none. */
export async function updateRefs(gitDir: string, ops: RefOp[]): Promise<void> {
  if (ops.length === 0) return;
  const input = ops.map(line).join("");
  const r = await runGit(["update-ref", "--stdin"], { gitDir, input });
  if (r.code !== 0) throw new RefUpdateError(classify(r.stderr), r.stderr.trim());
}

/**
 * Moves `from` to `to` at `sha`. One transaction when git allows it; a rename between `a` and
 * `a/b` cannot be one (git refuses both names in one transaction), so it deletes then creates,
 * putting `from` back if the creation fails.
 */
export async function renameRef(gitDir: string, from: string, to: string, sha: string): Promise<void> {
  try {
    await updateRefs(gitDir, [
      { op: "create", ref: to, sha },
      { op: "delete", ref: from, old: sha },
    ]);
    return;
  } catch (err) {
    const nested = to.startsWith(`${from}/`) || from.startsWith(`${to}/`);
    if (!(err instanceof RefUpdateError) || err.kind !== "conflict" || !nested) throw err;
  }
  await updateRefs(gitDir, [{ op: "delete", ref: from, old: sha }]);
  try {
    await updateRefs(gitDir, [{ op: "create", ref: to, sha }]);
  } catch (err) {
    await updateRefs(gitDir, [{ op: "create", ref: from, sha }]).catch(() => undefined);
    throw err;
  }
}

/**
 * Gitea's IsValidRefPattern: no control characters, space, `\ ~ ^ : ? * [`, no component
 * starting with `.`, no trailing `.` or `.lock`, no `..` or `@{`.
 */
export function isValidRefPattern(name: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f \\~^:?*[]|(?:^|\/)\.|\.(?:$|\/)|\.lock$/.test(name)) return false;
  return !name.includes("..") && !name.includes("@{");
}

/**
 * Whether `short` may be the name of a ref under `prefix` (`refs/heads/`, `refs/tags/`): Gitea's
 * pattern rule, no leading `-`, at most `max` bytes, and `git check-ref-format` on the full name.
 */
export async function isValidRefName(prefix: "refs/heads/" | "refs/tags/", short: string, max = 255): Promise<boolean> {
  if (!short || short.startsWith("-") || Buffer.byteLength(short) > max || !isValidRefPattern(short)) return false;
  const r = await runGit(["check-ref-format", `${prefix}${short}`]);
  return r.code === 0;
}

/** Deletes every ref below `prefix` (e.g. a pull request's `refs/pull/7/`), atomically. */
export async function deleteRefsUnder(gitDir: string, prefix: string): Promise<void> {
  if (!SAFE_REF.test(prefix) || !prefix.endsWith("/")) throw new RefUpdateError("failed", `unsafe ref prefix ${JSON.stringify(prefix)}`);
  const r = await runGit(["for-each-ref", "--format=%(objectname) %(refname)", "--", prefix], { gitDir });
  if (r.code !== 0) throw new RefUpdateError("failed", r.stderr.trim());
  const ops: RefOp[] = r.stdout
    .toString("utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => {
      const [old, ref] = l.split(" ", 2) as [string, string];
      return { op: "delete", ref, old };
    });
  await updateRefs(gitDir, ops);
}
