import { and, asc, count, desc, eq, or, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";
import {
  hookTaskAttempts,
  hookTasks,
  webhooks,
  type HookTaskAttemptRow,
  type HookTaskRow,
  type NewWebhookRow,
  type WebhookRow,
} from "../db/schema/index.ts";

/**
 * Where a hook lives, as Gitea tells them apart: a repository's (repo_id), a user's or an
 * organization's (owner_id), or the site's (both 0: system hooks fire for every repository,
 * default hooks are copied into each new one).
 */
export type HookOwner = { repoId: number } | { ownerId: number } | { site: true };

function ownerCondition(owner: HookOwner) {
  if ("repoId" in owner) return eq(webhooks.repoId, owner.repoId);
  if ("ownerId" in owner) return and(eq(webhooks.ownerId, owner.ownerId), eq(webhooks.repoId, 0));
  return and(eq(webhooks.repoId, 0), eq(webhooks.ownerId, 0));
}

/** Site hooks narrowed by kind: Gitea's admin list `type` (system, default or all). */
export type SiteHookKind = "system" | "default" | "all";

function listCondition(owner: HookOwner, kind: SiteHookKind) {
  const base = ownerCondition(owner);
  if (!("site" in owner) || kind === "all") return base;
  return and(base, eq(webhooks.isSystemWebhook, kind === "system"));
}

export function insertWebhook(tx: Tx, row: NewWebhookRow): WebhookRow {
  return tx.insert(webhooks).values(row).returning().get();
}

/** A hook of this owner by id; a hook of another repository, user or the site finds nothing. */
export function getWebhook(tx: Tx, owner: HookOwner, id: number): WebhookRow | undefined {
  return tx
    .select()
    .from(webhooks)
    .where(and(ownerCondition(owner), eq(webhooks.id, id)))
    .get();
}

/** An owner's hooks by id (Gitea's ListWebhooksByOpts order), one page, and how many there are. */
export function listWebhooks(
  tx: Tx,
  owner: HookOwner,
  page?: { offset: number; limit: number },
  kind: SiteHookKind = "all",
): { rows: WebhookRow[]; total: number } {
  const where = listCondition(owner, kind);
  const q = tx.select().from(webhooks).where(where).orderBy(asc(webhooks.id));
  const rows = page ? q.limit(page.limit).offset(page.offset).all() : q.all();
  const total = tx.select({ n: count() }).from(webhooks).where(where).get()?.n ?? 0;
  return { rows, total };
}

export function updateWebhook(tx: Tx, id: number, patch: Partial<NewWebhookRow>): WebhookRow | undefined {
  return tx.update(webhooks).set(patch).where(eq(webhooks.id, id)).returning().get();
}

/** Deletes an owner's hook; its tasks and their attempts go with it (foreign keys cascade). */
export function deleteWebhook(tx: Tx, owner: HookOwner, id: number): boolean {
  return (
    tx
      .delete(webhooks)
      .where(and(ownerCondition(owner), eq(webhooks.id, id)))
      .returning({ id: webhooks.id })
      .all().length > 0
  );
}

/** The site's default hooks (not system ones), which Gitea copies into every new repository. */
export function defaultWebhooks(tx: Tx): WebhookRow[] {
  return listWebhooks(tx, { site: true }, undefined, "default").rows;
}

/**
 * Whether an active hook could hear of the repository's events: one of its own, or one of any
 * owner or the site (repo_id 0). False on a site without hooks, so an event's notifier need not
 * look up the repository and its owner to find none. Prepared once (db/prepared.ts).
 */
export function anyActiveHookMayApply(tx: Tx, repoId: number): boolean {
  return (
    prepared(tx, "webhook.anyMayApply", (t) =>
      t
        .select({ one: sql<number>`1` })
        .from(webhooks)
        .where(and(eq(webhooks.isActive, true), sql`${webhooks.repoId} IN (${sql.placeholder("repoId")}, 0)`))
        .limit(1)
        .prepare(),
    ).get({ repoId }) !== undefined
  );
}

/**
 * The active hooks an event of a repository goes to, as Gitea's PrepareWebhooks gathers them:
 * the repository's own, its owner's (user or organization) and the site's system hooks. Default
 * hooks are not among them: their copies in the repository are.
 */
export function hooksForRepo(tx: Tx, repoId: number, ownerId: number): WebhookRow[] {
  // Asked for every event of the bus: prepared once (db/prepared.ts).
  return prepared(tx, "webhook.forRepo", (t) =>
    t
      .select()
      .from(webhooks)
      .where(
        and(
          eq(webhooks.isActive, true),
          or(
            eq(webhooks.repoId, sql.placeholder("repoId")),
            and(eq(webhooks.ownerId, sql.placeholder("ownerId")), eq(webhooks.repoId, 0)),
            and(eq(webhooks.repoId, 0), eq(webhooks.ownerId, 0), eq(webhooks.isSystemWebhook, true)),
          ),
        ),
      )
      .orderBy(asc(webhooks.id))
      .prepare(),
  ).all({ repoId, ownerId });
}

/**
 * The active hooks an event of an owner with no repository goes to (a package not linked to one,
 * Gitea's PrepareWebhooks with only an owner): the owner's own hooks and the site's system hooks.
 */
export function hooksForOwner(tx: Tx, ownerId: number): WebhookRow[] {
  return prepared(tx, "webhook.forOwner", (t) =>
    t
      .select()
      .from(webhooks)
      .where(
        and(
          eq(webhooks.isActive, true),
          eq(webhooks.repoId, 0),
          or(eq(webhooks.ownerId, sql.placeholder("ownerId")), and(eq(webhooks.ownerId, 0), eq(webhooks.isSystemWebhook, true))),
        ),
      )
      .orderBy(asc(webhooks.id))
      .prepare(),
  ).all({ ownerId });
}

/** A hook's tasks, newest first, one page, and how many there are. */
export function listHookTasks(tx: Tx, hookId: number, page: { offset: number; limit: number }): { rows: HookTaskRow[]; total: number } {
  const rows = tx
    .select()
    .from(hookTasks)
    .where(eq(hookTasks.hookId, hookId))
    .orderBy(desc(hookTasks.id))
    .limit(page.limit)
    .offset(page.offset)
    .all();
  const total = tx.select({ n: count() }).from(hookTasks).where(eq(hookTasks.hookId, hookId)).get()?.n ?? 0;
  return { rows, total };
}

/** A task of this hook by its delivery uuid; another hook's uuid finds nothing. */
export function getHookTaskByUuid(tx: Tx, hookId: number, uuid: string): HookTaskRow | undefined {
  return tx
    .select()
    .from(hookTasks)
    .where(and(eq(hookTasks.hookId, hookId), eq(hookTasks.uuid, uuid)))
    .get();
}

export function getHookTask(tx: Tx, id: number): HookTaskRow | undefined {
  return tx.select().from(hookTasks).where(eq(hookTasks.id, id)).get();
}

/** Every attempt at delivering a task, oldest first. */
export function listTaskAttempts(tx: Tx, taskId: number): HookTaskAttemptRow[] {
  return tx.select().from(hookTaskAttempts).where(eq(hookTaskAttempts.taskId, taskId)).orderBy(asc(hookTaskAttempts.id)).all();
}

/** A repository's own hooks (their tasks go with them), when the repository is deleted. */
export function deleteRepoWebhooks(tx: Tx, repoId: number): void {
  tx.delete(webhooks).where(eq(webhooks.repoId, repoId)).run();
}

/** An account's own hooks, when the user or organization is deleted. */
export function deleteOwnerWebhooks(tx: Tx, ownerId: number): void {
  tx.delete(webhooks).where(eq(webhooks.ownerId, ownerId)).run();
}
