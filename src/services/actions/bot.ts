import type { Env } from "../env.ts";
import type { ActionTaskRow, UserRow } from "../../db/schema/index.ts";
import { ActionStatus } from "../../db/schema/index.ts";
import { taskById, taskByTokenHash } from "../../models/actions-task.ts";
import { hashToken } from "../../crypto/token.ts";
import { systemUser } from "../user/profile.ts";
import type { ActionsTaskGrant, Doer } from "../access/permission.ts";
import { jobById } from "../../models/actions-run.ts";
import type { TokenPermissions } from "../../lib/actions/permissions.ts";

/** Gitea's ActionsUserID: the reserved account workflows act as. */
export const ACTIONS_BOT_ID = -2;
export const ACTIONS_BOT_NAME = "gitea-actions";

/** The Actions bot as an account (never stored; Gitea's NewActionsUser). */
export function actionsBot(): UserRow {
  return systemUser(ACTIONS_BOT_ID)!;
}

export const isActionsBot = (user: Pick<UserRow, "id"> | undefined): boolean => user?.id === ACTIONS_BOT_ID;

/**
 * The Actions bot acting for one task: what its token, and the pushes it makes, may do — write on
 * the task's repository (read for a fork's pull request), narrowed to the job's `permissions:`.
 */
export function botForTask(env: Env, task: Pick<ActionTaskRow, "id" | "repoId" | "isForkPullRequest" | "jobId">): Doer {
  const grant: ActionsTaskGrant = { taskId: task.id, repoId: task.repoId, readOnly: task.isForkPullRequest };
  const stated = jobById(env.db, task.jobId)?.tokenPermissions;
  if (stated) grant.units = JSON.parse(stated) as TokenPermissions;
  return { ...actionsBot(), actionsTask: grant };
}

/**
 * Who pushed, by the id the push's hooks carry: an account, or the Actions bot with the task it
 * pushed for (only while that task runs), or nobody.
 */
export function pusherOf(env: Env, pusherId: number, taskId: number | undefined, account: (id: number) => UserRow | undefined): Doer | undefined {
  if (pusherId !== ACTIONS_BOT_ID) return account(pusherId);
  if (!taskId) return undefined;
  const task = taskById(env.db, taskId);
  return task && task.status === ActionStatus.Running ? botForTask(env, task) : undefined;
}

/**
 * The running task a token belongs to: a task's token (GITEA_TOKEN in its job) speaks for the
 * Actions bot, limited to the task's repository, while the task runs.
 */
export function taskOfToken(env: Env, token: string): ActionTaskRow | undefined {
  if (!/^[0-9a-f]{40}$/.test(token)) return undefined;
  const task = taskByTokenHash(env.db, hashToken(token));
  return task && task.status === ActionStatus.Running ? task : undefined;
}
