import { and, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { collaborations, repositories, users } from "../db/schema/index.ts";

/**
 * Which repositories a listing may show: `viewerId` undefined is the anonymous view (public
 * repositories of owners whose visibility is in `visibleOwnerVisibilities`); a viewer also sees what
 * they own or collaborate on; `seeAll` (site admins) sees everything.
 */
export interface RepoView {
  viewerId?: number;
  seeAll: boolean;
  visibleOwnerVisibilities: number[];
}

/** The SQL condition for `view` on the repository table (stars, watches and other repository listings). */
export function repoVisibleCondition(view: RepoView): SQL | undefined {
  if (view.seeAll) return undefined;
  const publicRepos = and(
    eq(repositories.isPrivate, false),
    view.visibleOwnerVisibilities.length
      ? inArray(
          repositories.ownerId,
          sql`(SELECT ${users.id} FROM ${users} WHERE ${inArray(users.visibility, view.visibleOwnerVisibilities)})`,
        )
      : sql`0`,
  );
  if (view.viewerId === undefined) return publicRepos;
  return or(
    publicRepos,
    eq(repositories.ownerId, view.viewerId),
    inArray(
      repositories.id,
      sql`(SELECT ${collaborations.repoId} FROM ${collaborations} WHERE ${collaborations.userId} = ${view.viewerId})`,
    ),
  );
}
