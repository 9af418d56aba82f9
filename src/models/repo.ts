import { and, asc, count, desc, eq, inArray, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import { idsParam, inIdsPlaceholder } from "./id-list.ts";
import {
  collaborations,
  orgUsers,
  teamRepos,
  teamUsers,
  repositories,
  repoRedirects,
  repoTopics,
  users,
  Visibility,
  type NewRepoRow,
  type RepoRow,
} from "../db/schema/index.ts";

export function getRepoById(tx: Tx, id: number): RepoRow | undefined {
  return prepared(tx, "repo.byId", (t) =>
    t.select().from(repositories).where(eq(repositories.id, sql.placeholder("id"))).prepare(),
  ).get({ id });
}

export function getReposByIds(tx: Tx, ids: number[]): RepoRow[] {
  if (ids.length === 0) return [];
  return prepared(tx, "repo.byIds", (t) => t.select().from(repositories).where(inIdsPlaceholder(repositories.id)).prepare()).all(idsParam(ids));
}

export function getRepoByOwner(tx: Tx, ownerId: number, name: string): RepoRow | undefined {
  return prepared(tx, "repo.byOwnerName", (t) =>
    t
      .select()
      .from(repositories)
      .where(and(eq(repositories.ownerId, sql.placeholder("ownerId")), eq(repositories.lowerName, sql.placeholder("lowerName"))))
      .prepare(),
  ).get({ ownerId, lowerName: name.toLowerCase() });
}

export function getRedirect(tx: Tx, ownerId: number, name: string): number | undefined {
  return tx
    .select({ id: repoRedirects.redirectRepoId })
    .from(repoRedirects)
    .where(and(eq(repoRedirects.ownerId, ownerId), eq(repoRedirects.lowerName, name.toLowerCase())))
    .get()?.id;
}

/** Records that `ownerId/name` now means `repoId`, replacing an older redirect of that name. */
export function putRedirect(tx: Tx, ownerId: number, name: string, repoId: number): void {
  tx.delete(repoRedirects)
    .where(and(eq(repoRedirects.ownerId, ownerId), eq(repoRedirects.lowerName, name.toLowerCase())))
    .run();
  tx.insert(repoRedirects).values({ ownerId, lowerName: name.toLowerCase(), redirectRepoId: repoId }).run();
}

/** A redirect must never shadow a real repository of that name. */
export function dropRedirect(tx: Tx, ownerId: number, name: string): void {
  tx.delete(repoRedirects)
    .where(and(eq(repoRedirects.ownerId, ownerId), eq(repoRedirects.lowerName, name.toLowerCase())))
    .run();
}

export function insertRepo(tx: Tx, row: NewRepoRow): RepoRow {
  return tx.insert(repositories).values(row).returning().get();
}

export function updateRepo(tx: Tx, id: number, patch: Partial<NewRepoRow>): RepoRow | undefined {
  return tx.update(repositories).set(patch).where(eq(repositories.id, id)).returning().get();
}

export function deleteRepoRow(tx: Tx, id: number): void {
  tx.delete(repositories).where(eq(repositories.id, id)).run();
}

export function countOwnedRepos(tx: Tx, ownerId: number): number {
  return tx.select({ n: count() }).from(repositories).where(eq(repositories.ownerId, ownerId)).get()!.n;
}

export function listOwnedRepoIds(tx: Tx, ownerId: number): RepoRow[] {
  return tx.select().from(repositories).where(eq(repositories.ownerId, ownerId)).all();
}

export function incrementForks(tx: Tx, repoId: number, by: number): void {
  tx.update(repositories)
    .set({ numForks: sql`${repositories.numForks} + ${by}` })
    .where(eq(repositories.id, repoId))
    .run();
}

export type RepoSort = "alpha" | "created" | "updated" | "size" | "id" | "stars" | "forks";

export interface RepoListFilter {
  ownerId?: number;
  /** Who is looking; undefined is anonymous. Site admins see everything (`seeAll`). */
  viewerId?: number;
  seeAll?: boolean;
  /** Owner visibilities whose public repositories the viewer may see. */
  visibleOwnerVisibilities: number[];
  /** The viewer is a restricted account: it sees only what it owns or was given (team, collaboration). */
  restricted?: boolean;
  /** The viewer's token is public-only: only public repositories of public owners, whatever else it may see. */
  publicOnly?: boolean;
  /** Only repositories the viewer owns or collaborates on (GET /user/repos). */
  onlyAccessible?: boolean;
  keyword?: string;
  includeDescription?: boolean;
  topic?: boolean;
  isPrivate?: boolean;
  archived?: boolean;
  template?: boolean;
  fork?: boolean;
  forkOf?: number;
  ids?: number[];
  sort: RepoSort;
  descending: boolean;
  offset: number;
  limit: number;
}


/**
 * A list's values bound by name: the conditions are built with placeholders, so one prepared
 * statement serves every list of the same shape (drizzle building the SQL cost more than running it).
 */
class Bound {
  readonly values: Record<string, unknown> = {};
  constructor(private readonly f: RepoMatch) {}
  value(name: string, v: unknown): SQL {
    this.values[name] = typeof v === "boolean" ? Number(v) : v;
    return sql`${sql.placeholder(name)}`;
  }
  /** `column IN` the ids, bound as one JSON array (models/id-list.ts). */
  inIds(column: SQLWrapper, name: string, ids: readonly number[]): SQL {
    this.values[name] = JSON.stringify(ids);
    return inIdsPlaceholder(column, name);
  }
  contains(column: SQLWrapper, name: string): SQL {
    return sql`instr(lower(${column}), ${this.value(name, this.f.keyword!.toLowerCase())}) > 0`;
  }
}

/** What decides a list's SQL text: which conditions it has, not their values. */
function shapeOf(f: RepoMatch): string {
  const has = (v: unknown) => (v === undefined ? "-" : "+");
  return [
    f.seeAll ? "A" : "a",
    f.onlyAccessible ? "O" : "o",
    f.restricted ? "R" : "r",
    f.publicOnly ? "P" : "p",
    has(f.viewerId),
    f.visibleOwnerVisibilities.length ? "V" : "v",
    has(f.ownerId),
    has(f.ids),
    has(f.isPrivate),
    has(f.archived),
    has(f.template),
    has(f.fork),
    has(f.forkOf),
    f.keyword ? (f.topic ? "T" : f.includeDescription ? "D" : "K") : "k",
  ].join("");
}

/**
 * Which repositories the viewer may list (Gitea's AccessibleRepositoryCondition, and for `onlyAccessible`
 * the collaborative part of SearchRepositoryCondition that GET /user/repos uses).
 */
function visibilityCondition(f: RepoMatch, b: Bound): SQL | undefined {
  if (f.seeAll && !f.onlyAccessible) return undefined;
  const viewerId = f.viewerId;
  const publicRepos = and(
    eq(repositories.isPrivate, false),
    inArray(repositories.ownerId, sql`(SELECT ${users.id} FROM ${users} WHERE ${b.inIds(users.visibility, "visibilities", f.visibleOwnerVisibilities)})`),
  );
  if (viewerId === undefined) return f.onlyAccessible ? sql`0` : publicRepos;
  const viewer = b.value("viewerId", viewerId);
  const mine = or(
    eq(repositories.ownerId, viewer),
    inArray(repositories.id, sql`(SELECT ${collaborations.repoId} FROM ${collaborations} WHERE ${collaborations.userId} = ${viewer})`),
    // Repositories reached through a team.
    inArray(
      repositories.id,
      sql`(SELECT ${teamRepos.repoId} FROM ${teamRepos} INNER JOIN ${teamUsers} ON ${teamUsers.teamId} = ${teamRepos.teamId} WHERE ${teamUsers.uid} = ${viewer})`,
    ),
  );
  // A restricted account reaches nothing by membership alone: what it owns or was given, and in
  // searches the fully public repositories.
  if (f.restricted) return f.onlyAccessible || f.visibleOwnerVisibilities.length === 0 ? mine : or(publicRepos, mine);
  if (f.onlyAccessible) {
    // GET /user/repos also lists the public repositories of the *private* organizations the viewer
    // belongs to (Gitea's userOrgPublicRepoCondPrivate); those of public and limited ones are not "its".
    const privateOrgPublic = and(
      eq(repositories.isPrivate, false),
      inArray(
        repositories.ownerId,
        sql`(SELECT ${orgUsers.orgId} FROM ${orgUsers} INNER JOIN ${users} ON ${users.id} = ${orgUsers.orgId} WHERE ${orgUsers.uid} = ${viewer} AND ${users.visibility} = ${Visibility.Private})`,
      ),
    );
    return or(mine, privateOrgPublic);
  }
  // Public repositories of organizations the viewer belongs to, whatever the organization's visibility.
  const memberPublic = and(
    eq(repositories.isPrivate, false),
    inArray(repositories.ownerId, sql`(SELECT ${orgUsers.orgId} FROM ${orgUsers} WHERE ${orgUsers.uid} = ${viewer})`),
  );
  return or(publicRepos, mine, memberPublic);
}

/** Public repositories of public owners: all a public-only token may list. */
function publicUnderPublicOwner(): SQL {
  return and(
    eq(repositories.isPrivate, false),
    inArray(repositories.ownerId, sql`(SELECT ${users.id} FROM ${users} WHERE ${users.visibility} = ${Visibility.Public})`),
  )!;
}

/** Which repositories a list matches, before its order and page. */
export type RepoMatch = Omit<RepoListFilter, "sort" | "descending" | "offset" | "limit">;

/** What a permission check reads of a repository: who owns it, whether it is private, its units. */
export const repoAccessColumns = {
  id: repositories.id,
  ownerId: repositories.ownerId,
  isPrivate: repositories.isPrivate,
  hasCode: repositories.hasCode,
  hasIssues: repositories.hasIssues,
  hasPullRequests: repositories.hasPullRequests,
  hasReleases: repositories.hasReleases,
  hasWiki: repositories.hasWiki,
  hasPackages: repositories.hasPackages,
  hasActions: repositories.hasActions,
  hasProjects: repositories.hasProjects,
};
export type RepoAccessRow = { [K in keyof typeof repoAccessColumns]: RepoRow[K] };

/**
 * Every repository a list filter matches, with only what a permission check reads, in no order:
 * the scope of a search across the site (thousands of rows, so no full rows and no sort).
 */
export function listRepoAccessRows(tx: Tx, f: RepoMatch): RepoAccessRow[] {
  const b = new Bound(f);
  const where = repoListWhere(f, b);
  return prepared(tx, `repo.scope:${shapeOf(f)}`, (t) => t.select(repoAccessColumns).from(repositories).where(where).prepare()).all(b.values);
}

function repoListWhere(f: RepoMatch, b: Bound): SQL | undefined {
  const conds: (SQL | undefined)[] = [visibilityCondition(f, b)];
  if (f.publicOnly) conds.push(publicUnderPublicOwner());
  if (f.ownerId !== undefined) conds.push(eq(repositories.ownerId, b.value("ownerId", f.ownerId)));
  if (f.ids) conds.push(b.inIds(repositories.id, "ids", f.ids));
  if (f.isPrivate !== undefined) conds.push(eq(repositories.isPrivate, b.value("isPrivate", f.isPrivate)));
  if (f.archived !== undefined) conds.push(eq(repositories.isArchived, b.value("archived", f.archived)));
  if (f.template !== undefined) conds.push(eq(repositories.isTemplate, b.value("template", f.template)));
  if (f.fork !== undefined) conds.push(eq(repositories.isFork, b.value("fork", f.fork)));
  if (f.forkOf !== undefined) conds.push(eq(repositories.forkId, b.value("forkOf", f.forkOf)));
  if (f.keyword) {
    if (f.topic) {
      conds.push(
        inArray(
          repositories.id,
          sql`(SELECT ${repoTopics.repoId} FROM ${repoTopics} WHERE ${repoTopics.name} = ${b.value("topic", f.keyword.toLowerCase())})`,
        ),
      );
    } else {
      const byName = b.contains(repositories.lowerName, "keyword");
      const byTopic = inArray(repositories.id, sql`(SELECT ${repoTopics.repoId} FROM ${repoTopics} WHERE ${b.contains(repoTopics.name, "keyword")})`);
      const parts = [byName, byTopic];
      if (f.includeDescription) parts.push(b.contains(repositories.description, "keyword"));
      conds.push(or(...parts));
    }
  }
  return and(...conds.filter((c): c is SQL => c !== undefined));
}

/** A page of repositories, through a statement prepared once per list shape, sort and direction. */
export function listRepos(tx: Tx, f: RepoListFilter): { rows: RepoRow[]; total: number } {
  const b = new Bound(f);
  const where = repoListWhere(f, b);
  const column = {
    alpha: repositories.lowerName,
    created: repositories.createdUnix,
    updated: repositories.updatedUnix,
    size: repositories.size,
    id: repositories.id,
    stars: repositories.numStars,
    forks: repositories.numForks,
  }[f.sort];
  const order = f.descending ? [desc(column), desc(repositories.id)] : [asc(column), asc(repositories.id)];
  const shape = shapeOf(f);
  const rows = prepared(tx, `repo.list:${shape}:${f.sort}:${f.descending ? "d" : "a"}`, (t) =>
    t.select().from(repositories).where(where).orderBy(...order).limit(sql.placeholder("limit")).offset(sql.placeholder("offset")).prepare(),
  ).all({ ...b.values, limit: f.limit, offset: f.offset });
  const total = prepared(tx, `repo.count:${shape}`, (t) => t.select({ n: count() }).from(repositories).where(where).prepare()).get(b.values)!.n;
  return { rows, total };
}

export function listTopics(tx: Tx, repoId: number): string[] {
  return tx
    .select({ name: repoTopics.name })
    .from(repoTopics)
    .where(eq(repoTopics.repoId, repoId))
    .orderBy(asc(repoTopics.name))
    .all()
    .map((r) => r.name);
}

export function topicsOf(tx: Tx, repoIds: number[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  if (repoIds.length === 0) return out;
  const rows = prepared(tx, "repo.topicsOf", (t) =>
    t.select().from(repoTopics).where(inIdsPlaceholder(repoTopics.repoId)).orderBy(asc(repoTopics.name)).prepare(),
  ).all(idsParam(repoIds));
  for (const r of rows) {
    const list = out.get(r.repoId) ?? [];
    list.push(r.name);
    out.set(r.repoId, list);
  }
  return out;
}

export function replaceTopics(tx: Tx, repoId: number, names: string[]): void {
  tx.delete(repoTopics).where(eq(repoTopics.repoId, repoId)).run();
  if (names.length) tx.insert(repoTopics).values(names.map((name) => ({ repoId, name }))).run();
}

/** Repositories by id, a page at a time, for passes over all of them (hooks, housekeeping). */
export function listReposAfter(tx: Tx, afterId: number, limit: number): RepoRow[] {
  return tx
    .select()
    .from(repositories)
    .where(sql`${repositories.id} > ${afterId}`)
    .orderBy(asc(repositories.id))
    .limit(limit)
    .all();
}

/** Forks of a deleted repository become ordinary repositories, as in Gitea. */
export function detachForks(tx: Tx, parentId: number): void {
  tx.update(repositories).set({ isFork: false, forkId: 0 }).where(eq(repositories.forkId, parentId)).run();
}
