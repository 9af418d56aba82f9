import type { Env } from "../env.ts";
import type { UserRow } from "../../db/schema/index.ts";
import * as issues from "../../models/issue.ts";
import * as search from "../../models/issue-search.ts";
import * as users from "../../models/user.ts";
import { getTeamByName } from "../../models/team.ts";
import { BadRequest } from "../../lib/errors.ts";
import { searchRepoScope } from "../repo/list.ts";
import { issueAccess } from "./access.ts";
import { isPublicOnly } from "../access/permission.ts";
import type { IssueView } from "./view.ts";

export interface IssueSearchQuery {
  state?: string;
  labels?: string;
  milestones?: string;
  q?: string;
  type?: string;
  sinceUnix?: number;
  beforeUnix?: number;
  assigned?: boolean;
  created?: boolean;
  mentioned?: boolean;
  reviewRequested?: boolean;
  reviewed?: boolean;
  owner?: string;
  team?: string;
  offset: number;
  limit: number;
}

const names = (s: string | undefined) => (s?.trim() ? s.trim().split(",") : []);

/**
 * The repositories the search may look in, split by unit: Gitea's SearchRepositoryIDs over what
 * the doer can see (everything public, limited and theirs, or only the `owner`'s, narrowed to a
 * `team`'s), kept where the doer reads the issues or the pull requests.
 */
function reposInScope(env: Env, doer: UserRow | undefined, q: IssueSearchQuery) {
  let ownerId: number | undefined;
  let teamRepoIds: Set<number> | undefined;
  if (q.owner) {
    const owner = users.getUserByName(env.db, q.owner);
    if (!owner) throw new BadRequest(`user does not exist [uid: 0, name: ${q.owner}]`);
    ownerId = owner.id;
  }
  if (q.team) {
    if (ownerId === undefined) throw new BadRequest("Owner organisation is required for filtering on team");
    const team = getTeamByName(env.db, ownerId, q.team);
    if (!team) throw new BadRequest(`team does not exist [org_id ${ownerId}, team_id 0, name: ${q.team}]`);
    teamRepoIds = new Set(search.repoIdsOfTeam(env.db, team.id));
  }
  // A site administrator searching the whole site reads every repository's enabled units: no need
  // to list them.
  if (doer?.isAdmin && !isPublicOnly(doer) && ownerId === undefined) {
    return { access: issueAccess(env, doer), issueRepoIds: "everywhere" as const, pullRepoIds: "everywhere" as const };
  }
  const rows = searchRepoScope(env, doer, { ownerId });
  const candidates = rows.filter((r) => !teamRepoIds || teamRepoIds.has(r.id));
  const access = issueAccess(env, doer, [], candidates);
  return {
    access,
    issueRepoIds: candidates.filter((r) => access.canRead({ repoId: r.id, isPull: false })).map((r) => r.id),
    pullRepoIds: candidates.filter((r) => access.canRead({ repoId: r.id, isPull: true })).map((r) => r.id),
  };
}

/**
 * Gitea's SearchIssues (GET /repos/issues/search): issues and pull requests across the repositories
 * in scope, newest first. With no repository in scope the answer is empty (never "everything").
 * `labels` and `milestones` are names matched anywhere, any of them; names that match nothing are
 * dropped. The "mine" filters need a signed-in doer and are ignored otherwise, as in Gitea.
 */
export function searchIssues(
  env: Env,
  doer: UserRow | undefined,
  q: IssueSearchQuery,
): { views: IssueView[]; total: number } {
  const { access, issueRepoIds, pullRepoIds } = reposInScope(env, doer, q);
  const empty = { views: [], total: 0 };
  const isPull = q.type === "pulls" ? true : q.type === "issues" ? false : undefined;
  // Reviews are not stored yet: no pull request has a requested or given review to match.
  if (doer && (q.reviewRequested || q.reviewed)) return empty;
  const labelIds = search.labelIdsNamed(env.db, names(q.labels));
  const milestoneIds = search.milestoneIdsNamed(env.db, names(q.milestones));
  const keyword = q.q?.trim().includes("\0") ? undefined : q.q?.trim() || undefined;
  const { rows, total } = issues.listIssues(env.db, {
    repoIds: isPull === true ? [] : issueRepoIds,
    pullRepoIds: isPull === false ? [] : pullRepoIds,
    isClosed: q.state === "closed" ? true : q.state === "all" ? undefined : false,
    anyLabelIds: labelIds.length ? labelIds : undefined,
    milestoneIds: milestoneIds.length ? milestoneIds : undefined,
    keyword,
    posterId: doer && q.created ? doer.id : undefined,
    assigneeId: doer && q.assigned ? doer.id : undefined,
    mentionedId: doer && q.mentioned ? doer.id : undefined,
    sinceUnix: q.sinceUnix || undefined,
    beforeUnix: q.beforeUnix || undefined,
    sort: "latest",
    offset: q.offset,
    limit: q.limit,
  });
  return { views: access.views(rows), total };
}
