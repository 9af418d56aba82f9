import { git, refuseNulMessage, runGit, GitError } from "./exec.ts";
import { readCommit, EMPTY_TREE_SHA1, type Commit } from "./objects.ts";
import { isAncestor } from "./reflist.ts";
import { treeOf as maybeTreeOf } from "./merge-check.ts";

/**
 * Merging without a working tree: every merge, squash and rebase hearth performs is computed
 * with `git merge-tree --write-tree` and recorded with `git commit-tree`, so the repository only
 * gains objects; which ref moves, and whether it moves at all, is the caller's compare-and-swap.
 * A failed or conflicting merge leaves nothing behind but unreachable objects, which gc prunes.
 */

/** Who wrote or committed a commit, and when (unix seconds). */
export interface GitIdentity {
  name: string;
  email: string;
  unix: number;
}

/** The merge cannot be done without a human: the conflicting paths, and for a rebase the commit that failed. */
export class MergeConflictError extends Error {
  constructor(
    readonly files: string[],
    readonly commit?: string,
  ) {
    super(commit ? `rebase conflict at ${commit}: ${files.join(", ")}` : `merge conflict in ${files.join(", ")}`);
    this.name = "MergeConflictError";
  }
}

export class UnrelatedHistoriesError extends Error {
  constructor() {
    super("refusing to merge unrelated histories");
    this.name = "UnrelatedHistoriesError";
  }
}

export interface TreeMerge {
  /** The merged tree; with conflicts, the tree carries conflict markers and must not be committed. */
  tree: string;
  conflicted: string[];
}

/**
 * Three-way merge of two commits' trees at their merge base (git >= 2.38). Throws
 * UnrelatedHistoriesError when they share no history, as `git merge` would, unless
 * `allowUnrelated` (then they merge against the empty tree: a mergeability check reports
 * conflicts rather than failing).
 */
export async function mergeTrees(gitDir: string, ours: string, theirs: string, opts: { allowUnrelated?: boolean } = {}): Promise<TreeMerge> {
  const args = ["merge-tree", "--write-tree", "--name-only", "--no-messages", "-z", ...(opts.allowUnrelated ? ["--allow-unrelated-histories"] : []), ours, theirs];
  const r = await runGit(args, { gitDir });
  if (r.code === 0 || r.code === 1) {
    const parts = r.stdout.toString("utf8").split("\0");
    const tree = parts[0]!.trim();
    // With -z and --no-messages the conflicted paths follow the tree, ended by an empty field.
    const conflicted = r.code === 1 ? [...new Set(parts.slice(1).filter((p) => p !== ""))] : [];
    return { tree, conflicted };
  }
  if (/unrelated histories/.test(r.stderr)) throw new UnrelatedHistoriesError();
  throw new GitError(["merge-tree"], r.code, r.stderr);
}

/** The tree of a merge that must be clean: MergeConflictError naming the files otherwise. */
export async function cleanMergeTree(gitDir: string, ours: string, theirs: string): Promise<string> {
  const merged = await mergeTrees(gitDir, ours, theirs);
  if (merged.conflicted.length) throw new MergeConflictError(merged.conflicted);
  return merged.tree;
}

/** Git's `whitespace` message clean-up: no trailing spaces, no leading/trailing or doubled blank lines, one final newline. */
export function cleanMessage(message: string): string {
  const lines = message.replace(/\r\n/g, "\n").split("\n").map((l) => l.replace(/\s+$/, ""));
  const out: string[] = [];
  for (const l of lines) {
    if (l === "" && (out.length === 0 || out[out.length - 1] === "")) continue;
    out.push(l);
  }
  while (out.length && out[out.length - 1] === "") out.pop();
  return out.length ? out.join("\n") + "\n" : "";
}

function identityEnv(author: GitIdentity, committer: GitIdentity): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_AUTHOR_DATE: `@${author.unix} +0000`,
    GIT_COMMITTER_NAME: committer.name,
    GIT_COMMITTER_EMAIL: committer.email,
    GIT_COMMITTER_DATE: `@${committer.unix} +0000`,
  };
}

export interface NewCommit {
  tree: string;
  parents: string[];
  message: string;
  author: GitIdentity;
  committer: GitIdentity;
}

/** Writes a commit object (the message as given, cleaned as `git commit` would) and returns its id. */
export async function commitTree(gitDir: string, c: NewCommit): Promise<string> {
  refuseNulMessage(c.message);
  const args = ["commit-tree", c.tree, ...c.parents.flatMap((p) => ["-p", p])];
  const out = await git(args, { gitDir, input: cleanMessage(c.message), env: identityEnv(c.author, c.committer) });
  return out.trim();
}

