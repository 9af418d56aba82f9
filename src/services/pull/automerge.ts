/**
 * "Merge when checks succeed" (Gitea's services/automerge): a merge scheduled by a user, carried
 * out as that user once the base branch's required status checks pass on the head commit and the
 * request is otherwise mergeable. It is looked at when it is scheduled, and, as a subscriber of
 * the event bus, when a status arrives for a commit, when a review approves the request and when
 * a mergeability check finds it mergeable; whoever scheduled it is mailed when it lands (by the
 * mail notifier, from the merge's event).
 */
import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { CommentType, type PullRequestRow, type UserRow } from "../../db/schema/index.ts";
import * as autoMerges from "../../models/auto-merge.ts";
import * as pulls from "../../models/pull.ts";
import * as issues from "../../models/issue.ts";
import * as users from "../../models/user.ts";
import { Conflict, Forbidden, HearthError, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { readBranchHead } from "../../git/refs.ts";
import { recordEvent } from "../issue/events.ts";
import { eventsIdle } from "../events/bus.ts";
import { latestStatuses, requiredContextsPass } from "../status/combine.ts";
import { protectionRuleFor } from "../protection/rules.ts";
import { pullHeadCommit } from "./head-ref.ts";
import { sideOf, type PullContext } from "./lookup.ts";
import { checkPullMergeable } from "./merge-checks.ts";
import { performMerge } from "./merge.ts";
import { deleteHeadAfterMerge } from "./delete-head.ts";
import { isMergeStyle } from "./merge-styles.ts";

export interface ScheduleInput {
  style: string;
  message: string;
  deleteBranchAfterMerge: boolean;
}

/** Schedules the merge (409 when one is already scheduled) and looks at it at once. */
export function scheduleAutoMerge(env: Env, doer: UserRow, pc: PullContext, input: ScheduleInput): void {
  writeTx(env.db, (tx) => {
    if (autoMerges.getAutoMerge(tx, pc.pull.id)) throw new Conflict(`pull request ${pc.pull.id} is already scheduled to auto merge`);
    autoMerges.insertAutoMerge(tx, {
      pullId: pc.pull.id,
      doerId: doer.id,
      mergeStyle: input.style,
      message: input.message,
      deleteBranchAfterMerge: input.deleteBranchAfterMerge,
      createdUnix: nowUnix(),
    });
    recordEvent(tx, pc.issue, doer, CommentType.PRScheduledToAutoMerge);
  });
  queueAutoMerge(env, pc.pull.id);
}

/** Gitea's RemoveScheduledAutoMerge behind DELETE .../merge: the scheduler or a repository admin. */
export function cancelAutoMerge(env: Env, doer: UserRow, pc: PullContext): void {
  const scheduled = autoMerges.getAutoMerge(env.db, pc.pull.id);
  if (!scheduled) throw new NotFound();
  if (scheduled.doerId !== doer.id && !pc.perm.isAdmin()) throw new Forbidden("user has no permission to cancel the scheduled auto merge");
  writeTx(env.db, (tx) => {
    autoMerges.deleteAutoMerge(tx, pc.pull.id);
    recordEvent(tx, pc.issue, doer, CommentType.PRUnScheduledToAutoMerge);
  });
}

/** The automerge work of each process, one request after another (Gitea's pr_auto_merge queue). */
const queues = new WeakMap<Env, Promise<void>>();

/** Looks at a scheduled merge after the current request has been answered; errors are logged. */
export function queueAutoMerge(env: Env, pullId: number): void {
  const run = () =>
    handleAutoMerge(env, pullId).catch((err: unknown) => {
      env.log.error("automerge failed", { pull: pullId, error: (err as Error)?.stack ?? String(err) });
    });
  queues.set(env, (queues.get(env) ?? Promise.resolve()).then(run));
}

/**
 * Resolves when every automerge queued so far has been looked at (tests, shutdown), those that
 * statuses announced on the event bus included: needs the queue's workers running.
 */
export async function autoMergeIdle(env: Env): Promise<void> {
  await eventsIdle(env);
  await (queues.get(env) ?? Promise.resolve());
}

/** The scheduled merges waiting on a commit of a repository (statuses arrive per commit). */
export async function queueAutoMergesForCommit(env: Env, repoId: number, sha: string): Promise<void> {
  const waiting = autoMerges.scheduledPullsOfRepo(env.db, repoId);
  if (!waiting.length) return;
  const base = sideOf(env, undefined, repoId);
  if (!base) return;
  for (const pull of waiting) {
    if ((await pullHeadCommit(base.gitDir, pull)) === sha) queueAutoMerge(env, pull.id);
  }
}

/** Whether the base branch's required statuses pass on the head (no rule, or no status check: they do). */
function statusChecksPass(env: Env, pull: PullRequestRow, head: string): boolean {
  const rule = protectionRuleFor(env, pull.baseRepoId, pull.baseBranch);
  if (!rule || !rule.enableStatusCheck) return true;
  return requiredContextsPass(latestStatuses(env, pull.baseRepoId, head), rule.statusCheckContexts) === "success";
}

/** Gitea's handlePullRequestAutoMerge: merge now if everything allows it, otherwise keep waiting. */
async function handleAutoMerge(env: Env, pullId: number): Promise<void> {
  const scheduled = autoMerges.getAutoMerge(env.db, pullId);
  const pull = pulls.getPullById(env.db, pullId);
  if (!scheduled || !pull || pull.hasMerged) return;
  const issue = issues.getIssueById(env.db, pull.issueId);
  const base = sideOf(env, undefined, pull.baseRepoId);
  const doer = users.getUserById(env.db, scheduled.doerId);
  if (!issue || issue.isClosed || !base || !doer) return;
  const headSide = pull.headRepoId === pull.baseRepoId ? base : sideOf(env, undefined, pull.headRepoId);
  if (!headSide || !(await readBranchHead(headSide.gitDir, pull.headBranch))) return;
  const head = await pullHeadCommit(base.gitDir, pull);
  if (!head || !statusChecksPass(env, pull, head)) return;
  const perm = sideOf(env, doer, pull.baseRepoId)!.perm;
  let checked: PullRequestRow;
  try {
    checked = await checkPullMergeable(env, doer, { pull, issue, perm, gitDir: base.gitDir, head }, "general", false);
  } catch (err) {
    if (err instanceof HearthError) return; // not mergeable yet (approvals, conflicts, checking): wait for the next event
    throw err;
  }
  if (!isMergeStyle(scheduled.mergeStyle) || scheduled.mergeStyle === "manually-merged") return;
  const job = { base: { repo: base.repo, owner: base.owner, gitDir: base.gitDir }, pull: checked, issue, doer, style: scheduled.mergeStyle, message: scheduled.message, expectedHead: head, automerge: true };
  const merged = await performMerge(env, job);
  writeTx(env.db, (tx) => autoMerges.deleteAutoMerge(tx, pullId));
  if (scheduled.deleteBranchAfterMerge) await deleteHeadAfterMerge(env, doer, merged, issue);
}
