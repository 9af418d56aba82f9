import { count, eq, sql, type SQL } from "drizzle-orm";
import { sqliteOf, type Tx } from "../db/client.ts";
import { repositories } from "../db/schema/index.ts";

/**
 * Full-text queries over `issue_fts` (migration 0015), a trigram index of each issue's title and
 * body with a third column, `scope`, that spells where the issue is in two three-character tokens
 * the trigram tokenizer indexes as one term each: its repository and its kind with its state. A
 * text search names the list's repositories, kinds and state in the query itself, so the index alone
 * counts the matches instead of every matching issue being looked up to see whether it belongs.
 * The tokens are written by the migration's triggers; the constants here must spell them the same.
 */

const REPO_MARK = 0xf8f0;
const KIND_MARK = 0xf8f1;
const DIGIT_ZERO = 0xe000;
const DIGIT_BASE = 6144;

/** Repository ids the token can spell while its digits stay below the marks. */
const REPO_ID_LIMIT = DIGIT_BASE * (REPO_MARK - DIGIT_ZERO);

/**
 * The most repositories one query names, to keep or to leave out. Beyond that (a search over
 * thousands of repositories that leaves thousands out) the matches are checked against the issues.
 */
const MAX_NAMED_REPOS = 64;

const repoTerm = (repoId: number) =>
  `"${String.fromCharCode(REPO_MARK, DIGIT_ZERO + Math.floor(repoId / DIGIT_BASE), DIGIT_ZERO + (repoId % DIGIT_BASE))}"`;

const kindTerm = (isPull: boolean, isClosed: boolean) =>
  `"${String.fromCharCode(KIND_MARK, isPull ? 0x70 /* p */ : 0x69 /* i */, isClosed ? 0x63 /* c */ : 0x6f /* o */)}"`;

/**
 * The keyword as an FTS5 phrase over title and body, or undefined when the trigram index cannot
 * look it up: under three characters there is no trigram, FTS5 reads its query as a C string,
 * which a NUL would cut short, and a phrase is one term per trigram, each with its own lookup and
 * position list, so a keyword of thousands of characters (a pasted log) would cost far more
 * memory than checking the rows.
 */
const MAX_PHRASE_CHARS = 256;

export function textPhrase(keyword: string): string | undefined {
  const chars = [...keyword].length;
  if (chars < 3 || chars > MAX_PHRASE_CHARS || keyword.includes("\0")) return undefined;
  return `{name content} : "${keyword.replaceAll('"', '""')}"`;
}

/** One kind of a list (issues or pull requests) in some repositories ("everywhere": every one with the kind's unit enabled). */
export interface TextScopeArm {
  isPull: boolean;
  repoIds: number[] | "everywhere";
}

/**
 * The phrase narrowed to the list's repositories, kinds and state, as one FTS5 query; undefined
 * when the repositories cannot be named in a few terms either way.
 */
export function scopedTextMatch(tx: Tx, phrase: string, arms: TextScopeArm[], isClosed: boolean | undefined): string | undefined {
  const parts: { repos: string; kinds: string[] }[] = [];
  for (const arm of arms) {
    const repos = repoPart(tx, arm);
    if (repos === undefined) return undefined;
    const kinds = isClosed === undefined ? [kindTerm(arm.isPull, false), kindTerm(arm.isPull, true)] : [kindTerm(arm.isPull, isClosed)];
    const same = parts.find((p) => p.repos === repos);
    if (same) same.kinds.push(...kinds);
    else parts.push({ repos, kinds });
  }
  if (parts.length === 0) return undefined;
  const alternatives = parts.map(({ repos, kinds }) => {
    const kind = `scope : (${kinds.join(" OR ")})`;
    if (repos === "") return `(${kind})`;
    return repos.startsWith("NOT ") ? `(${kind} ${repos})` : `(${repos} AND ${kind})`;
  });
  return `${phrase} AND (${alternatives.join(" OR ")})`;
}

/** The arm's repositories as a term list to keep ("scope : (…)"), to leave out ("NOT scope : (…)"), or "" for all. */
function repoPart(tx: Tx, arm: TextScopeArm): string | undefined {
  let left: number[];
  if (arm.repoIds === "everywhere") {
    const unit = arm.isPull ? repositories.hasPullRequests : repositories.hasIssues;
    left = tx
      .select({ id: repositories.id })
      .from(repositories)
      .where(eq(unit, false))
      .limit(MAX_NAMED_REPOS + 1)
      .all()
      .map((r) => r.id);
  } else if (arm.repoIds.length <= MAX_NAMED_REPOS) {
    return named(arm.repoIds, "scope");
  } else {
    const all = tx.select({ n: count() }).from(repositories).get()!.n;
    if (all - arm.repoIds.length > MAX_NAMED_REPOS) return undefined;
    const kept = new Set(arm.repoIds);
    left = tx
      .select({ id: repositories.id })
      .from(repositories)
      .all()
      .map((r) => r.id)
      .filter((id) => !kept.has(id));
  }
  if (left.length > MAX_NAMED_REPOS) return undefined;
  return left.length === 0 ? "" : named(left, "NOT scope");
}

function named(repoIds: number[], prefix: string): string | undefined {
  if (repoIds.some((id) => id < 0 || id >= REPO_ID_LIMIT)) return undefined;
  return `${prefix} : (${repoIds.map(repoTerm).join(" OR ")})`;
}

const stagingMade = new WeakSet<object>();

/**
 * Runs `fn` with the query's matches staged for a walk: a temporary table of this connection keyed
 * by issue id (`membership` tests an id against it by rowid, where a subquery or CTE would first be
 * copied into an index of its own, once per test), and how many there are. Written, read and
 * emptied within this one synchronous call, so no other request sees it.
 */
export function withStagedMatches<T>(tx: Tx, match: string, fn: (staged: { matched: number; membership: SQL }) => T): T {
  const client = sqliteOf(tx);
  if (!stagingMade.has(client)) {
    client.exec("CREATE TEMP TABLE IF NOT EXISTS issue_text_match (id INTEGER PRIMARY KEY)");
    stagingMade.add(client);
  }
  const matched = client.query("INSERT INTO temp.issue_text_match (id) SELECT rowid FROM issue_fts WHERE issue_fts MATCH ?").run(match).changes;
  try {
    return fn({ matched, membership: sql.raw("(SELECT id FROM temp.issue_text_match)") });
  } finally {
    client.exec("DELETE FROM temp.issue_text_match");
  }
}

/** Issue ids matching an FTS5 query, as a subquery. */
export const matchingIds = (match: string) => sql`(SELECT rowid AS id FROM issue_fts WHERE issue_fts MATCH ${match})`;

/** How many issues an FTS5 query matches, up to `upTo` (where the index then stops), from the index alone. */
export function countMatches(tx: Tx, match: string, upTo: number): number {
  return tx.all<{ n: number }>(sql`SELECT count(*) AS n FROM (SELECT 1 FROM issue_fts WHERE issue_fts MATCH ${match} LIMIT ${upTo})`)[0]!.n;
}
