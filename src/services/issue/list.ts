import type { Env } from "../env.ts";
import { UserType, type IssueRow } from "../../db/schema/index.ts";
import * as issues from "../../models/issue.ts";
import * as users from "../../models/user.ts";
import { labelIdsByNames, milestoneIdsByNamesOrIds } from "../../models/issue-filters.ts";
import { Invalid } from "../../lib/errors.ts";
import type { RepoContext } from "../repo/lookup.ts";

export interface IssueQuery {
  state?: string;
  labels?: string;
  milestones?: string;
  q?: string;
  type?: string;
  createdBy?: string;
  assignedBy?: string;
  mentionedBy?: string;
  sinceUnix?: number;
  beforeUnix?: number;
  offset: number;
  limit: number;
}

function userIdOf(env: Env, name: string | undefined): number | undefined {
  if (!name) return undefined;
  const u = users.getUserByName(env.db, name);
  if (!u || u.type !== UserType.Individual) throw new Invalid(`user does not exist [uid: 0, name: ${name}]`);
  return u.id;
}

const split = (s: string | undefined) =>
  (s ?? "")
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);

/**
 * GET /repos/{o}/{r}/issues with Gitea's filters. `state` defaults to open; `type` narrows to issues
 * or pulls, and a unit the doer may not read is left out; `labels` are names (all must match),
 * `milestones` names or ids (any); unknown label names match nothing.
 */
export function listRepoIssues(env: Env, rc: RepoContext, q: IssueQuery): { rows: IssueRow[]; total: number } {
  const canIssues = rc.perm.canRead("issues");
  const canPulls = rc.perm.canRead("pulls");
  let isPull: boolean | undefined;
  if (q.type === "issues" || (!canPulls && q.type !== "pulls")) isPull = false;
  else if (q.type === "pulls" || !canIssues) isPull = true;
  const empty = { rows: [], total: 0 };
  if ((isPull === false && !canIssues) || (isPull === true && !canPulls)) return empty;
  const state = q.state === "closed" ? true : q.state === "all" ? undefined : false;
  const labelNames = split(q.labels);
  const labelIds = labelNames.length ? labelIdsByNames(env.db, rc.repo.id, rc.repo.ownerId, labelNames) : undefined;
  if (labelIds && labelIds.length < labelNames.length) return empty;
  const milestoneParts = split(q.milestones);
  const milestoneIds = milestoneParts.length ? milestoneIdsByNamesOrIds(env.db, rc.repo.id, milestoneParts) : undefined;
  if (milestoneIds && milestoneIds.length === 0) return empty;
  return issues.listIssues(env.db, {
    repoIds: [rc.repo.id],
    isPull,
    isClosed: state,
    labelIds,
    milestoneIds,
    keyword: q.q?.trim() || undefined,
    posterId: userIdOf(env, q.createdBy),
    assigneeId: userIdOf(env, q.assignedBy),
    mentionedId: userIdOf(env, q.mentionedBy),
    sinceUnix: q.sinceUnix,
    beforeUnix: q.beforeUnix,
    offset: q.offset,
    limit: q.limit,
  });
}
