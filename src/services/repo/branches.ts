import type { Env } from "../env.ts";
import type { UserRow } from "../../db/schema/index.ts";
import { writeTx } from "../../db/client.ts";
import * as repos from "../../models/repo.ts";
import * as branchModel from "../../models/branch.ts";
import { Conflict, Forbidden, Invalid, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { readBranchHeads } from "../../git/refs.ts";
import { setHead } from "../../git/repo-init.ts";
import { isAncestor, isSafeRevision, listRefs, readCommits, resolveCommit, type CommitInfo, type RefEntry } from "../../git/reflist.ts";
import { RefUpdateError, isValidRefName, isValidRefPattern, renameRef, updateRefs } from "../../git/refs-write.ts";
import { findUserByEmail } from "../user/lookup.ts";
import { protectionRuleFor } from "../protection/rules.ts";
import { checkProtectedRefs } from "../protection/push-check.ts";
import { renameProtectionRule } from "../../models/protected-branch.ts";
import { gitDirOf, type RepoContext } from "./lookup.ts";
import type { Writes } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";
import { processPush } from "./push.ts";
import { repoEvents } from "../events/repo-events.ts";

/** A branch as the API renders it: its name, its head commit, and the commit's users by email. */
export interface BranchView {
  name: string;
  commit: CommitInfo;
  authorUsername: string;
  committerUsername: string;
}

export const REPO_EMPTY = "Git Repository is empty.";
const NOT_FOUND = "The target couldn't be found.";
const OLD_BRANCH_MISSING = "The old branch does not exist";
const RENAME_TARGET_EXISTS = "Cannot rename a branch using the same name or rename to a branch that already exists.";
const RENAME_SOURCE_MISSING = "Branch doesn't exist.";

/** Go's MaxSize counts runes. */
const runeLength = (s: string) => [...s].length;

/**
 * Gitea's binding rules for a branch name field (`Required;GitRefName;MaxSize(100)`), in their
 * order, with the field's Go name; plus `git check-ref-format` and no leading `-`, which git
 * needs of a branch hearth writes itself.
 */
export async function checkBranchNameField(field: string, name: string): Promise<void> {
  if (!name) throw new Invalid(`[${field}]: Required`);
  if (!isValidRefPattern(name)) throw new Invalid(`[${field}]: GitRefName`);
  if (runeLength(name) > 100) throw new Invalid(`[${field}]: MaxSize`);
  if (!(await isValidRefName("refs/heads/", name))) throw new Invalid(`[${field}]: GitRefName`);
}

/** The usernames Gitea shows beside a commit: the accounts owning the author/committer emails. */
function viewOf(env: Env, name: string, commit: CommitInfo): BranchView {
  const username = (email: string) => (email ? (findUserByEmail(env, email)?.name ?? "") : "");
  return {
    name,
    commit,
    authorUsername: username(commit.author.email),
    committerUsername: commit.committer.email === commit.author.email ? username(commit.author.email) : username(commit.committer.email),
  };
}

/** Branch heads in git by short name. */
async function branchShas(gitDir: string, only?: string): Promise<Map<string, string>> {
  const refs = await listRefs(gitDir, [only === undefined ? "refs/heads/" : `refs/heads/${only}`]);
  const map = new Map<string, string>();
  for (const r of refs) map.set(r.name.slice("refs/heads/".length), r.sha);
  return map;
}

/** The commit a branch points at in git, or undefined (names git could not hold included). */
async function branchHead(gitDir: string, name: string): Promise<string | undefined> {
  if (!isSafeRevision(name) || !isValidRefPattern(name)) return undefined;
  return (await branchShas(gitDir, name)).get(name);
}

const record = (c: CommitInfo, name: string, pusherId: number) => ({
  name,
  commitId: c.id,
  commitMessage: c.message.split("\n", 1)[0] ?? "",
  commitUnix: c.committer.unix,
  pusherId,
});

/**
 * Gitea's rule: a non-empty repository with no branch rows has never been synchronised (or lost
 * its rows), so the table is rebuilt from git before it is read.
 */
async function ensureSynced(env: Env, rc: RepoContext, gitDir: string): Promise<void> {
  if (rc.repo.isEmpty || branchModel.countBranches(env.db, rc.repo.id) > 0) return;
  const heads = await readBranchHeads(gitDir);
  const now = nowUnix();
  writeTx(env.db, (tx) => {
    if (branchModel.countBranches(tx, rc.repo.id) > 0) return;
    branchModel.replaceBranches(
      tx,
      rc.repo.id,
      heads.map((h) => ({ name: h.name, commitId: h.commitId, commitMessage: h.subject, commitUnix: h.commitUnix, pusherId: 0 })),
      now,
    );
  });
}

/**
 * GET /branches: the branch table in Gitea's order (newest commit first, then name), each with
 * its current head from git; a row whose ref is gone is skipped and not counted.
 */
export async function listBranches(
  env: Env,
  rc: RepoContext,
  page: { offset: number; limit: number },
): Promise<{ items: BranchView[]; total: number }> {
  if (rc.repo.isEmpty) return { items: [], total: 0 };
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  await ensureSynced(env, rc, gitDir);
  const { rows, total } = branchModel.listBranchesNewestFirst(env.db, rc.repo.id, page.offset, page.limit);
  const heads = await branchShas(gitDir);
  const shas = rows.map((r) => heads.get(r.name));
  const commits = await readCommits(gitDir, shas.map((s) => s ?? ""));
  const items: BranchView[] = [];
  let missing = 0;
  rows.forEach((row, i) => {
    const c = shas[i] ? commits[i] : undefined;
    if (!c) missing++;
    else items.push(viewOf(env, row.name, c));
  });
  return { items, total: total - missing };
}

/** GET /branches/{name}: the branch must exist in the table (as Gitea checks) and in git. */
export async function getBranch(env: Env, rc: RepoContext, name: string): Promise<BranchView> {
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  await ensureSynced(env, rc, gitDir);
  if (!name || !branchModel.getBranch(env.db, rc.repo.id, name)) throw new NotFound(NOT_FOUND);
  const sha = await branchHead(gitDir, name);
  const [commit] = sha ? await readCommits(gitDir, [sha]) : [undefined];
  if (!commit) throw new NotFound(NOT_FOUND);
  return viewOf(env, name, commit);
}

export interface CreateBranchInput {
  newBranchName: string;
  oldBranchName?: string | null;
  oldRefName?: string | null;
}

/**
 * Gitea's checkBranchName: walking every ref in name order, the first clash decides — the same
 * branch, a branch inside the new name's "directory" or containing it, or a tag of that name.
 */
function nameClash(refs: RefEntry[], name: string): string | undefined {
  for (const { name: ref } of refs) {
    const short = ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : ref;
    if (short === name) return "The branch already exists.";
    if (short.startsWith(`${name}/`) || name.startsWith(`${short}/`)) return "The branch with the same name already exists.";
    if (ref === `refs/tags/${name}`) return "The branch with the same tag already exists.";
  }
  return undefined;
}

/** A ref change made through the API passes the same branch protection as a push (403 with the hook's message). */
async function refuseProtected(env: Env, rc: RepoContext, doer: UserRow, update: { old: string; new: string; ref: string }) {
  const refusal = await checkProtectedRefs(env, { repo: rc.repo, owner: rc.owner, pusher: doer }, [update]);
  if (refusal) throw new Forbidden(refusal);
}

/** POST /branches: a new branch at a branch, tag or commit (default: the default branch). */
export async function createBranch(env: Env, rc: Writes<"code">, doer: Doer, input: CreateBranchInput): Promise<BranchView> {
  await checkBranchNameField("BranchName", input.newBranchName);
  if (rc.repo.isEmpty) throw new NotFound(REPO_EMPTY);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);

  let source: string | undefined;
  if (input.oldRefName) {
    source = await resolveCommit(gitDir, input.oldRefName);
  } else if (input.oldBranchName) {
    const head = await branchHead(gitDir, input.oldBranchName);
    source = head && (await resolveCommit(gitDir, head));
  } else {
    const head = await branchHead(gitDir, rc.repo.defaultBranch);
    source = head && (await resolveCommit(gitDir, head));
  }
  if (!source) throw new NotFound(OLD_BRANCH_MISSING);

  const name = input.newBranchName;
  const clash = nameClash(await listRefs(gitDir), name);
  if (clash) throw new Conflict(clash);
  // Gitea creates the branch with a push, so the branch protection of its name applies.
  await refuseProtected(env, rc, doer, { old: "0".repeat(source.length), new: source, ref: `refs/heads/${name}` });
  try {
    await updateRefs(gitDir, [{ op: "create", ref: `refs/heads/${name}`, sha: source }]);
  } catch (err) {
    if (err instanceof RefUpdateError && err.kind === "exists") throw new Conflict("The branch already exists.");
    if (err instanceof RefUpdateError && err.kind === "conflict") throw new Conflict("The branch with the same name already exists.");
    throw err;
  }
  const [commit] = await readCommits(gitDir, [source]);
  // A new branch is a push of it: the branch table, webhooks, pull requests and mirrors follow as after `git push`.
  await processPush(env, rc.repo.id, doer.id, [{ ref: `refs/heads/${name}`, old: "0".repeat(source.length), new: source }]);
  return viewOf(env, name, commit!);
}

