import type { Env } from "../env.ts";
import type { PullMirrorRow, RepoRow, UserRow } from "../../db/schema/index.ts";
import { writeTx } from "../../db/client.ts";
import * as model from "../../models/pull-mirror.ts";
import * as repos from "../../models/repo.ts";
import * as users from "../../models/user.ts";
import { nowUnix } from "../../lib/time.ts";
import { maskUrlCredentials } from "../../lib/url-credentials.ts";
import { fetchRemote } from "../../git/remote.ts";
import { listRefs, type RefEntry } from "../../git/reflist.ts";
import type { Job, JobResult } from "../../queue/work-queue.ts";
import { gitDirOf } from "../repo/lookup.ts";
import { processPush, type RefUpdate } from "../repo/push.ts";
import { mirrorRemote } from "./remote-address.ts";
import { nextUpdateAfter, openPullCredentials } from "./pull-mirrors.ts";
import type { PullSyncItem } from "./pull-sync-queue.ts";
import { BUSY_RETRY_MS, exclusively } from "./one-at-a-time.ts";

/**
 * A pull mirror's sync (Gitea's SyncPullMirror), run from the `pull_mirror` queue: the remote's
 * branches and tags are fetched over the local ones (deleting those gone upstream when the mirror
 * prunes), and whatever moved is then processed exactly as a push by the repository's owner
 * (Gitea's mirror syncs announce their pusher so): the branch table, the repository's emptiness
 * and default branch, releases of tags, pull requests, push webhooks and events. Each sync records
 * when it ran, when the next is due and its error, free of credentials.
 */

/** What a sync fetches: the remote's branches and tags, nothing else (no pull request heads). */
const REFSPECS = ["+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"];
const SYNCED_PREFIXES = ["refs/heads/", "refs/tags/"];

/** The ref changes between two listings, as a push would report them (a zero id for a ref made or gone). */
export function refChanges(before: RefEntry[], after: RefEntry[]): RefUpdate[] {
  const old = new Map(before.map((r) => [r.name, r.sha]));
  const now = new Map(after.map((r) => [r.name, r.sha]));
  const zero = (sha: string) => "0".repeat(sha.length);
  const changes: RefUpdate[] = [];
  for (const [ref, sha] of now) {
    const was = old.get(ref);
    if (was !== sha) changes.push({ ref, old: was ?? zero(sha), new: sha });
  }
  for (const [ref, sha] of old) if (!now.has(ref)) changes.push({ ref, old: sha, new: zero(sha) });
  return changes;
}

/** Fetches from the mirror's remote; the error to record ("" for none), free of credentials. */
async function fetchMirror(env: Env, m: PullMirrorRow, gitDir: string): Promise<string> {
  const remote = await mirrorRemote(env, m.remoteAddress, () => openPullCredentials(env, m));
  if ("error" in remote) return remote.error;
  const outcome = await fetchRemote(gitDir, remote, REFSPECS, { prune: m.enablePrune });
  // The credentials travel in a header, never in the address: only URLs in the message can carry any.
  return outcome.ok ? "" : maskUrlCredentials(outcome.message);
}

/**
 * Syncs the mirror of `repo` now and records the outcome. The refs are compared before and after
 * the fetch whatever its outcome (a fetch cut short may have moved some), and what moved is
 * processed as the owner's push.
 */
async function syncNow(env: Env, repo: RepoRow, owner: UserRow, m: PullMirrorRow): Promise<void> {
  const gitDir = gitDirOf(env, owner, repo);
  const before = await listRefs(gitDir, SYNCED_PREFIXES);
  const error = await fetchMirror(env, m, gitDir);
  const after = await listRefs(gitDir, SYNCED_PREFIXES);
  const now = nowUnix();
  writeTx(env.db, (tx) => {
    // The interval as it is now: it may have been changed while the fetch ran.
    const current = model.getPullMirrorByRepo(tx, repo.id);
    if (current) model.updatePullMirror(tx, repo.id, { updatedUnix: now, nextUpdateUnix: nextUpdateAfter(now, current.intervalNs), lastError: error });
  });
  if (error) env.log.warn("pull mirror sync failed", { repo: repo.id, error });
  const changes = refChanges(before, after);
  if (changes.length === 0) return;
  try {
    await processPush(env, repo.id, repo.ownerId, changes);
  } catch (err) {
    // Not retried: the refs have moved, a second run would find nothing to announce.
    env.log.error("pull mirror: processing the synced refs failed", { repo: repo.id, error: (err as Error).message });
  }
}

/** The queue handler (pull-sync-queue.ts registers it). */
export async function runPullSync(env: Env, item: PullSyncItem, job: Job): Promise<JobResult> {
  if (!item.periodic) return runOnce(env, item, job);
  try {
    return await runOnce(env, item, job);
  } catch (err) {
    // The periodic item must outlive a failed run (the queue would drop it after its attempts).
    env.log.error("pull mirror: periodic sync failed", { repo: item.repoId, error: (err as Error).message });
    return { retryInMs: 60_000 };
  }
}

/** Milliseconds until the mirror's next periodic sync; undefined when it has none. */
function untilNext(env: Env, repoId: number): number | undefined {
  const m = model.getPullMirrorByRepo(env.db, repoId);
  if (!m || m.intervalNs <= 0 || m.nextUpdateUnix <= 0) return undefined;
  return Math.max(0, m.nextUpdateUnix * 1000 - Date.now());
}

async function runOnce(env: Env, item: PullSyncItem, _job: Job): Promise<JobResult> {
  const repo = repos.getRepoById(env.db, item.repoId);
  const owner = repo && users.getUserById(env.db, repo.ownerId);
  const m = repo?.isMirror ? model.getPullMirrorByRepo(env.db, repo.id) : undefined;
  // Gone, converted into a normal repository, or (periodic) no longer on an interval: the item ends.
  if (!repo || !owner || !m) return;
  if (item.periodic) {
    const wait = untilNext(env, repo.id);
    if (wait === undefined) return;
    // Synced meanwhile by a request, or the interval changed: the next sync is due later.
    if (wait > 1000) return { retryInMs: wait };
  }
  // Gitea leaves archived repositories' mirrors alone; the periodic item looks again an interval later.
  if (repo.isArchived) return item.periodic ? { retryInMs: m.intervalNs / 1e6 } : undefined;
  if (!(await exclusively(env, "pull", repo.id, () => syncNow(env, repo, owner, m))).ran) return { retryInMs: BUSY_RETRY_MS };
  if (!item.periodic) return;
  const wait = untilNext(env, repo.id);
  return wait === undefined ? undefined : { retryInMs: Math.max(wait, BUSY_RETRY_MS) };
}
