import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import * as repos from "../../models/repo.ts";
import * as users from "../../models/user.ts";
import * as branchModel from "../../models/branch.ts";
import { NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { readBranchHeads, type BranchHead } from "../../git/refs.ts";
import { setHead } from "../../git/repo-init.ts";
import { repoSizeBytes } from "../../git/maintenance.ts";
import { repoPermission } from "../access/permission.ts";
import { gitDirOf } from "./lookup.ts";
import { scheduleHousekeeping } from "./housekeeping.ts";
import { checkProtectedRefs } from "../protection/push-check.ts";
import type { QuarantineEnv } from "../../git/push-inspect.ts";
import { syncPullsAfterPush } from "../pull/push-sync.ts";
import { releasesAfterPush } from "../release/tag-sync.ts";
import { announceRefChanges } from "./push-events.ts";
import { syncPushMirrorsOnCommit } from "../mirror/sync.ts";
import { ARCHIVED_PUSH } from "../access/git-rules.ts";
import { pusherOf } from "../actions/bot.ts";
import { accountById } from "../user/profile.ts";

export interface RefUpdate {
  old: string;
  new: string;
  ref: string;
}

const isZero = (sha: string) => /^0+$/.test(sha);

/**
 * The pre-receive decision, made before any ref moves (the objects are still in git's quarantine).
 * Access was checked when the push was accepted over HTTP; this re-checks it (permissions may have
 * changed meanwhile) and enforces branch protection. Returns a refusal message.
 */
export async function checkPush(
  env: Env,
  repoId: number,
  pusherId: number,
  updates: RefUpdate[],
  quarantine: QuarantineEnv = {},
  pullRequestId?: number,
  actionsTaskId?: number,
): Promise<string | undefined> {
  const repo = repos.getRepoById(env.db, repoId);
  const owner = repo && users.getUserById(env.db, repo.ownerId);
  const pusher = pusherOf(env, pusherId, actionsTaskId, (id) => users.getUserById(env.db, id));
  if (!repo || !owner || !pusher) return "repository or pusher does not exist";
  if (repo.isArchived) return ARCHIVED_PUSH;
  if (!repoPermission(env, pusher, repo, owner).canWrite("code")) return "User permission denied for writing.";
  for (const u of updates) {
    if (!u.ref.startsWith("refs/")) return `invalid ref ${u.ref}`;
  }
  return checkProtectedRefs(env, { repo, owner, pusher, quarantine, pullRequestId }, updates);
}

/**
 * After a push: brings the database's branch table in line with the refs. A repository with no
 * branch rows gets a full synchronisation of every branch (Gitea's rule); otherwise each pushed
 * branch is updated or inserted, and deleted branches are removed. The first push into an empty
 * repository makes it non-empty and, when the default branch was not pushed, makes the pushed
 * branch the default.
 */
export async function processPush(env: Env, repoId: number, pusherId: number, updates: RefUpdate[]): Promise<string[]> {
  const repo = repos.getRepoById(env.db, repoId);
  const owner = repo && users.getUserById(env.db, repo.ownerId);
  if (!repo || !owner) throw new NotFound("repository does not exist");
  const gitDir = gitDirOf(env, owner, repo);
  const branchUpdates = updates.filter((u) => u.ref.startsWith("refs/heads/"));
  const now = nowUnix();

  const fullSync = branchModel.countBranches(env.db, repo.id) === 0;
  let heads: BranchHead[] = [];
  const deleted: string[] = [];
  if (fullSync) {
    heads = await readBranchHeads(gitDir);
  } else {
    const pushed: string[] = [];
    for (const u of branchUpdates) {
      const name = u.ref.slice("refs/heads/".length);
      if (isZero(u.new)) deleted.push(name);
      else pushed.push(name);
    }
    heads = await readBranchHeads(gitDir, pushed);
  }

  // Gitea's UpdateRepoSize after every push: the repository JSON's `size` follows what is on disk.
  const size = await repoSizeBytes(gitDir);
  let newDefault: string | undefined;
  // The Actions bot is announced as the pusher even once its task is over (its events start no run).
  const pusher = accountById(env.db, pusherId);
  writeTx(env.db, (tx) => {
    const record = (h: BranchHead) => ({
      name: h.name,
      commitId: h.commitId,
      commitMessage: h.subject,
      commitUnix: h.commitUnix,
      pusherId,
    });
    if (fullSync) branchModel.replaceBranches(tx, repo.id, heads.map(record), now);
    else {
      for (const h of heads) branchModel.upsertBranch(tx, repo.id, record(h), now);
      branchModel.deleteBranches(tx, repo.id, deleted);
    }
    const hasBranches = branchModel.countBranches(tx, repo.id) > 0;
    const patch: Parameters<typeof repos.updateRepo>[2] = { updatedUnix: now, isEmpty: !hasBranches, size };
    if (hasBranches && !branchModel.getBranch(tx, repo.id, repo.defaultBranch)) {
      // The default branch does not exist (a first push of another name): the pushed branch
      // becomes the default, preferring main/master as Gitea does.
      const pushed = branchUpdates.filter((u) => !isZero(u.new)).map((u) => u.ref.slice("refs/heads/".length));
      const candidates = [...pushed.filter((n) => n === "main" || n === "master"), ...pushed];
      newDefault = candidates.find((n) => branchModel.getBranch(tx, repo.id, n));
      if (newDefault) patch.defaultBranch = newDefault;
    }
    repos.updateRepo(tx, repo.id, patch);
    if (pusher) announceRefChanges(tx, env, repo.id, pusher, updates);
  });
  if (newDefault) await setHead(gitDir, newDefault);
  syncPullsAfterPush(env, repo.id, pusherId, updates);
  await releasesAfterPush(env, repo.id, gitDir, updates);
  scheduleHousekeeping(env, gitDir);
  syncPushMirrorsOnCommit(env, repo.id);
  return [];
}
