import type { Env } from "../env.ts";
import * as issues from "../../models/issue.ts";
import type { IssueListFilter, IssueSort } from "../../models/issue.ts";
import * as users from "../../models/user.ts";
import type { RepoContext } from "../repo/lookup.ts";
import { issueViews, type IssueView } from "./view.ts";

/** The states a list shows: Gitea's `state=open|closed|all`. */
export type IssueListState = "open" | "closed" | "all";

/** The orders the web lists offer, Gitea's `sort=` values (an unknown one is the default, newest first). */
export const WEB_ISSUE_SORTS = ["latest", "oldest", "recentupdate", "leastupdate", "mostcomment", "leastcomment", "nearduedate", "farduedate"] as const;
export type WebIssueSort = (typeof WEB_ISSUE_SORTS)[number];

/** The doer's own lists (Gitea's `type=`), for a signed-in doer only. */
export type MineFilter = "assigned" | "created_by" | "mentioned";

/** A repository's issue or pull request list as the web pages ask for it (Gitea's prepareIssueFilterAndList). */
export interface WebIssueQuery {
  /** Issues, pull requests, or both (a milestone's page). */
  kind: "issues" | "pulls" | "both";
  /** As asked (`state=`): open by default. */
  state?: string;
  /** Label ids the issues must all carry (`labels=1,2`). */
  labelIds?: number[];
  /** A milestone's id, or -1 for issues without one (`milestone=`). */
  milestoneId?: number;
  /** `assignee=`: a user id, `(none)` (or Gitea's older `-1`) for none, `(any)` for any. */
  assignee?: string;
  /** `poster=`: a user name, or a user id as Gitea's older links carry. */
  poster?: string;
  /** `q=`: text in the title or body, or an issue number. */
  keyword?: string;
  sort?: string;
  mine?: MineFilter;
  doerId?: number;
  offset: number;
  limit: number;
}

export interface WebIssuePage {
  views: IssueView[];
  /** The state shown: open unless asked, and all when nothing is open but something is closed (as Gitea). */
  state: IssueListState;
  /** How many the shown state holds (the pager's total). */
  total: number;
  /** How many of each state match the other filters. */
  open: number;
  closed: number;
}

/** No user of that name or id: the list matches nothing (Gitea's "(none)" for an unknown poster). */
const NOBODY = -1;

function userIdOf(env: Env, nameOrId: string): number {
  const named = users.getUserByName(env.db, nameOrId);
  if (named) return named.id;
  return /^\d{1,15}$/.test(nameOrId) ? Number(nameOrId) : NOBODY;
}

/**
 * A page of a repository's issues or pull requests for the web lists, through the same list query
 * as the API's (models/issue.ts listIssues: the page's ids from an index holding the order, the
 * totals from counters when only kind and state narrow the list), with the open and closed counts
 * of the same filters. A unit the doer does not read is left out of a "both" list.
 */
export function listIssuesForWeb(env: Env, rc: RepoContext, q: WebIssueQuery): WebIssuePage {
  const readIssues = rc.perm.canRead("issues");
  const readPulls = rc.perm.canRead("pulls");
  let isPull: boolean | undefined = q.kind === "issues" ? false : q.kind === "pulls" ? true : undefined;
  if (isPull === undefined && !(readIssues && readPulls)) isPull = readPulls;
  const empty: WebIssuePage = { views: [], state: "open", total: 0, open: 0, closed: 0 };
  if ((isPull === false && !readIssues) || (isPull === true && !readPulls)) return empty;

  let posterId = q.poster ? userIdOf(env, q.poster) : undefined;
  let assigneeId: number | undefined;
  let hasAssignee: boolean | undefined;
  if (q.assignee === "(none)" || q.assignee === "-1") hasAssignee = false;
  else if (q.assignee === "(any)") hasAssignee = true;
  else if (q.assignee && /^\d{1,15}$/.test(q.assignee)) assigneeId = Number(q.assignee);
  else if (q.assignee) assigneeId = NOBODY;
  let mentionedId: number | undefined;
  if (q.doerId !== undefined && q.mine === "created_by") posterId = q.doerId;
  if (q.doerId !== undefined && q.mine === "assigned") [assigneeId, hasAssignee] = [q.doerId, undefined];
  if (q.doerId !== undefined && q.mine === "mentioned") mentionedId = q.doerId;

  const labelIds = [...new Set((q.labelIds ?? []).filter((id) => id > 0))];
  const milestoneIds = q.milestoneId === -1 ? [0] : q.milestoneId !== undefined && q.milestoneId > 0 ? [q.milestoneId] : undefined;
  const keyword = q.keyword?.trim() && !q.keyword.includes("\0") ? q.keyword.trim() : undefined;
  const sort: IssueSort = (WEB_ISSUE_SORTS as readonly string[]).includes(q.sort ?? "") ? (q.sort as IssueSort) : "latest";
  const filter: IssueListFilter = {
    repoIds: [rc.repo.id],
    isPull,
    labelIds: labelIds.length ? labelIds : undefined,
    milestoneIds,
    keyword,
    posterId,
    assigneeId,
    hasAssignee,
    mentionedId,
    sort,
    offset: q.offset,
    limit: q.limit,
  };
  const count = (isClosed: boolean) => issues.listIssues(env.db, { ...filter, isClosed, offset: 0, limit: 0 }).total;

  let state: IssueListState = q.state === "closed" ? "closed" : q.state === "all" ? "all" : "open";
  let page = issues.listIssues(env.db, { ...filter, isClosed: state === "all" ? undefined : state === "closed" });
  let open: number;
  let closed: number;
  if (state === "open") [open, closed] = [page.total, count(true)];
  else if (state === "closed") [open, closed] = [count(false), page.total];
  else {
    open = count(false);
    closed = page.total - open;
  }
  // Nothing open but something closed, and no state asked: Gitea shows them all.
  if (!q.state && open === 0 && closed > 0) {
    state = "all";
    page = issues.listIssues(env.db, { ...filter, isClosed: undefined });
  }
  const views = issueViews(env, () => ({ repo: rc.repo, owner: rc.owner }), page.rows);
  return { views, state, total: page.total, open, closed };
}
