import type { Env } from "../env.ts";
import type { RepoRow, UserRow } from "../../db/schema/index.ts";
import * as repos from "../../models/repo.ts";
import * as users from "../../models/user.ts";
import { listCommitIds } from "../../git/log.ts";
import { readCommits, resolveRevision, type Commit } from "../../git/objects.ts";
import { fileStatuses } from "../../git/diff.ts";
import { writeTx, type Tx } from "../../db/client.ts";
import { repoEvents, type PushedCommit, type RepoEvent } from "../events/repo-events.ts";
import { applyCommitKeywords } from "../issue/commit-refs.ts";
import { gitDirOf } from "./lookup.ts";
import { accountById } from "../user/profile.ts";
import { PUSH_ANNOUNCE_QUEUE, type Announcement, type RefChange } from "./push-announce-queue.ts";


/**
 * Turns ref changes (a git push, or a branch or tag made or deleted through the API, which Gitea
 * also treats as a push) into what Gitea's pushUpdates announces, in its order: for a tag, a push
 * (with the tagged commit as head and no commits) then create, or a push with nothing then delete;
 * for a branch, create first when it is new, the closing keywords of its new commits, then the push;
 * delete alone when it goes. Recorded as a work-queue item in the transaction that records the
 * ref change, and worked out in the background from that queue, one push after another, so the
 * git client or API caller never waits for it and a crash or restart does not lose it.
 */

/** Gitea's `[ui] FEED_MAX_COMMIT_NUM` default: how many commits a push payload lists. */
export const FEED_MAX_COMMIT_NUM = 5;
/** Gitea lists at most this many commits of a new branch (CommitsBeforeLimit(10)). */
const NEW_BRANCH_COMMITS = 10;
/** Every commit of an update counts (Gitea has no limit); this only keeps git's int from overflowing. */
const ALL_COMMITS = 1_000_000;


const isZero = (sha: string) => /^0+$/.test(sha);


/** Records, in `tx` (the transaction that records the ref change), that these ref changes are to be announced. */
export function announceRefChanges(tx: Tx, env: Env, repoId: number, pusher: UserRow, changes: RefChange[]): void {
  const relevant = changes.filter((c) => c.ref.startsWith("refs/heads/") || c.ref.startsWith("refs/tags/"));
  if (relevant.length === 0) return;
  env.queue.put(tx, PUSH_ANNOUNCE_QUEUE, { repoId, pusherId: pusher.id, changes: relevant } satisfies Announcement);
}

/**
 * Works out one recorded push (push-announce-queue.ts registers the worker). A failure is logged,
 * not retried: the events announced before it would be repeated.
 */
export async function announcePush(env: Env, { repoId, pusherId, changes }: Announcement): Promise<void> {
  const pusher = accountById(env.db, pusherId);
  if (!pusher) return;
  try {
    await announce(env, repoId, pusher, changes);
  } catch (err) {
    env.log.error("announcing a push failed", { repo: repoId, error: (err as Error)?.stack ?? String(err) });
  }
}

/** Resolves when every push recorded so far has been turned into events (tests); needs the queue's workers running. */
export function refAnnouncementsIdle(env: Env): Promise<void> {
  return env.queue.idle(PUSH_ANNOUNCE_QUEUE);
}

/** Puts events on the bus, in one transaction of their own (they tell of a ref change already made). */
function emit(env: Env, ...events: RepoEvent[]): void {
  writeTx(env.db, (tx) => {
    for (const event of events) repoEvents.emit(tx, env, event);
  });
}

async function announce(env: Env, repoId: number, pusher: UserRow, changes: RefChange[]): Promise<void> {
  for (const change of changes) {
    // Read afresh for each ref: the first push into an empty repository changes its default branch.
    const repo = repos.getRepoById(env.db, repoId);
    const owner = repo && users.getUserById(env.db, repo.ownerId);
    if (!repo || !owner) return;
    const gitDir = gitDirOf(env, owner, repo);
    const base = { repo, owner, pusher, ref: change.ref };
    if (change.ref.startsWith("refs/tags/")) {
      if (isZero(change.new)) {
        emit(env, { kind: "push", ...base, old: change.old, new: change.new, commits: [], total: 0, compare: "" }, { kind: "ref-deleted", ...base });
      } else {
        const tip = await resolveRevision(gitDir, change.new, "commit");
        const [head] = tip ? await pushedCommits(gitDir, [tip]) : [];
        const compare = compareUrl(repo, owner, "0".repeat(change.new.length), change.new);
        emit(
          env,
          { kind: "push", ...base, old: "0".repeat(change.new.length), new: change.new, commits: [], total: 0, head, compare },
          { kind: "ref-created", ...base, sha: change.new },
        );
      }
      continue;
    }
    const branch = change.ref.slice("refs/heads/".length);
    if (isZero(change.new)) {
      emit(env, { kind: "ref-deleted", ...base });
      continue;
    }
    const created = isZero(change.old);
    if (created) emit(env, { kind: "ref-created", ...base, sha: change.new });
    const query = { from: [change.new], not: created ? [] : [change.old] };
    const ids = await listCommitIds(gitDir, query, 0, created ? NEW_BRANCH_COMMITS : ALL_COMMITS);
    const total = ids.length;
    const all = await readCommits(gitDir, ids);
    applyCommitKeywords(env, repo, owner, pusher, branch, all.map((c) => ({ oid: c.oid, message: c.message })));
    const shown = await pushedCommits(gitDir, ids.slice(0, FEED_MAX_COMMIT_NUM), all);
    const head = shown.find((c) => c.commit.oid === change.new) ?? (await pushedCommits(gitDir, [change.new]))[0];
    // Gitea's compare base: the old head; for a new branch the parent of its oldest listed commit,
    // else the default branch; nothing when even that is missing.
    let old = change.old;
    if (isZero(old) && all.length) old = all[all.length - 1]!.parents[0] ?? old;
    if (isZero(old) && repo.defaultBranch !== branch) old = repo.defaultBranch;
    const compare = isZero(old) ? "" : compareUrl(repo, owner, old, change.new);
    emit(env, { kind: "push", ...base, old: change.old, new: change.new, commits: shown, total, head, compare });
  }
}

/** The commits with the files each changes (Gitea's GetCommitFileStatus). */
async function pushedCommits(gitDir: string, ids: string[], known: Commit[] = []): Promise<PushedCommit[]> {
  if (ids.length === 0) return [];
  const byId = new Map(known.map((c) => [c.oid, c]));
  const missing = ids.filter((id) => !byId.has(id));
  for (const c of missing.length ? await readCommits(gitDir, missing) : []) byId.set(c.oid, c);
  const files = await fileStatuses(gitDir, ids);
  return ids.flatMap((id) => {
    const commit = byId.get(id);
    if (!commit) return [];
    const f = files.get(id) ?? { added: [], removed: [], modified: [] };
    return [{ commit, added: f.added, removed: f.removed, modified: f.modified }];
  });
}

const escapeSegments = (s: string) => s.split("/").map(encodeURIComponent).join("/");

/** Gitea's ComposeCompareURL, relative to ROOT_URL. */
function compareUrl(repo: RepoRow, owner: UserRow, from: string, to: string): string {
  return `${encodeURIComponent(owner.name)}/${encodeURIComponent(repo.name)}/compare/${escapeSegments(from)}...${escapeSegments(to)}`;
}