/**
 * DELETE /branches/{name}: never the default branch; the ref goes only if it did not move. The
 * deletion is announced as the doer's push.
 */
export async function deleteBranch(env: Env, rc: Writes<"code">, name: string, doer: Doer): Promise<void> {
  if (rc.repo.isEmpty) throw new NotFound(REPO_EMPTY);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  await ensureSynced(env, rc, gitDir);
  if (name === rc.repo.defaultBranch) throw new Forbidden("can not delete default branch");
  if (protectionRuleFor(env, rc.repo.id, name)) throw new Forbidden("branch protected");
  const sha = await branchHead(gitDir, name);
  if (!sha) throw new NotFound(NOT_FOUND);
  try {
    await updateRefs(gitDir, [{ op: "delete", ref: `refs/heads/${name}`, old: sha }]);
  } catch (err) {
    if (err instanceof RefUpdateError && err.kind === "moved") throw new Conflict("the branch was updated while it was being deleted");
    throw err;
  }
  // The deletion is a push (processPush updates the branch table too).
  await processPush(env, rc.repo.id, doer.id, [{ ref: `refs/heads/${name}`, old: sha, new: "0".repeat(sha.length) }]);
}

/**
 * PATCH /branches/{name}: renames a branch. The default branch needs a repository admin, and
 * renaming it moves the repository's default branch and HEAD along. Announced as Gitea does: the
 * old name deleted, the new one created (no push).
 */
