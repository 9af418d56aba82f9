import type { Tx } from "../../db/client.ts";
import { CommentType, type IssueRow } from "../../db/schema/index.ts";
import { recordEvent } from "../issue/events.ts";
import { countCommits, listCommitIds } from "../../git/log.ts";

/**
 * Gitea's "pushed commits" timeline entry (CommentTypePullRequestPush): its content is the JSON of
 * PushActionContent, the new commits oldest first.
 */
export function recordPushComment(tx: Tx, issue: Pick<IssueRow, "id">, doerId: number, commitIds: string[], isForcePush: boolean): void {
  recordEvent(tx, issue, { id: doerId }, CommentType.PullRequestPush, {
    content: JSON.stringify({ is_force_push: isForcePush, commit_ids: commitIds }),
  });
}

/** The commits of `head` that none of `since` have, oldest first (what a push added to a request). */
export async function commitsSince(gitDir: string, head: string, ...since: string[]): Promise<string[]> {
  const query = { from: [head], not: since };
  const total = await countCommits(gitDir, query);
  return (await listCommitIds(gitDir, query, 0, total)).reverse();
}
