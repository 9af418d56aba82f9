import type { Env } from "../env.ts";
import type { IssueRow, UserRow } from "../../db/schema/index.ts";
import * as notifications from "../../models/notification.ts";
import * as users from "../../models/user.ts";
import * as repos from "../../models/repo.ts";
import { repoPermission } from "../access/permission.ts";

/**
 * Who hears by mail of a pull request's merge (Gitea's MailParticipants): the issue's audience —
 * poster, commenters, assignees, watchers of the issue and of the repository, less those who
 * unsubscribed — as far as they can still read pull requests there.
 */
export function mergeRecipients(env: Env, issue: IssueRow): UserRow[] {
  const repo = repos.getRepoById(env.db, issue.repoId);
  const owner = repo && users.getUserById(env.db, repo.ownerId);
  if (!repo || !owner) return [];
  const out: UserRow[] = [];
  for (const id of notifications.issueAudience(env.db, issue.id, repo.id)) {
    const user = users.getUserById(env.db, id);
    if (user && repoPermission(env, user, repo, owner).canRead("pulls")) out.push(user);
  }
  return out;
}