export async function renameBranch(env: Env, rc: Writes<"code">, from: string, to: string, doer: Doer): Promise<void> {
  await checkBranchNameField("Name", to);
  if (rc.repo.isEmpty) throw new NotFound(REPO_EMPTY);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  if (from === to || (await branchHead(gitDir, to))) throw new Invalid(RENAME_TARGET_EXISTS);
  const sha = await branchHead(gitDir, from);
  if (!sha) throw new NotFound(RENAME_SOURCE_MISSING);
  const isDefault = from === rc.repo.defaultBranch;
  const rule = protectionRuleFor(env, rc.repo.id, from);
  if ((isDefault || rule) && !rc.perm.isAdmin()) {
    throw new Forbidden("User must be a repo or site admin to rename default or protected branches.");
  }
  // A rule naming exactly this branch moves with it; a branch protected by a glob stays (Gitea's RenameBranch).
  if (rule && (!rule.isPlainName || rule.ruleName !== from)) throw new Forbidden("Branch is protected by glob-based protection rules.");
  try {
    await renameRef(gitDir, `refs/heads/${from}`, `refs/heads/${to}`, sha);
  } catch (err) {
    if (err instanceof RefUpdateError && (err.kind === "exists" || err.kind === "conflict")) throw new Invalid(RENAME_TARGET_EXISTS);
    if (err instanceof RefUpdateError && err.kind === "moved") throw new Conflict("the branch was updated while it was being renamed");
    throw err;
  }
  if (isDefault) await setHead(gitDir, to);
  const [commit] = await readCommits(gitDir, [sha]);
  const now = nowUnix();
  writeTx(env.db, (tx) => {
    branchModel.deleteBranches(tx, rc.repo.id, [to]);
    if (!branchModel.renameBranch(tx, rc.repo.id, from, to, now) && commit) {
      branchModel.upsertBranch(tx, rc.repo.id, record(commit, to, 0), now);
    }
    if (isDefault) repos.updateRepo(tx, rc.repo.id, { defaultBranch: to, updatedUnix: now });
    if (rule) renameProtectionRule(tx, rc.repo.id, from, to);
    repoEvents.emit(tx, env, { kind: "ref-deleted", repo: rc.repo, owner: rc.owner, pusher: doer, ref: `refs/heads/${from}` });
    repoEvents.emit(tx, env, { kind: "ref-created", repo: rc.repo, owner: rc.owner, pusher: doer, ref: `refs/heads/${to}`, sha });
  });
}

