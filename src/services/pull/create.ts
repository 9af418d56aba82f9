import type { Env } from "../env.ts";
import { existingFork } from "../repo/fork.ts";
import { writeTx } from "../../db/client.ts";
import { PullStatus, type IssueRow, type PullRequestRow, type RepoRow, type UserRow } from "../../db/schema/index.ts";
import * as pulls from "../../models/pull.ts";
import * as repos from "../../models/repo.ts";
import * as users from "../../models/user.ts";
import { getLabelsForRepo } from "../../models/label.ts";
import { getMilestone } from "../../models/milestone.ts";
import { Conflict, Invalid, NotFound } from "../../lib/errors.ts";
import { readBranchHead } from "../../git/refs.ts";
import { resolveRevision } from "../../git/objects.ts";
import { repoPermission } from "../access/permission.ts";
import { gitDirOf, type RepoContext } from "../repo/lookup.ts";
import { insertIssueTx } from "../issue/issues.ts";
import { issueChangedHeld } from "../issue/hooks.ts";
import { releaseEvent } from "../events/bus.ts";
import { computePullCheck, storedCheck } from "./check.ts";
import { syncPullHead } from "./head-ref.ts";
import { commitsSince, recordPushComment } from "./push-comment.ts";
import type { Checked } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";

export interface CreatePullInput {
  /** `branch`, or `owner:branch` for a branch of the owner's fork (or of the base's parent). */
  head: string;
  base: string;
  title: string;
  body?: string;
  assignee?: string;
  assignees?: string[];
  labels?: number[];
  milestone?: number;
  deadlineUnix?: number;
}

/** Gitea's ErrPullRequestAlreadyExists message. */
export function alreadyExists(p: PullRequestRow): Conflict {
  return new Conflict(
    `pull request already exists for these targets [id: ${p.id}, issue_id: ${p.index}, head_repo_id: ${p.headRepoId}, base_repo_id: ${p.baseRepoId}, head_branch: ${p.headBranch}, base_branch: ${p.baseBranch}]`,
  );
}

/** The repository `headUser` offers the head from: the base itself, their fork of it, or the base's parent. */
function headRepoOf(env: Env, rc: RepoContext, headUser: UserRow): RepoRow {
  if (headUser.id === rc.owner.id) return rc.repo;
  const fork = existingFork(env, rc.repo.id, headUser.id);
  if (fork) return fork;
  const parent = rc.repo.isFork && rc.repo.forkId ? repos.getRepoById(env.db, rc.repo.forkId) : undefined;
  if (parent && parent.ownerId === headUser.id) return parent;
  throw new NotFound();
}

/**
 * How Gitea's UnstableGuessRefByShortName classifies a name in a repository: a branch (with its
 * commit), something else git knows (tag or commit: refused later as "not a branch"), or nothing.
 */
async function guessRef(gitDir: string, name: string): Promise<{ kind: "branch"; sha: string } | { kind: "other" } | undefined> {
  if (!name || name.startsWith("-")) return undefined;
  const branch = await readBranchHead(gitDir, name);
  if (branch) return { kind: "branch", sha: branch.commitId };
  if (await resolveRevision(gitDir, `refs/tags/${name}`, "commit")) return { kind: "other" };
  if (/^[0-9a-f]{7,64}$/.test(name) && (await resolveRevision(gitDir, name, "commit"))) return { kind: "other" };
  return undefined;
}

/** Gitea's assignee checks of CreatePullRequest (422 for an unknown user or one who cannot be assigned). */
function assigneeIdsOf(env: Env, rc: RepoContext, names: string[]): number[] {
  const ids: number[] = [];
  for (const name of [...new Set(names.filter(Boolean))]) {
    const user = users.getUserByName(env.db, name);
    if (!user) throw new Invalid(`Assignee does not exist: [name: user does not exist [uid: 0, name: ${name}]]`);
    if (!repoPermission(env, user, rc.repo, rc.owner).canWrite("pulls")) {
      throw new Invalid(`user doesn't have access to repo [user_id: ${user.id}, repo_name: ${rc.repo.name}]`);
    }
    ids.push(user.id);
  }
  return ids;
}

/**
 * Gitea's CreatePullRequest + NewPullRequest: checks the head and base (both branches, the head
 * from this repository or a fork the doer can read), refuses a second open request for the same
 * branches (409), then creates the issue row (index shared with issues) and the pull request row,
 * writes `refs/pull/{index}/head` (fetching from the fork), checks mergeability and records the
 * "pushed commits" timeline entry. Reviewers are left to the review requests.
 */
