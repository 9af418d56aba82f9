import type { Env } from "../env.ts";
import type { IssueRow } from "../../db/schema/index.ts";
import * as issues from "../../models/issue.ts";
import { NotFound } from "../../lib/errors.ts";
import type { RepoContext } from "../repo/lookup.ts";

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
export function issueFromPath(env: Env, rc: RepoContext, index: string): IssueContext {
  if (!/^\d{1,15}$/.test(index)) throw new NotFound();
  const issue = issues.getIssueByIndex(env.db, rc.repo.id, Number(index));
  if (!issue || !rc.perm.canRead(unitOf(issue))) throw new NotFound();
  return { ...rc, issue };
}

/** Gitea's mustEnableIssuesOrPulls / reqRepoReader for the issue tracker as a whole. */
export function requireTrackerReader(rc: RepoContext): void {
  if (!rc.perm.canRead("issues") && !rc.perm.canRead("pulls")) throw new NotFound();
}

/** Whether the doer may change the issue's metadata (labels, milestone, assignees, deadline): a writer of its unit. */
export function canWriteIssue(ic: IssueContext): boolean {
  return ic.perm.canWrite(unitOf(ic.issue));
}
