/**
 * The branch and tag lists of the web pages (Gitea's repo.Branches and repo.TagsList): the API's
 * branch and tag listings, with what the pages add: each branch's distance from the default
 * branch, each tag's release.
 */
import type { Env } from "../env.ts";
import type { ReleaseRow } from "../../db/schema/index.ts";
import * as releases from "../../models/release.ts";
import { NotFound } from "../../lib/errors.ts";
import { aheadBehind } from "../../git/diff-text.ts";
import { canSeeDrafts } from "../release/access.ts";
import { getBranch, listBranches, type BranchView } from "./branches.ts";
import { listTags, type TagInfo } from "./tags.ts";
import { gitDirOf, type RepoContext } from "./lookup.ts";

export interface BranchRowView extends BranchView {
  /** Commits ahead of and behind the default branch; undefined for the default branch itself. */
  distance?: { ahead: number; behind: number };
}

/** Distances by `{default head}..{branch head}`: both are commit ids, so an entry never goes stale. */
const distances = new Map<string, Promise<{ ahead: number; behind: number } | undefined>>();
const MAX_DISTANCES = 2048;
/** How long a branch page waits for distances still being counted. */
const DISTANCE_WAIT_MS = 300;

function distance(gitDir: string, base: string, head: string) {
  const key = `${gitDir}\0${base}\0${head}`;
  let hit = distances.get(key);
  if (!hit) {
    hit = aheadBehind(gitDir, base, head);
    distances.set(key, hit);
    while (distances.size > MAX_DISTANCES) distances.delete(distances.keys().next().value!);
  }
  return hit;
}

/** Runs `fn` over `items`, `width` at a time (each is a git process; the machine has few cores). */
async function limited<T, R>(items: T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return out;
}

export interface BranchList {
  /** The default branch, undefined when it does not exist (yet). */
  defaultBranch: BranchRowView | undefined;
  /** A page of the branches, newest commit first, the default branch left out. */
  items: BranchRowView[];
  /** Every branch, the default one included. */
  total: number;
}

/** A page of the branches (404 for an empty repository, as Gitea's MustBeNotEmpty). */
export async function branchList(env: Env, rc: RepoContext, page: { offset: number; limit: number }): Promise<BranchList> {
  if (rc.repo.isEmpty) throw new NotFound();
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const [listed, defaultBranch] = await Promise.all([
    listBranches(env, rc, page),
    getBranch(env, rc, rc.repo.defaultBranch).catch((err) => {
      if (err instanceof NotFound) return undefined;
      throw err;
    }),
  ]);
  const others = listed.items.filter((b) => b.name !== rc.repo.defaultBranch);
  const base = defaultBranch?.commit.id;
  // Distances are counted while the page waits up to DISTANCE_WAIT_MS; those not counted by then
  // are left out of this answer and kept for the next (a far-diverged branch of a big history).
  const found = new Map<string, { ahead: number; behind: number } | undefined>();
  if (base) {
    const counting = limited(others, 4, async (b) => found.set(b.name, await distance(gitDir, base, b.commit.id))).catch(() => undefined);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([counting, new Promise((resolve) => (timer = setTimeout(resolve, DISTANCE_WAIT_MS)))]);
    clearTimeout(timer);
  }
  const items = others.map((b) => ({ ...b, distance: found.get(b.name) }));
  return { defaultBranch, items, total: listed.total };
}

export interface TagRowView extends TagInfo {
  /** The release of this tag, when there is one the viewer may see. */
  release: ReleaseRow | undefined;
}

/** A page of the tags in Gitea's order, each with its release. */
export async function tagList(env: Env, rc: RepoContext, page: { offset: number; limit: number }): Promise<{ items: TagRowView[]; total: number }> {
  if (rc.repo.isEmpty) throw new NotFound();
  const { items, total } = await listTags(env, rc, page);
  const drafts = canSeeDrafts(rc);
  return {
    items: items.map((t) => {
      const row = releases.getReleaseByTag(env.db, rc.repo.id, t.name);
      const release = row && !row.isTag && (!row.isDraft || drafts) && rc.perm.canRead("releases") ? row : undefined;
      return { ...t, release };
    }),
    total,
  };
}
