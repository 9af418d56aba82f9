import type { Env } from "../env.ts";
import type { Tx } from "../../db/client.ts";
import * as model from "../../models/pull-mirror.ts";
import { Invalid } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { DurationError, formatGoDuration, parseGoDuration } from "../../config/go-duration.ts";
import type { RemoteCredentials } from "./remote-address.ts";
import { PULL_MIRROR_QUEUE, pullSyncPayload, putPullSync } from "./pull-sync-queue.ts";
import { queueItemStates, dropWaitingQueueItems } from "../../models/queue.ts";

/**
 * A pull mirror's credentials are sealed (env.mirrorBox) bound to its repository: sealed
 * credentials copied onto another repository's mirror do not open.
 */
const context = (repoId: number) => `mirror:${repoId}`;

export function sealPullCredentials(env: Env, repoId: number, c: RemoteCredentials): string {
  if (!c.username && !c.password) return "";
  return env.mirrorBox.seal(JSON.stringify({ username: c.username, password: c.password }), context(repoId));
}

/** The clear credentials; throws when they do not open (another SECRET_KEY, a moved row). */
export function openPullCredentials(env: Env, m: { repoId: number; remoteCredentials: string }): RemoteCredentials {
  if (!m.remoteCredentials) return { username: "", password: "" };
  const c = JSON.parse(env.mirrorBox.open(m.remoteCredentials, context(m.repoId))) as Partial<RemoteCredentials>;
  return { username: c.username ?? "", password: c.password ?? "" };
}

/**
 * A pull mirror's interval (a Go duration): 0 turns the periodic sync off, anything else must be at
 * least `[mirror] MIN_INTERVAL`. Returns nanoseconds; 422 otherwise, in the words of the Gitea
 * caller: `name` for the value, `invalidPrefix` before a duration that does not parse.
 */
export function mirrorIntervalNs(env: Env, raw: string, words: { name: string; invalidPrefix: string }): number {
  let ns: number;
  try {
    ns = parseGoDuration(raw);
  } catch (err) {
    if (err instanceof DurationError) throw new Invalid(`${words.invalidPrefix}${err.message}`);
    throw err;
  }
  const min = env.settings.mirror.minIntervalNs;
  if (ns !== 0 && ns < min) throw new Invalid(`${words.name} ${formatGoDuration(ns)} is set below Minimum Interval of ${formatGoDuration(min)}`);
  return ns;
}

/** A new mirror's interval as a migration takes it: empty means `[mirror] DEFAULT_INTERVAL`. */
export function parseMirrorInterval(env: Env, raw: string | undefined): number {
  if (raw === undefined || raw === "") return env.settings.mirror.defaultIntervalNs;
  return mirrorIntervalNs(env, raw, { name: "interval", invalidPrefix: "invalid mirror_interval: " });
}

export interface NewPullMirror {
  /** The remote's address without credentials. */
  address: string;
  credentials: RemoteCredentials;
  intervalNs: number;
}

/** When a sync that ran (or a schedule set) at `now` makes the next periodic one due; 0 for none (Gitea's ScheduleNextUpdate). */
export function nextUpdateAfter(now: number, intervalNs: number): number {
  const seconds = Math.floor(intervalNs / 1e9);
  return seconds > 0 ? now + seconds : 0;
}

/**
 * Records a new mirror repository's remote in `tx` (Gitea's migration writes its mirror row the
 * same way): the first periodic sync is due one interval from now, the clone having just run.
 */
export function recordPullMirror(env: Env, tx: Tx, repoId: number, m: NewPullMirror): void {
  const now = nowUnix();
  model.insertPullMirror(tx, {
    repoId,
    intervalNs: m.intervalNs,
    enablePrune: true,
    remoteAddress: m.address,
    remoteCredentials: sealPullCredentials(env, repoId, m.credentials),
    updatedUnix: now,
    nextUpdateUnix: nextUpdateAfter(now, m.intervalNs),
  });
  if (m.intervalNs > 0) putPullSync(env, tx, repoId, true, m.intervalNs / 1e6);
}

/**
 * Puts a mirror's periodic item in line with a new interval, in `tx`: the waiting item (due at
 * the old schedule) is replaced by one due one interval from now, or by none for 0. One that is
 * running keeps going and reads the new schedule when it is done.
 */
export function reschedulePeriodicSync(env: Env, tx: Tx, repoId: number, intervalNs: number): void {
  const payload = pullSyncPayload(repoId, true);
  const now = Date.now();
  dropWaitingQueueItems(tx, PULL_MIRROR_QUEUE, [payload], now);
  if (intervalNs > 0 && !queueItemStates(tx, PULL_MIRROR_QUEUE, payload, now).running) {
    putPullSync(env, tx, repoId, true, intervalNs / 1e6);
  }
}

/** Withdraws every sync of a repository not yet started (it is no longer a mirror); one running finds no mirror and ends. */
export function dropPullSyncs(tx: Tx, repoId: number): void {
  dropWaitingQueueItems(tx, PULL_MIRROR_QUEUE, [pullSyncPayload(repoId, true), pullSyncPayload(repoId, false)], Date.now());
}
