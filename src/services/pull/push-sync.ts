import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { PullStatus } from "../../db/schema/index.ts";
import * as pulls from "../../models/pull.ts";
import { isAncestor } from "../../git/reflist.ts";
import { readBranchHead } from "../../git/refs.ts";
import { recheckPull } from "./check.ts";
import { syncPullHead, pullHeadCommit } from "./head-ref.ts";
import { sideOf } from "./lookup.ts";
import { commitsSince, recordPushComment } from "./push-comment.ts";
import { reviewsAfterPush } from "./review-push.ts";
import { accountById } from "../user/profile.ts";
import { pullEvents } from "../events/pull-events.ts";

export interface PushedRef {
  ref: string;
  old: string;
  new: string;
}

const isZero = (sha: string) => /^0+$/.test(sha);

/** The background work of each process (by Env), one push after another. */
const queues = new WeakMap<Env, Promise<void>>();

/**
 * After a push (post-receive): the open pull requests whose head branch was pushed get their
 * `refs/pull/{index}/head` moved (fetched from the fork for requests into another repository) and
 * a "pushed commits" timeline entry (a force push records the old and new heads, as Gitea); those
 * and the open requests whose base branch moved are checked again. Runs after the push has been
 * answered, never blocking it; a deleted head branch leaves its requests as they are (Gitea keeps
 * them, with their last head).
 */
export function syncPullsAfterPush(env: Env, repoId: number, pusherId: number, updates: PushedRef[]): void {
  const branches = updates.filter((u) => u.ref.startsWith("refs/heads/") && !isZero(u.new)).map((u) => u.ref.slice("refs/heads/".length));
  if (branches.length === 0) return;
  // Marked at once, so nobody reads the old verdict as current while the check is pending.
  writeTx(env.db, (tx) => {
    for (const branch of branches) {
      const { asHead, asBase } = pulls.openPullsOnBranch(tx, repoId, branch);
      for (const { pull } of [...asHead, ...asBase]) pulls.updatePullIfUnmerged(tx, pull.id, { status: PullStatus.Checking });
    }
  });
  const run = async () => {
    for (const branch of branches) {
      try {
        await syncBranch(env, repoId, pusherId, branch);
      } catch (err) {
        env.log.error("pull request sync after push failed", { repo: repoId, branch, error: String(err) });
      }
    }
  };
  queues.set(env, (queues.get(env) ?? Promise.resolve()).then(run));
}

/** Resolves when the pull request work of every push so far is done (for tests and shutdown). */
export function pullSyncIdle(env: Env): Promise<void> {
  return queues.get(env) ?? Promise.resolve();
}

async function syncBranch(env: Env, repoId: number, pusherId: number, branch: string): Promise<void> {
  const { asHead, asBase } = pulls.openPullsOnBranch(env.db, repoId, branch);
  for (const { pull, issue } of asHead) {
    const base = sideOf(env, undefined, pull.baseRepoId);
    if (!base) continue;
    const before = await pullHeadCommit(base.gitDir, pull);
    const after = await syncPullHead(env, pull);
    if (before && after && before !== after) {
      const force = !(await isAncestor(base.gitDir, before, after));
      let commitIds = [before, after];
      if (!force) {
        const baseHead = await readBranchHead(base.gitDir, pull.baseBranch);
        commitIds = await commitsSince(base.gitDir, after, before, ...(baseHead ? [baseHead.commitId] : []));
      }
      if (commitIds.length) writeTx(env.db, (tx) => recordPushComment(tx, issue, pusherId, commitIds, force));
      await reviewsAfterPush(env, pull, issue, pusherId, before, after);
      const pusher = accountById(env.db, pusherId);
      if (pusher) writeTx(env.db, (tx) => pullEvents.emit(tx, env, { kind: "synchronized", pull, issue, repo: base.repo, doer: pusher }));
    }
    await recheckPull(env, pull.id);
  }
  for (const { pull } of asBase) {
    if (asHead.some((h) => h.pull.id === pull.id)) continue;
    await recheckPull(env, pull.id);
  }
}
