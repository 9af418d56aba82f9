/**
 * Refs named in the code pages' paths (Gitea's RepoRefByType: `/src/branch/…`, `/src/tag/…`,
 * `/src/commit/…` and the legacy `/src/…`), resolved to a commit and the path after them; and the
 * web's code-reader guard every code read asks for.
 */
import type { Env } from "../env.ts";
import * as branchModel from "../../models/branch.ts";
import { NotFound } from "../../lib/errors.ts";
import { naturalCompare } from "../../lib/natural-sort.ts";
import { listBranchNames, objectInfoOf } from "../../git/code-view.ts";
import { requireCodeReader } from "../access/permission.ts";
import { gitDirOf, type RepoContext } from "./lookup.ts";


export const NOT_FOUND = "The target couldn't be found.";
export const FULL_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** Gitea's IsStringLikelyCommitID with its minimum of 7 hex digits. */
export const LIKELY_ID = /^[0-9a-f]{7,64}$/;
/** A name no git ref can be (Gitea's IsValidRefPattern, the same expression as git/objects.ts). */
// eslint-disable-next-line no-control-regex
const INVALID_REF = /[\x00-\x1f\x7f \\~^:?*[]|^[/.]|\/\.|\.lock$|\.lock\/|\.\.|\/\/|@\{|[/.]$|^@$/;
/** The longest ref name tried as a path prefix: longer than any branch Gitea lets anyone make. */
const MAX_REF_NAME = 1024;

/**
 * The web's code reader (Gitea's reqRepoCodeReader on its web routes): the code unit switched on
 * and readable. Unlike the API, a repository administrator does not pass where the unit is off.
 */
export function requireCodeUnit(rc: RepoContext): void {
  requireCodeReader(rc);
  if (!rc.perm.unitEnabled("code")) throw new NotFound(NOT_FOUND);
}

export type RefKind = "branch" | "tag" | "commit";

/** How a path names its revision: Gitea's `/src/branch/…`, `/src/tag/…`, `/src/commit/…`, or the legacy `/src/…`. */
export type RefStyle = RefKind | "legacy";

/** The revision a code path names, and the path inside the tree after it. */
export interface CodeRef {
  kind: RefKind;
  /** The branch or tag name, or the commit id as the path wrote it (7 to 64 hex digits). */
  name: string;
  commitId: string;
  treePath: string;
  /**
   * A legacy path (`/src/main/x`) was resolved: the page redirects to the path with the ref's
   * kind; `fallback` when no ref matched and the whole rest is a path on the default branch.
   */
  legacy?: { fallback: boolean };
}

async function refCommit(gitDir: string, full: string): Promise<string | undefined> {
  const info = await objectInfoOf(gitDir, `${full}^{commit}`);
  return info?.type === "commit" ? info.oid : undefined;
}

/**
 * Gitea's getRefNameFromPath: the leading segments of `parts` that name a branch (or tag), tried
 * shortest first. git cannot hold both `a` and `a/b` as branches, so at most one prefix exists and
 * shortest and longest are the same answer.
 */
async function refFromParts(gitDir: string, parts: string[], kind: "branch" | "tag"): Promise<{ name: string; commitId: string; rest: string } | undefined> {
  const prefix = kind === "branch" ? "refs/heads/" : "refs/tags/";
  let name = "";
  for (let i = 0; i < parts.length; i++) {
    name = i === 0 ? parts[0]! : `${name}/${parts[i]}`;
    if (name.length > MAX_REF_NAME) return undefined;
    if (INVALID_REF.test(name)) continue;
    const commitId = await refCommit(gitDir, `${prefix}${name}`);
    if (commitId) return { name, commitId, rest: parts.slice(i + 1).join("/") };
  }
  return undefined;
}

/**
 * The revision and tree path of a code page's path rest (decoded), as Gitea's RepoRefByType:
 * a branch or tag whose name may hold `/` (`HEAD` is the default branch), a commit id of 7 or
 * more hex digits (`HEAD` is the default branch's head), or for a legacy path a branch, a tag, a
 * full commit id, else the default branch with the whole rest as the path. 404 when nothing matches.
 */
export async function resolveCodeRef(env: Env, rc: RepoContext, style: RefStyle, rest: string): Promise<CodeRef> {
  requireCodeUnit(rc);
  if (rc.repo.isEmpty) throw new NotFound(NOT_FOUND);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const parts = rest.split("/");
  const defaultHead = () => refCommit(gitDir, `refs/heads/${rc.repo.defaultBranch}`);
  const byRef = async (kind: "branch" | "tag"): Promise<CodeRef | undefined> => {
    const found = await refFromParts(gitDir, parts, kind);
    if (found) return { kind, name: found.name, commitId: found.commitId, treePath: found.rest };
    if (kind === "branch" && parts[0] === "HEAD") {
      const commitId = await defaultHead();
      if (commitId) return { kind, name: rc.repo.defaultBranch, commitId, treePath: parts.slice(1).join("/") };
    }
    return undefined;
  };
  if (style === "branch" || style === "tag") {
    const ref = await byRef(style);
    if (!ref) throw new NotFound(NOT_FOUND);
    return ref;
  }
  if (style === "commit") {
    const first = parts[0] ?? "";
    const commitId = LIKELY_ID.test(first) ? await refCommit(gitDir, first) : first === "HEAD" ? await defaultHead() : undefined;
    if (!commitId) throw new NotFound(NOT_FOUND);
    return { kind: "commit", name: first === "HEAD" ? commitId : first, commitId, treePath: parts.slice(1).join("/") };
  }
  // Legacy: a branch, a tag, a full commit id, else the default branch.
  const ref = (await byRef("branch")) ?? (await byRef("tag"));
  if (ref) return { ...ref, legacy: { fallback: false } };
  const first = parts[0] ?? "";
  if (FULL_ID.test(first)) {
    const commitId = await refCommit(gitDir, first);
    if (!commitId) throw new NotFound(NOT_FOUND);
    return { kind: "commit", name: first, commitId, treePath: parts.slice(1).join("/"), legacy: { fallback: false } };
  }
  const commitId = await defaultHead();
  if (!commitId) throw new NotFound(NOT_FOUND);
  return { kind: "branch", name: rc.repo.defaultBranch, commitId, treePath: rest, legacy: { fallback: true } };
}

/** The default branch's head, for the repository's home; undefined when the branch is missing. */
export async function defaultBranchRef(env: Env, rc: RepoContext): Promise<CodeRef | undefined> {
  requireCodeUnit(rc);
  if (rc.repo.isEmpty) return undefined;
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const commitId = await refCommit(gitDir, `refs/heads/${rc.repo.defaultBranch}`);
  if (commitId) return { kind: "branch", name: rc.repo.defaultBranch, commitId, treePath: "" };
  // Gitea shows the first branch there is when the default one is gone.
  const [first] = await branchNamesNewestFirst(env, rc, 1);
  const other = first === undefined ? undefined : await refCommit(gitDir, `refs/heads/${first}`);
  return other && first !== undefined ? { kind: "branch", name: first, commitId: other, treePath: "" } : undefined;
}


export async function branchNamesNewestFirst(env: Env, rc: RepoContext, limit: number): Promise<string[]> {
  const { rows } = branchModel.listBranchesNewestFirst(env.db, rc.repo.id, 0, limit);
  if (rows.length || rc.repo.isEmpty) return rows.map((r) => r.name);
  // A repository whose branch table was never filled (Gitea syncs it on first read): ask git.
  return (await listBranchNames(gitDirOf(env, rc.owner, rc.repo))).sort(naturalCompare).slice(0, limit);
}

