import type { Env } from "../env.ts";
import type { Tx } from "../../db/client.ts";
import { UserType, type IssueRow, type RepoRow, type UserRow } from "../../db/schema/index.ts";
import * as users from "../../models/user.ts";
import { markMentioned } from "../../models/issue.ts";
import { repoPermission } from "../access/permission.ts";

/**
 * Gitea's mention pattern (modules/references): `@name` or `@org/team` after a space, an opening
 * bracket or the start, and before a space, a closing bracket, a quote, punctuation followed by a
 * space, or the end. The trailing context is a lookahead so that `@a @b` finds both, as Gitea's
 * loop that restarts right after each name does.
 */
const MENTION = /(?:\s|^|\(|\[)@([-\w][-.\w]*?(?:\/[-\w][-.\w]*?)?)(?=['\s)\]]|[:,;.?!]\s|[:,;.?!]?$)/g;

/** Code is not prose: Gitea finds mentions in rendered markdown text, never in code spans or blocks. */
function withoutCode(content: string): string {
  return content.replace(/^ {0,3}(```|~~~)[^\n]*\n[\s\S]*?(?:^ {0,3}\1[^\n]*$|(?![\s\S]))/gm, " ").replace(/(`+)[^`]*?\1/g, " ");
}

/** The names mentioned in a text, lowercased and once each. */
export function findMentions(content: string): string[] {
  const names = new Set<string>();
  for (const m of withoutCode(content).matchAll(MENTION)) names.add(m[1]!.toLowerCase());
  return [...names];
}

/**
 * Gitea's FindAndUpdateIssueMentions for users: who `content` mentions among active individual
 * accounts that can read the issue, never the doer, recorded on the issue for the `mentioned_by`
 * filter (in `tx`, the transaction of the text's change). Team mentions (`@org/team`) are not expanded.
 */
export function resolveMentions(tx: Tx, env: Env, issue: IssueRow, repo: RepoRow, owner: UserRow, doer: UserRow, content: string): UserRow[] {
  const names = findMentions(content).filter((n) => !n.includes("/") && n !== doer.lowerName);
  if (names.length === 0) return [];
  const unit = issue.isPull ? "pulls" : "issues";
  const mentioned = names
    .map((name) => users.getUserByName(tx, name))
    .filter((u): u is UserRow => u !== undefined && u.type === UserType.Individual && u.isActive)
    .filter((u) => repoPermission(env, u, repo, owner).canRead(unit));
  if (mentioned.length) markMentioned(tx, issue.id, mentioned.map((u) => u.id));
  return mentioned;
}
