import { runGit, GitError } from "./exec.ts";
import { isObjectId } from "./objects.ts";

/**
 * What commits change, for many commits in one `git log --no-walk` each: the changed files as
 * Gitea's GetCommitFileStatus lists them (name-status against the first parent, no rename
 * detection: a rename is a removal and an addition), and line counts as Gitea's commit stats
 * (`git diff --shortstat` against the first parent, or the empty tree for a root commit, with
 * git's default rename detection; binary files count no lines).
 */

export interface FileStatus {
  added: string[];
  removed: string[];
  modified: string[];
}

export interface DiffStat {
  additions: number;
  deletions: number;
}

/** How many path fields follow a record's first field: name-status `R100` has two, numstat renames two. */
function pathsAfter(first: string): number {
  const numstat = /^(?:\d+|-)\t(?:\d+|-)\t([\s\S]*)$/.exec(first);
  if (numstat) return numstat[1] === "" ? 2 : 0;
  return /^[RC]/.test(first) ? 2 : 1;
}

/**
 * Runs `git log --no-walk=unsorted -z --format=%H <opts> <commits>` and splits it per commit into
 * records (a status or numstat field and its paths). Output per commit: `<id>`, then, when it
 * changes anything, `\n` and the NUL-separated records; commits are separated by an empty field.
 * Records are consumed whole, so a path never reads as a commit id.
 */
async function perCommit(gitDir: string, commits: string[], opts: string[]): Promise<Map<string, string[][]>> {
  const out = new Map<string, string[][]>();
  const ids = [...new Set(commits)].filter(isObjectId);
  if (ids.length === 0) return out;
  const args = ["log", "--no-walk=unsorted", "-z", "--format=format:%H", "-m", "--first-parent", ...opts, "--stdin"];
  // The ids go on stdin: a compare may list more commits than fit on a command line.
  const r = await runGit(args, { gitDir, input: ids.join("\n") + "\n" });
  if (r.code !== 0) throw new GitError(args, r.code, r.stderr);
  let records: string[][] | undefined;
  let record: string[] = [];
  let need = 0;
  const start = (first: string) => {
    record = [first];
    records!.push(record);
    need = pathsAfter(first);
  };
  for (const f of r.stdout.toString("utf8").split("\0")) {
    if (need > 0) {
      record.push(f);
      need--;
      continue;
    }
    if (f === "") continue;
    const head = /^([0-9a-f]{40}|[0-9a-f]{64})(?:\n([\s\S]*))?$/.exec(f);
    if (head) {
      records = [];
      out.set(head[1]!, records);
      if (head[2]) start(head[2]);
    } else if (records) {
      start(f);
    }
  }
  return out;
}

/** Added, removed and modified paths of each commit (a type change is none of them, as in Gitea). */
export async function fileStatuses(gitDir: string, commits: string[]): Promise<Map<string, FileStatus>> {
  const raw = await perCommit(gitDir, commits, ["--name-status", "--no-renames"]);
  const out = new Map<string, FileStatus>();
  for (const id of commits) {
    const st: FileStatus = { added: [], removed: [], modified: [] };
    out.set(id, st);
    for (const [status, path] of raw.get(id) ?? []) {
      if (path === undefined) continue;
      if (status![0] === "A") st.added.push(path);
      else if (status![0] === "D") st.removed.push(path);
      else if (status![0] === "M") st.modified.push(path);
    }
  }
  return out;
}

/** Lines added and deleted by each commit against its first parent (or the empty tree). */
export async function diffStats(gitDir: string, commits: string[]): Promise<Map<string, DiffStat>> {
  const raw = await perCommit(gitDir, commits, ["--numstat", "-M"]);
  const out = new Map<string, DiffStat>();
  for (const id of commits) {
    const st: DiffStat = { additions: 0, deletions: 0 };
    for (const [first] of raw.get(id) ?? []) {
      const m = /^(\d+|-)\t(\d+|-)\t/.exec(first!);
      if (!m) continue;
      if (m[1] !== "-") st.additions += Number(m[1]);
      if (m[2] !== "-") st.deletions += Number(m[2]);
    }
    out.set(id, st);
  }
  return out;
}