export async function createPull(env: Env, doer: Doer, rc: RepoContext & Checked<{ doer: true; notArchived: true }>, input: CreatePullInput): Promise<{ issue: IssueRow; pull: PullRequestRow }> {
  if (input.head === input.base) throw new Invalid("Invalid PullRequest: There are no changes between the head and the base");
  const parts = input.head.split(":");
  if (parts.length > 2) throw new NotFound();
  let headUser = rc.owner;
  let headBranchName = input.head;
  if (parts.length === 2) {
    headBranchName = parts[1]!;
    const u = users.getUserByName(env.db, parts[0]!);
    if (!u) throw new NotFound();
    headUser = u;
  }
  const headRepo = headRepoOf(env, rc, headUser);
  const headOwner = headRepo.id === rc.repo.id ? rc.owner : users.getUserById(env.db, headRepo.ownerId);
  if (!headOwner) throw new NotFound();
  // The doer reads the base's pull requests and code, and the head's code (Gitea answers 404 otherwise).
  if (!rc.perm.canRead("pulls") || !rc.perm.canRead("code")) throw new NotFound();
  if (!repoPermission(env, doer, headRepo, headOwner).canRead("code")) throw new NotFound();

  const baseGitDir = gitDirOf(env, rc.owner, rc.repo);
  const headGitDir = gitDirOf(env, headOwner, headRepo);
  const [baseRef, headRef] = await Promise.all([guessRef(baseGitDir, input.base), guessRef(headGitDir, headBranchName)]);
  if (!baseRef || !headRef) throw new NotFound();
  if (baseRef.kind !== "branch" || headRef.kind !== "branch") throw new Invalid("Invalid PullRequest: base and head must be branches");

  const existing = pulls.findOpenPull(env.db, { headRepoId: headRepo.id, headBranch: headBranchName, baseRepoId: rc.repo.id, baseBranch: input.base });
  if (existing) throw alreadyExists(existing);

  const labelIds = input.labels?.length ? getLabelsForRepo(env.db, rc.repo.id, rc.repo.ownerId, input.labels).map((l) => l.id) : [];
  const milestoneId = input.milestone && input.milestone > 0 ? input.milestone : 0;
  if (milestoneId && !getMilestone(env.db, rc.repo.id, milestoneId)) throw new NotFound();
  const assigneeIds = assigneeIdsOf(env, rc, [input.assignee ?? "", ...(input.assignees ?? [])]);

  const created = writeTx(env.db, (tx) => {
    // Checked again inside the transaction: two concurrent requests must not both pass.
    const again = pulls.findOpenPull(tx, { headRepoId: headRepo.id, headBranch: headBranchName, baseRepoId: rc.repo.id, baseBranch: input.base });
    if (again) throw alreadyExists(again);
    const issue = insertIssueTx(tx, doer, rc, {
      title: input.title,
      content: input.body ?? "",
      ref: "",
      milestoneId,
      deadlineUnix: input.deadlineUnix ?? 0,
      labelIds,
      assigneeIds,
      isPull: true,
    });
    const pull = pulls.insertPull(tx, {
      issueId: issue.id,
      index: issue.index,
      headRepoId: headRepo.id,
      baseRepoId: rc.repo.id,
      headBranch: headBranchName,
      baseBranch: input.base,
      status: PullStatus.Checking,
    });
    // Recorded with the request, announced once its head and check are in (below).
    const announced = issueChangedHeld(tx, env, { kind: "created", issue, repo: rc.repo, doer });
    return { issue, pull, announced };
  });
  const { issue, announced } = created;
  let { pull } = created;

  try {
    const headSha = await syncPullHead(env, pull);
    const check = await computePullCheck(env, pull);
    const commitIds = headSha && check.mergeBase ? await commitsSince(baseGitDir, headSha, check.mergeBase) : [];
    pull = writeTx(env.db, (tx) => {
      const checked = pulls.updatePullIfUnmerged(tx, pull.id, storedCheck(check)) ?? pull;
      if (commitIds.length) recordPushComment(tx, issue, doer.id, commitIds, false);
      releaseEvent(tx, env, announced);
      return checked;
    });
  } catch (err) {
    // The request exists: it is announced as it stands.
    writeTx(env.db, (tx) => releaseEvent(tx, env, announced));
    throw err;
  }
  return { issue, pull };
}