/** Writes a commit keeping an original author (name, email and date with its zone) — for replayed commits. */
async function recommit(gitDir: string, original: Commit, tree: string, parents: string[], committer: GitIdentity, message?: string): Promise<string> {
  const a = original.author;
  const env = {
    ...identityEnv({ name: a.name, email: a.email, unix: 0 }, committer),
    GIT_AUTHOR_DATE: `@${a.unix} ${a.tz}`,
  };
  // The original message is kept byte for byte (git rebase does not clean it up).
  if (message !== undefined) refuseNulMessage(message);
  const input = message === undefined ? original.message : cleanMessage(message);
  return (await git(["commit-tree", tree, ...parents.flatMap((p) => ["-p", p])], { gitDir, input, env })).trim();
}

/**
 * The commits a rebase of `head` onto `upstream` replays, oldest first: those not reachable from
 * upstream, merges left out and patches upstream already has skipped — `git rebase`'s choice.
 */
async function commitsToReplay(gitDir: string, upstream: string, head: string): Promise<string[]> {
  const out = await git(["rev-list", "--reverse", "--topo-order", "--no-merges", "--right-only", "--cherry-pick", `${upstream}...${head}`], { gitDir });
  return out.split("\n").filter(Boolean);
}

/**
 * Applies `commit`'s change onto `onto`'s tree. git 2.39's merge-tree has no `--merge-base`, so
 * the cherry-pick's three-way merge is framed as an ordinary one: two throw-away commits holding
 * `onto`'s and `commit`'s trees whose only common ancestor holds the tree of `commit`'s parent.
 */
async function pickTree(gitDir: string, commit: Commit, ontoTree: string, parentTree: string, stamp: GitIdentity): Promise<TreeMerge> {
  if (parentTree === ontoTree) return { tree: commit.tree, conflicted: [] };
  const frame = (tree: string, parents: string[]) => commitTree(gitDir, { tree, parents, message: "hearth: cherry-pick frame", author: stamp, committer: stamp });
  const base = await frame(parentTree, []);
  const [ours, theirs] = await Promise.all([frame(ontoTree, [base]), frame(commit.tree, [base])]);
  return mergeTrees(gitDir, ours, theirs);
}

/**
 * Rebases `head` onto `upstream` the way `git rebase upstream` does and returns the new tip:
 * `head` itself when upstream is already its ancestor (nothing to rewrite); otherwise each commit
 * replayed with its author kept and `committer` as committer, commits that become empty dropped.
 * Throws MergeConflictError naming the commit that does not apply.
 */
export async function rebaseCommits(gitDir: string, upstream: string, head: string, committer: GitIdentity): Promise<string> {
  if (await isAncestor(gitDir, upstream, head)) return head;
  const base = (await runGit(["merge-base", upstream, head], { gitDir })).stdout.toString().trim();
  if (!base) throw new UnrelatedHistoriesError();
  let tip = upstream;
  let tipTree = await treeOf(gitDir, upstream);
  for (const oid of await commitsToReplay(gitDir, upstream, head)) {
    const commit = await readCommit(gitDir, oid);
    if (!commit) throw new Error(`commit ${oid} vanished during rebase`);
    const parentTree = commit.parents[0] ? await treeOf(gitDir, commit.parents[0]) : EMPTY_TREE_SHA1;
    const picked = await pickTree(gitDir, commit, tipTree, parentTree, committer);
    if (picked.conflicted.length) throw new MergeConflictError(picked.conflicted, oid);
    if (picked.tree === tipTree) continue;
    tip = await recommit(gitDir, commit, picked.tree, [tip], committer);
    tipTree = picked.tree;
  }
  return tip;
}

async function treeOf(gitDir: string, commit: string): Promise<string> {
  const tree = await maybeTreeOf(gitDir, commit);
  if (!tree) throw new Error(`commit ${commit} not found`);
  return tree;
}

/** Rewrites the message of the tip commit (same tree, parents and author) — the rebase style's template. */
export async function amendMessage(gitDir: string, tip: string, message: string, committer: GitIdentity): Promise<string> {
  const commit = await readCommit(gitDir, tip);
  if (!commit) throw new Error(`commit ${tip} not found`);
  return recommit(gitDir, commit, commit.tree, commit.parents, committer, message);
}
