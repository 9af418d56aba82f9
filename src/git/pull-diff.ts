import { runGit, GitError } from "./exec.ts";
import { isObjectId } from "./objects.ts";

/**
 * The changes of a pull request, from its merge base to its head: the changed files with line
 * counts (Gitea's GetDiff with rename detection) and the raw diff or patch text (Gitea's
 * GetDiffOrPatch).
 */

export type WhitespaceMode = "ignore-all" | "ignore-change" | "ignore-eol" | "show-all" | "";

/** Gitea's GetWhitespaceFlag. */
const WHITESPACE_FLAGS: Record<string, string[]> = {
  "ignore-all": ["-w"],
  "ignore-change": ["-b"],
  "ignore-eol": ["--ignore-space-at-eol"],
};

export interface ChangedPath {
  /** git's status letter: A, D, M, R, C, T. */
  status: string;
  path: string;
  /** For a rename or copy, the old path. */
  oldPath: string | undefined;
  additions: number;
  deletions: number;
}

function checkIds(args: string[], ...ids: string[]): void {
  for (const id of ids) if (!isObjectId(id)) throw new GitError(args, 128, "revisions must be object ids");
}

async function diffRecords(gitDir: string, args: string[]): Promise<string[]> {
  const r = await runGit(args, { gitDir });
  if (r.code !== 0) throw new GitError(args, r.code, r.stderr);
  return r.stdout.toString("utf8").split("\0");
}

/** Every file changed between two commits, in git's order, renames detected. */
export async function changedPaths(gitDir: string, from: string, to: string, whitespace: WhitespaceMode = ""): Promise<ChangedPath[]> {
  const nameArgs = ["diff", "--name-status", "-z", "-M", from, to];
  const statArgs = ["diff", "--numstat", "-z", "-M", ...(WHITESPACE_FLAGS[whitespace] ?? []), from, to];
  checkIds(nameArgs, from, to);
  const [names, stats] = await Promise.all([diffRecords(gitDir, nameArgs), diffRecords(gitDir, statArgs)]);

  const out: ChangedPath[] = [];
  for (let i = 0; i < names.length; ) {
    const status = names[i++];
    if (!status) continue;
    const letter = status[0]!;
    if (letter === "R" || letter === "C") {
      const oldPath = names[i++] ?? "";
      const path = names[i++] ?? "";
      out.push({ status: letter, path, oldPath, additions: 0, deletions: 0 });
    } else {
      out.push({ status: letter, path: names[i++] ?? "", oldPath: undefined, additions: 0, deletions: 0 });
    }
  }
  // numstat lists the same files in the same order: `add\tdel\tpath`, or `add\tdel\t` then old and new path.
  const byPath = new Map<string, { additions: number; deletions: number }>();
  for (let i = 0; i < stats.length; ) {
    const rec = stats[i++];
    if (!rec) continue;
    const m = /^(\d+|-)\t(\d+|-)\t([\s\S]*)$/.exec(rec);
    if (!m) continue;
    let path = m[3]!;
    if (path === "") {
      i++; // old path
      path = stats[i++] ?? "";
    }
    byPath.set(path, { additions: m[1] === "-" ? 0 : Number(m[1]), deletions: m[2] === "-" ? 0 : Number(m[2]) });
  }
  for (const f of out) Object.assign(f, byPath.get(f.path) ?? {});
  return out;
}

/**
 * The diff from `from` to `to` as text: `git diff -p` (with `--binary` when asked, applicable with
 * `git apply`), or with `patch` one mail per commit (`git format-patch --no-signature --binary --stdout`).
 */
export async function diffOrPatch(gitDir: string, from: string, to: string, patch: boolean, binary: boolean): Promise<Buffer> {
  const args = patch
    ? ["format-patch", "--no-signature", "--binary", "--stdout", `${from}..${to}`]
    : ["diff", "-p", "-M", ...(binary ? ["--binary"] : []), from, to];
  checkIds(args, from, to);
  const r = await runGit(args, { gitDir });
  if (r.code !== 0) throw new GitError(args, r.code, r.stderr);
  return r.stdout;
}

/**
 * One commit's change as Gitea's GetRawDiff gives it: against its first parent (`git diff -M`, or
 * `git format-patch` of that one commit); a root commit as `git show` / `format-patch --root`.
 */
export async function commitDiffOrPatch(gitDir: string, commit: string, parent: string | undefined, patch: boolean): Promise<Buffer> {
  let args: string[];
  if (patch) args = parent ? ["format-patch", "--no-signature", "--stdout", `${parent}..${commit}`] : ["format-patch", "--no-signature", "--stdout", "--root", "-1", commit];
  else args = parent ? ["diff", "-M", parent, commit] : ["show", commit];
  checkIds(args, commit, ...(parent ? [parent] : []));
  const r = await runGit(args, { gitDir });
  if (r.code !== 0) throw new GitError(args, r.code, r.stderr);
  return r.stdout;
}
