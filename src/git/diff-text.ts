import { GitError, runGit } from "./exec.ts";
import { isObjectId } from "./objects.ts";
import { gitStream } from "./tree.ts";

/**
 * The text of a diff for the pages that show one (a commit, a comparison, a pull request's
 * files): only the files of the page asked for, read up to a byte budget so that one huge file
 * cannot fill the server's memory; and the ahead/behind counts of the branch list.
 */

/** The empty tree of a repository's object format: what a root commit is compared with. */
export function emptyTreeFor(oid: string): string {
  return oid.length === 64 ? "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321" : "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
}

export interface DiffText {
  text: string;
  /** false when the budget ran out before git was done: the text ends inside a file. */
  ended: boolean;
}

/**
 * `git diff -M from to -- paths` (paths literal), with fixed prefixes, no colour, no external
 * diff or text conversion, read until `maxBytes`. `paths` must not be empty.
 */
export async function diffText(gitDir: string, from: string, to: string, paths: string[], maxBytes: number): Promise<DiffText> {
  const args = ["diff", "-M", "--no-color", "--no-ext-diff", "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/", from, to, "--", ...paths];
  if (!isObjectId(from) || !isObjectId(to)) throw new GitError(args, 128, "revisions must be object ids");
  if (paths.length === 0) return { text: "", ended: true };
  const stream = await gitStream(args, { gitDir });
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let ended = false;
  while (size < maxBytes) {
    const { done, value } = await reader.read();
    if (done) {
      ended = true;
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  if (!ended) await reader.cancel().catch(() => {});
  let buf = Buffer.concat(chunks, size);
  if (!ended) {
    // Keep whole lines only: the cut falls at the last newline within the budget.
    const cut = buf.subarray(0, maxBytes).lastIndexOf(10);
    buf = buf.subarray(0, cut < 0 ? 0 : cut + 1);
  }
  return { text: buf.toString("utf8"), ended };
}

/** Commits of `head` not in `base` (ahead) and of `base` not in `head` (behind). */
export async function aheadBehind(gitDir: string, base: string, head: string): Promise<{ ahead: number; behind: number } | undefined> {
  if (!isObjectId(base) || !isObjectId(head)) return undefined;
  if (base === head) return { ahead: 0, behind: 0 };
  const r = await runGit(["rev-list", "--left-right", "--count", `${base}...${head}`], { gitDir });
  if (r.code !== 0) return undefined;
  const m = /^(\d+)\s+(\d+)/.exec(r.stdout.toString("utf8"));
  return m ? { behind: Number(m[1]), ahead: Number(m[2]) } : undefined;
}
