import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import * as releases from "../../models/release.ts";
import { Conflict } from "../../lib/errors.ts";
import { countCommits } from "../../git/log.ts";
import { resolveCommit } from "../../git/reflist.ts";

/** Whether a release (published or draft, not a bare tag row) claims the tag name. */
export function tagHasRelease(env: Env, repoId: number, tagName: string): boolean {
  const row = releases.getReleaseByTag(env.db, repoId, tagName);
  return row !== undefined && !row.isTag;
}

/**
 * Gitea's DeleteTag refusal: a tag that has a release (published or draft) is deleted with the
 * release's own route, not directly.
 */
export function requireTagWithoutRelease(env: Env, repoId: number, tagName: string): void {
  if (tagHasRelease(env, repoId, tagName)) throw new Conflict("a tag attached to a release cannot be deleted directly");
}

/**
 * After tags were deleted (through the API or a push), Gitea's PushUpdateDeleteTag: their bare-tag
 * rows go, and releases of them become drafts without a commit.
 */
export function tagsDeleted(env: Env, repoId: number, tagNames: string[]): void {
  if (tagNames.length === 0) return;
  writeTx(env.db, (tx) => {
    releases.tagsDeleted(tx, repoId, tagNames);
    releases.recountReleases(tx, repoId);
  });
}

/**
 * For the post-receive step of a push: deleted tags as above; a pushed tag that has a release
 * publishes it at the tag's commit (Gitea's SaveOrUpdateTag). Tags without a release need no row.
 */
export async function releasesAfterPush(env: Env, repoId: number, gitDir: string, updates: { ref: string; new: string }[]): Promise<void> {
  const tags = updates.filter((u) => u.ref.startsWith("refs/tags/"));
  const name = (ref: string) => ref.slice("refs/tags/".length);
  tagsDeleted(env, repoId, tags.filter((u) => /^0+$/.test(u.new)).map((u) => name(u.ref)));
  for (const u of tags.filter((t) => !/^0+$/.test(t.new))) {
    const row = releases.getReleaseByTag(env.db, repoId, name(u.ref));
    if (!row || row.isTag) continue;
    const sha1 = await resolveCommit(gitDir, u.ref);
    if (!sha1) continue;
    const numCommits = await countCommits(gitDir, { from: [sha1] });
    writeTx(env.db, (tx) => {
      releases.updateRelease(tx, row.id, { sha1, numCommits, isDraft: false });
      releases.recountReleases(tx, repoId);
    });
  }
}