export interface UpdateBranchInput {
  newCommitId: string;
  oldCommitId?: string | null;
  force?: boolean | null;
}

/**
 * PUT /branches/{name}: points an existing branch at another commit. `old_commit_id`, when
 * given, must be the current tip; a move that is not a fast-forward needs `force`.
 */
export async function updateBranch(env: Env, rc: Writes<"code">, doer: Doer, name: string, input: UpdateBranchInput): Promise<void> {
  if (rc.repo.isEmpty) throw new NotFound(REPO_EMPTY);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const current = await branchHead(gitDir, name);
  if (!current) throw new NotFound(RENAME_SOURCE_MISSING);
  const target = await resolveCommit(gitDir, input.newCommitId);
  if (!target) throw new NotFound(`object does not exist [id: ${input.newCommitId}, rel_path: ]`);
  if (input.oldCommitId) {
    const expected = await resolveCommit(gitDir, input.oldCommitId);
    if (expected !== current) throw new Conflict("the branch is not at old_commit_id");
  }
  if (target === current) return;
  if (!input.force && !(await isAncestor(gitDir, current, target))) {
    throw new Conflict("the update is not a fast-forward; set force to move the branch anyway");
  }
  await refuseProtected(env, rc, doer, { old: current, new: target, ref: `refs/heads/${name}` });
  try {
    await updateRefs(gitDir, [{ op: "update", ref: `refs/heads/${name}`, sha: target, old: current }]);
  } catch (err) {
    if (err instanceof RefUpdateError && err.kind === "moved") throw new Conflict("the branch was updated while it was being moved");
    throw err;
  }
  // Moving a branch is a push: the branch table, pull requests on it, webhooks, mirrors follow as after `git push`.
  await processPush(env, rc.repo.id, doer.id, [{ ref: `refs/heads/${name}`, old: current, new: target }]);
}

/**
 * GET /git/refs[/{filter}]: every ref but remote-tracking ones, by name, whose full name starts
 * with `refs/` + filter (a plain prefix, so `heads/ma` finds `refs/heads/main`).
 */
export async function listGitRefs(env: Env, rc: RepoContext, filter: string): Promise<RefEntry[]> {
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const prefix = filter ? `refs/${filter}` : "";
  return (await listRefs(gitDir)).filter((r) => !r.name.startsWith("refs/remotes/") && r.name.startsWith(prefix));
}
