/**
 * Gitea's `[repository.pull-request] WORK_IN_PROGRESS_PREFIXES` default: a pull request whose title
 * starts with one of these (any case) is a draft, and drafts are not mergeable.
 */
export const WORK_IN_PROGRESS_PREFIXES = ["WIP:", "[WIP]"];

/** Gitea's HasWorkInProgressPrefix. */
export function isWorkInProgress(title: string): boolean {
  const upper = title.toUpperCase();
  return WORK_IN_PROGRESS_PREFIXES.some((p) => upper.startsWith(p.toUpperCase()));
}
