import type { Env } from "../env.ts";
import type { PullMirrorRow } from "../../db/schema/index.ts";
import { writeTx } from "../../db/client.ts";
import * as model from "../../models/pull-mirror.ts";
import * as repos from "../../models/repo.ts";
import { BadRequest, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import type { Administers, Owns, Writes } from "../access/repo-access.ts";
import { requireMirrorsEnabled } from "./push-mirrors.ts";
import { dropPullSyncs, mirrorIntervalNs, nextUpdateAfter, reschedulePeriodicSync } from "./pull-mirrors.ts";
import { PULL_MIRROR_QUEUE, pullSyncPayload, putPullSync } from "./pull-sync-queue.ts";
import { queueItemStates } from "../../models/queue.ts";

/**
 * What a pull mirror's owner does with it, through the API (mirror-sync, the edit's
 * mirror_interval and enable_prune) and the repository's settings page (sync now, the interval,
 * the conversion into a normal repository).
 */

/** A repository's mirror row; undefined for a repository that is not a pull mirror. */
export function pullMirrorOf(env: Env, repoId: number): PullMirrorRow | undefined {
  return model.getPullMirrorByRepo(env.db, repoId);
}

/** The mirror rows of a page of repositories by repository id, in one query (the repository JSON's mirror_interval). */
export function pullMirrorsOf(env: Env, repoIds: number[]): Map<number, PullMirrorRow> {
  return new Map(model.listPullMirrorsByRepos(env.db, repoIds).map((m) => [m.repoId, m]));
}

/**
 * Gitea's MirrorSync (and AddPullMirrorToQueue): a sync is queued unless one already waits to
 * start; 400 while `[mirror] ENABLED` is off or for a repository that is not a mirror.
 */
export function syncPullMirrorNow(env: Env, rc: Writes<"code">): void {
  requireMirrorsEnabled(env);
  const repoId = rc.repo.id;
  writeTx(env.db, (tx) => {
    if (!model.getPullMirrorByRepo(tx, repoId)) throw new BadRequest("Repository is not a mirror");
    if (!queueItemStates(tx, PULL_MIRROR_QUEUE, pullSyncPayload(repoId, false), Date.now()).waiting) {
      putPullSync(env, tx, repoId, false);
    }
  });
}

/**
 * A new interval as the repository edit takes it (Gitea's updateMirror): a Go duration, 0 or at
 * least `[mirror] MIN_INTERVAL`; 422 otherwise. Returns nanoseconds.
 */
export function parseEditedInterval(env: Env, raw: string): number {
  return mirrorIntervalNs(env, raw, { name: "MirrorInterval", invalidPrefix: "" });
}

export interface PullMirrorEdit {
  /** Nanoseconds (see parseEditedInterval). */
  intervalNs?: number;
  enablePrune?: boolean;
}

/**
 * The mirror part of a repository edit, checked before anything changes: on a repository that is
 * not a mirror Gitea ignores both fields, whatever they hold.
 */
export function pullMirrorEditOf(env: Env, rc: Administers, mirrorInterval?: string | null, enablePrune?: boolean | null): PullMirrorEdit {
  if (!rc.repo.isMirror) return {};
  const edit: PullMirrorEdit = {};
  if (mirrorInterval !== undefined && mirrorInterval !== null) edit.intervalNs = parseEditedInterval(env, mirrorInterval);
  if (enablePrune !== undefined && enablePrune !== null) edit.enablePrune = enablePrune;
  return edit;
}

/**
 * Gitea's updateMirror: a new interval schedules the next sync one interval from now (none for
 * 0); a repository that is not a mirror ignores the edit, as Gitea's does.
 */
export function editPullMirror(env: Env, rc: Administers, edit: PullMirrorEdit): void {
  const repoId = rc.repo.id;
  if (edit.intervalNs === undefined && edit.enablePrune === undefined) return;
  writeTx(env.db, (tx) => {
    if (!model.getPullMirrorByRepo(tx, repoId)) return;
    const patch: model.PullMirrorPatch = {};
    if (edit.enablePrune !== undefined) patch.enablePrune = edit.enablePrune;
    if (edit.intervalNs !== undefined) {
      patch.intervalNs = edit.intervalNs;
      patch.nextUpdateUnix = nextUpdateAfter(nowUnix(), edit.intervalNs);
    }
    model.updatePullMirror(tx, repoId, patch);
    if (edit.intervalNs !== undefined) reschedulePeriodicSync(env, tx, repoId, edit.intervalNs);
  });
}

/**
 * The settings page's interval (Gitea's "mirror" action): 404 for a repository that is not a
 * mirror or is archived, 422 for an interval Gitea refuses.
 */
export function setPullMirrorInterval(env: Env, rc: Administers, raw: string): void {
  if (!rc.repo.isMirror || rc.repo.isArchived || !pullMirrorOf(env, rc.repo.id)) throw new NotFound();
  editPullMirror(env, rc, { intervalNs: parseEditedInterval(env, raw.trim()) });
}

/**
 * Gitea's "convert" action (for the repository's owner): the mirror becomes a normal repository
 * that takes pushes; its mirror row and waiting syncs go. 404 for a repository that is not a mirror.
 */
export function convertMirrorToNormal(env: Env, rc: Owns): void {
  const repoId = rc.repo.id;
  if (!rc.repo.isMirror) throw new NotFound();
  writeTx(env.db, (tx) => {
    repos.updateRepo(tx, repoId, { isMirror: false });
    model.deletePullMirror(tx, repoId);
    dropPullSyncs(tx, repoId);
  });
}
