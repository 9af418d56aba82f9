/**
 * A repository's history for the web pages: a ref and path named by a URL (`branch/{b}/{path}`,
 * `tag/{t}/{path}`, `commit/{sha}/{path}`) resolved to a commit, and pages of its commits,
 * optionally of one path. Pages are read with one more commit than shown, which says whether
 * there is a next page without walking the whole history to count it.
 */
import type { Env } from "../env.ts";
import { NotFound } from "../../lib/errors.ts";
import { cleanRelativePath } from "../../lib/path.ts";
import { listCommitIds } from "../../git/log.ts";
import { readCommits, resolveRevision } from "../../git/objects.ts";
import { isSafeRefName } from "../../git/tree.ts";
import { describe, type CommitView } from "./commits.ts";
import { gitDirOf, type RepoContext } from "./lookup.ts";

export type RefKind = "branch" | "tag" | "commit";

export interface RefPath {
  kind: RefKind;
  /** The branch or tag name, or the commit id as written in the URL. */
  name: string;
  commitId: string;
  /** The path below the ref ("" for the whole tree), cleaned. */
  path: string;
}

/** Gitea's IsStringLikelyCommitID: 7 to 64 hex digits. */
export const isLikelyCommitId = (s: string) => /^[0-9a-f]{7,64}$/.test(s);

function requireHistory(rc: RepoContext): void {
  // Gitea's MustBeNotEmpty: an empty repository has no history pages.
  if (rc.repo.isEmpty) throw new NotFound();
}

/**
 * `{name}/{path}` after `/branch/` or `/tag/`: Gitea's getRefNameFromPath, the first prefix of the
 * segments that names a ref of that kind (git cannot hold both `a` and `a/b`, so it is the only
 * one); the rest is the path. A commit is a commit id's first segment.
 */
export async function resolveRefPath(env: Env, rc: RepoContext, kind: RefKind, rest: string): Promise<RefPath> {
  requireHistory(rc);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const parts = rest.split("/");
  if (kind === "commit") {
    const sha = parts[0]!;
    if (!isLikelyCommitId(sha)) throw new NotFound();
    const found = await resolveRevision(gitDir, sha, "commit");
    if (!found || !found.startsWith(sha)) throw new NotFound();
    return { kind, name: sha, commitId: found, path: cleanRelativePath(parts.slice(1).join("/")) };
  }
  // Asked of the repository's long-lived cat-file, one prefix after the other: most names are one
  // segment, found at the first question, with no process to start.
  const prefix = kind === "branch" ? "refs/heads/" : "refs/tags/";
  for (let i = 1; i <= parts.length; i++) {
    const name = parts.slice(0, i).join("/");
    if (!isSafeRefName(name)) continue;
    const commitId = await resolveRevision(gitDir, `${prefix}${name}`, "commit");
    if (commitId) return { kind, name, commitId, path: cleanRelativePath(rest.slice(name.length + 1)) };
  }
  throw new NotFound();
}

/**
 * The deprecated `/commits/{ref}/{path}` without a kind (Gitea's RepoRefLegacy): a branch, else a
 * tag, else a commit id; the caller redirects to the typed URL.
 */
export async function resolveLegacyRefPath(env: Env, rc: RepoContext, rest: string): Promise<RefPath> {
  for (const kind of ["branch", "tag", "commit"] as const) {
    try {
      return await resolveRefPath(env, rc, kind, rest);
    } catch (err) {
      if (!(err instanceof NotFound)) throw err;
    }
  }
  throw new NotFound();
}

/** The default branch, as the history page opens without a ref. */
export async function defaultRefPath(env: Env, rc: RepoContext): Promise<RefPath> {
  return resolveRefPath(env, rc, "branch", rc.repo.defaultBranch);
}

export interface HistoryPage {
  commits: CommitView[];
  /** There are older commits than these. */
  hasNext: boolean;
}

/** One page of the commits of `commitId` (those touching `path` when given), newest first. */
export async function historyPage(env: Env, rc: RepoContext, ref: RefPath, page: number, perPage: number): Promise<HistoryPage> {
  requireHistory(rc);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const ids = await listCommitIds(gitDir, { from: [ref.commitId], paths: ref.path ? [ref.path] : [] }, (page - 1) * perPage, perPage + 1);
  const hasNext = ids.length > perPage;
  const commits = await describe(env, gitDir, await readCommits(gitDir, ids.slice(0, perPage)), { stat: false, files: false, verification: false });
  return { commits, hasNext };
}
