/**
 * Skipping runs by a marker in the commit message or pull request title, as Gitea's skipWorkflows does:
 * a case-sensitive substring match against `[actions] SKIP_WORKFLOW_STRINGS`, for push and pull request
 * (opened/synchronized) events only.
 */

/** Gitea's default `[actions] SKIP_WORKFLOW_STRINGS`. */
export const DEFAULT_SKIP_WORKFLOW_STRINGS: readonly string[] = [
  "[skip ci]", "[ci skip]", "[no ci]", "[skip actions]", "[actions skip]",
];

/** Whether the text (a commit message, or a pull request title) holds one of the skip strings. */
export function shouldSkipCI(message: string, skipStrings: readonly string[] = DEFAULT_SKIP_WORKFLOW_STRINGS): boolean {
  // An empty configured string would match everything; Gitea's list never holds one, so ignore it.
  return skipStrings.some((s) => s !== "" && message.includes(s));
}

/** The Gitea hook events whose runs a skip string can prevent. */
const SKIPPABLE_HOOKS = new Set(["push", "pull_request", "pull_request_sync"]);

/**
 * Gitea's skipWorkflows: for a push or a pull request's opening/synchronising, skip every workflow when the
 * head commit's message or the pull request's title carries a skip string.
 */
export function shouldSkipRuns(input: {
  hookEvent: string;
  commitMessage: string;
  pullRequestTitle?: string;
  skipStrings?: readonly string[];
}): boolean {
  if (!SKIPPABLE_HOOKS.has(input.hookEvent)) return false;
  const strings = input.skipStrings ?? DEFAULT_SKIP_WORKFLOW_STRINGS;
  if (input.pullRequestTitle !== undefined && shouldSkipCI(input.pullRequestTitle, strings)) return true;
  return shouldSkipCI(input.commitMessage, strings);
}
