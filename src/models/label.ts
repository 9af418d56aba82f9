import { and, asc, count, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { comments, issueLabels, issues, labels, type LabelRow } from "../db/schema/index.ts";

/** Where labels live: a repository's own (`repo_id`) or an organization's (`org_id`), the other being 0. */
export type LabelParent = { repoId: number } | { orgId: number };

const ofParent = (p: LabelParent): SQL =>
  "repoId" in p ? eq(labels.repoId, p.repoId) : and(eq(labels.repoId, 0), eq(labels.orgId, p.orgId))!;

/** A label of this repository or organization by id; another parent's label is not found. */
export function getLabel(tx: Tx, parent: LabelParent, id: number): LabelRow | undefined {
  return tx.select().from(labels).where(and(ofParent(parent), eq(labels.id, id))).get();
}

/** A label of this repository or organization by exact (case-sensitive) name, as Gitea's GetLabelIn*ByName. */
export function getLabelByName(tx: Tx, parent: LabelParent, name: string): LabelRow | undefined {
  return tx.select().from(labels).where(and(ofParent(parent), eq(labels.name, name))).orderBy(asc(labels.id)).get();
}

/** Gitea's label list orders (`sort`): by name unless asked for issue counts or reverse names. */
export type LabelSort = "alphabetically" | "reversealphabetically" | "leastissues" | "mostissues";

/** A parent's labels, a page of them or (without `page`) all. */
export function listLabels(
  tx: Tx,
  parent: LabelParent,
  sort: LabelSort,
  page: { limit: number; offset: number } | undefined,
): { rows: LabelRow[]; total: number } {
  const order =
    sort === "reversealphabetically"
      ? [desc(labels.name), desc(labels.id)]
      : sort === "leastissues"
        ? [asc(labels.numIssues), asc(labels.id)]
        : sort === "mostissues"
          ? [desc(labels.numIssues), asc(labels.id)]
          : [asc(labels.name), asc(labels.id)];
  const query = tx
    .select()
    .from(labels)
    .where(ofParent(parent))
    .orderBy(...order);
  const rows = page ? query.limit(page.limit).offset(page.offset).all() : query.all();
  const total = tx.select({ n: count() }).from(labels).where(ofParent(parent)).get()?.n ?? 0;
  return { rows, total };
}

export function insertLabel(tx: Tx, row: typeof labels.$inferInsert): LabelRow {
  return tx.insert(labels).values(row).returning().get();
}

export function updateLabel(tx: Tx, id: number, patch: Partial<typeof labels.$inferInsert>): LabelRow {
  return tx.update(labels).set(patch).where(eq(labels.id, id)).returning().get()!;
}

/**
 * Deletes a label with what refers to it, as Gitea's DeleteLabel: the label goes off every issue
 * (issue_label rows) and its timeline events (comments with its label_id) are dropped.
 */
export function deleteLabelRow(tx: Tx, id: number): void {
  tx.delete(issueLabels).where(eq(issueLabels.labelId, id)).run();
  tx.delete(comments).where(eq(comments.labelId, id)).run();
  tx.delete(labels).where(eq(labels.id, id)).run();
}

/** Deletes every label of a repository or organization (their rows have no foreign key to cascade). */
export function deleteLabelsOf(tx: Tx, parent: LabelParent): void {
  const ids = tx.select({ id: labels.id }).from(labels).where(ofParent(parent)).all().map((r) => r.id);
  for (const id of ids) deleteLabelRow(tx, id);
}

/** Labels by id from anywhere, ordered by name as Gitea's GetLabelsByIDs (the order decides which exclusive label wins). */
export function getLabelsByIds(tx: Tx, ids: number[]): LabelRow[] {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(labels)
    .where(inArray(labels.id, [...new Set(ids)]))
    .orderBy(asc(labels.name), asc(labels.id))
    .all();
}

/** Labels by id that an issue of this repository may carry: the repository's own and its organization's. */
export function getLabelsForRepo(tx: Tx, repoId: number, ownerId: number, ids: number[]): LabelRow[] {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(labels)
    .where(and(inArray(labels.id, ids), or(eq(labels.repoId, repoId), and(eq(labels.repoId, 0), eq(labels.orgId, ownerId)))))
    .all();
}

/** Ids of the parent's labels with these exact names, as Gitea's GetLabelIDsIn{Repo,Org}ByNames. */
export function labelIdsByNames(tx: Tx, parent: LabelParent, names: string[]): number[] {
  if (names.length === 0) return [];
  return tx
    .select({ id: labels.id })
    .from(labels)
    .where(and(ofParent(parent), inArray(labels.name, [...new Set(names)])))
    .orderBy(asc(labels.name))
    .all()
    .map((r) => r.id);
}

/** An issue's labels by name, as Gitea's GetLabelsByIssueID. */
export function labelsOfIssue(tx: Tx, issueId: number): LabelRow[] {
  return tx
    .select({ label: labels })
    .from(issueLabels)
    .innerJoin(labels, eq(labels.id, issueLabels.labelId))
    .where(eq(issueLabels.issueId, issueId))
    .orderBy(asc(labels.name), asc(labels.id))
    .all()
    .map((r) => r.label);
}

export function labelIdsOfIssue(tx: Tx, issueId: number): number[] {
  return tx
    .select({ id: issueLabels.labelId })
    .from(issueLabels)
    .where(eq(issueLabels.issueId, issueId))
    .all()
    .map((r) => r.id);
}

export function hasIssueLabel(tx: Tx, issueId: number, labelId: number): boolean {
  return (
    tx
      .select({ id: issueLabels.id })
      .from(issueLabels)
      .where(and(eq(issueLabels.issueId, issueId), eq(issueLabels.labelId, labelId)))
      .get() !== undefined
  );
}

export function addIssueLabel(tx: Tx, issueId: number, labelId: number): boolean {
  return tx.insert(issueLabels).values({ issueId, labelId }).onConflictDoNothing().returning().all().length > 0;
}

export function removeIssueLabel(tx: Tx, issueId: number, labelId: number): boolean {
  return (
    tx
      .delete(issueLabels)
      .where(and(eq(issueLabels.issueId, issueId), eq(issueLabels.labelId, labelId)))
      .returning()
      .all().length > 0
  );
}

/** Recounts the open/closed issues of labels from the rows. */
export function recountLabels(tx: Tx, labelIds: number[]): void {
  for (const id of new Set(labelIds)) {
    tx.update(labels)
      .set({
        numIssues: sql`(SELECT count(*) FROM ${issueLabels} WHERE ${issueLabels.labelId} = ${id})`,
        numClosedIssues: sql`(SELECT count(*) FROM ${issueLabels} INNER JOIN ${issues} ON ${issues.id} = ${issueLabels.issueId} WHERE ${issueLabels.labelId} = ${id} AND ${issues.isClosed} = 1)`,
      })
      .where(eq(labels.id, id))
      .run();
  }
}

/** Recounts every label of an organization (after issues carrying them went away with a repository). */
export function recountOrgLabels(tx: Tx, orgId: number): void {
  if (orgId <= 0) return;
  const ids = tx.select({ id: labels.id }).from(labels).where(ofParent({ orgId })).all().map((r) => r.id);
  recountLabels(tx, ids);
}

/**
 * A repository leaving an organization: its issues lose the organization's labels (as in Gitea's
 * transfer). Returns the labels touched, for recounting.
 */
export function removeOrgLabelsFromRepoIssues(tx: Tx, repoId: number, orgId: number): number[] {
  const rows = tx
    .select({ id: issueLabels.id, labelId: issueLabels.labelId })
    .from(issueLabels)
    .innerJoin(labels, eq(labels.id, issueLabels.labelId))
    .innerJoin(issues, eq(issues.id, issueLabels.issueId))
    .where(and(eq(issues.repoId, repoId), eq(labels.orgId, orgId), eq(labels.repoId, 0)))
    .all();
  if (rows.length) tx.delete(issueLabels).where(inArray(issueLabels.id, rows.map((r) => r.id))).run();
  return [...new Set(rows.map((r) => r.labelId))];
}
