import type { Env } from "../env.ts";
import { UserType, Visibility, type UserRow } from "../../db/schema/index.ts";
import { activeUsersByName, repoPeopleIds } from "../../models/repo-people.ts";
import { repoPermission } from "../access/permission.ts";
import type { RepoContext } from "./lookup.ts";

/**
 * Gitea's GetRepoAssignees: the active users with write access to the repository (collaborators and
 * team members who write code, issues or pull requests), by name, then a user owner if not listed.
 */
export function repoAssignees(env: Env, rc: RepoContext): UserRow[] {
  const { repo, owner } = rc;
  const writes = (u: UserRow) => {
    const p = repoPermission(env, u, repo, owner);
    return p.canWrite("code") || p.canWrite("issues") || p.canWrite("pulls");
  };
  const out = activeUsersByName(env.db, [...repoPeopleIds(env.db, repo.id)]).filter(writes);
  if (owner.type === UserType.Individual && !out.some((u) => u.id === owner.id)) out.push(owner);
  return out;
}

/**
 * Gitea's GetReviewers (as the API calls it: nobody left out): who may be asked for a review. In a
 * private repository (or one owned by a private account) everyone who can read it, a user owner
 * included; in a public one also its watchers and its organization's members — as far as they can
 * read pull requests.
 */
export function repoReviewers(env: Env, rc: RepoContext): UserRow[] {
  const { repo, owner } = rc;
  const hidden = repo.isPrivate || owner.visibility === Visibility.Private;
  const ids = repoPeopleIds(env.db, repo.id, hidden ? {} : { watchers: true, orgId: owner.type === UserType.Organization ? owner.id : undefined });
  if (owner.type === UserType.Individual) ids.add(owner.id);
  return activeUsersByName(env.db, [...ids]).filter((u) => repoPermission(env, u, repo, owner).canRead("pulls"));
}
