import type { Env } from "../env.ts";
import type { IssueRow } from "../../db/schema/index.ts";
import * as issues from "../../models/issue.ts";
import { NotFound } from "../../lib/errors.ts";
import type { RepoContext } from "../repo/lookup.ts";
import type { CheckOf } from "../access/repo-access.ts";

/** An issue or pull request of the repository as the doer may see it. */
export interface IssueContext extends RepoContext {
  issue: IssueRow;
}

/** The unit an issue belongs to: pull requests are read under `pulls`, issues under `issues`. */
export const unitOf = (issue: Pick<IssueRow, "isPull">) => (issue.isPull ? "pulls" : "issues") as "pulls" | "issues";

/**
 * `{index}` of an issue route: the issue or pull request, or 404 when it does not exist or its unit
 * is not readable by the doer (so a hidden tracker does not leak its contents). Non-numbers find nothing.
 */
export function issueFromPath<R extends RepoContext>(env: Env, rc: R, index: string): IssueContext & CheckOf<R> {
  if (!/^\d{1,15}$/.test(index)) throw new NotFound();
  const issue = issues.getIssueByIndex(env.db, rc.repo.id, Number(index));
  if (!issue || !rc.perm.canRead(unitOf(issue))) throw new NotFound();
  // The issue's context extends the repository's, so it carries the repository's check.
  return { ...rc, issue } as IssueContext & CheckOf<R>;
}

/**
 * Gitea's mustEnableIssues, where the pull requests do not count: 404 unless the issues unit is
 * readable (repository declarations only know the tracker as a whole, or a unit's 403).
 */
export function requireIssuesReader(rc: RepoContext): void {
  if (!rc.perm.canRead("issues")) throw new NotFound();
}

/** Whether the doer may change the issue's metadata (labels, milestone, assignees, deadline): a writer of its unit. */
export function canWriteIssue(ic: IssueContext): boolean {
  return ic.perm.canWrite(unitOf(ic.issue));
}
