import type { Env } from "../env.ts";
import type { Tx } from "../../db/client.ts";
import { insertAttachment } from "../../models/attachment.ts";
import { insertRelease, recountReleases } from "../../models/release.ts";
import { countCommits } from "../../git/log.ts";
import { resolveCommit } from "../../git/reflist.ts";
import { nowUnix } from "../../lib/time.ts";
import { attachmentStore, removeAttachmentFiles } from "../issue/attachments.ts";
import { parseRFC3339, type ReleaseRecord } from "./format.ts";
import type { LoadedRelease } from "./release-load.ts";

/**
 * The release half of restore-repo, as Gitea's GiteaLocalUploader.CreateReleases followed by its
 * SyncTags: a release's commit is its tag's in the restored git data; a published release whose tag
 * is not there becomes a draft without a commit (SyncReleasesWithTags → PushUpdateDeleteTag), a
 * draft stays a draft. Asset files are copied into attachment storage under new uuids before the
 * rows are written, with no type or size limit (Gitea saves them straight to storage too).
 */

/** Go's zero time.Time, which Gitea writes for a time it does not know. */
const GO_ZERO_TIME = -62135596800;

const unixOf = (value: string | undefined): number | undefined => {
  const t = value === undefined ? undefined : parseRFC3339(value);
  return t === undefined || t === GO_ZERO_TIME ? undefined : t;
};

export interface PreparedAsset {
  uuid: string;
  name: string;
  size: number;
  downloadCount: number;
  createdUnix: number;
}

export interface PreparedRelease {
  record: ReleaseRecord;
  sha1: string;
  numCommits: number;
  isDraft: boolean;
  createdUnix: number;
  assets: PreparedAsset[];
}

/** Removes the files prepareReleases stored, when the rows that would own them were not written. */
export function discardReleaseFiles(env: Env, prepared: PreparedRelease[]): void {
  removeAttachmentFiles(env, prepared.flatMap((r) => r.assets));
}

async function copyIn(env: Env, path: string): Promise<string> {
  const uuid = crypto.randomUUID();
  await attachmentStore(env).save(uuid, Bun.file(path).stream());
  return uuid;
}

/** Everything of the releases that needs git or the file system, done before the restore's transaction. */
export async function prepareReleases(env: Env, gitDir: string, releases: LoadedRelease[]): Promise<PreparedRelease[]> {
  const prepared: PreparedRelease[] = [];
  try {
    for (const { record, files } of releases) {
      const sha1 = (await resolveCommit(gitDir, `refs/tags/${record.tag_name}`)) ?? "";
      // Gitea's uploader: a missing creation time is the publication time, else now.
      const createdUnix = unixOf(record.created) ?? unixOf(record.published) ?? nowUnix();
      const release: PreparedRelease = {
        record,
        sha1,
        numCommits: sha1 ? await countCommits(gitDir, { from: [sha1] }) : 0,
        isDraft: record.draft === true || !sha1,
        createdUnix,
        assets: [],
      };
      prepared.push(release);
      for (const [i, path] of files.entries()) {
        const asset = record.assets![i]!;
        release.assets.push({
          uuid: await copyIn(env, path),
          name: asset.name,
          size: asset.size,
          downloadCount: asset.download_count,
          createdUnix: unixOf(asset.created) ?? unixOf(asset.updated) ?? createdUnix,
        });
      }
    }
  } catch (err) {
    discardReleaseFiles(env, prepared);
    throw err;
  }
  return prepared;
}

/** How a dumped person lands here (the restore's mapping of posters). */
export type AuthorOf = (id: number, name: string | undefined) => { posterId: number; originalAuthor: string; originalAuthorId: number };

/** The release and asset rows, in the restore's transaction. */
export function insertReleases(tx: Tx, repoId: number, prepared: PreparedRelease[], author: AuthorOf): void {
  // release.yml lists the newest first; inserted oldest first, releases of the same second keep their order.
  for (const r of [...prepared].reverse()) {
    const who = author(r.record.publisher_id, r.record.publisher_name);
    const row = insertRelease(tx, {
      repoId,
      publisherId: who.posterId,
      originalAuthor: who.originalAuthor,
      originalAuthorId: who.originalAuthorId,
      tagName: r.record.tag_name,
      lowerTagName: r.record.tag_name.toLowerCase(),
      target: r.record.target_commitish ?? "",
      title: r.record.name ?? "",
      note: r.record.body ?? "",
      sha1: r.sha1,
      numCommits: r.numCommits,
      isDraft: r.isDraft,
      isPrerelease: r.record.prerelease ?? false,
      isTag: false,
      createdUnix: r.createdUnix,
    });
    for (const a of r.assets) {
      // Gitea's uploader records no uploader for a migrated asset.
      insertAttachment(tx, { ...a, repoId, releaseId: row.id, uploaderId: 0 });
    }
  }
  if (prepared.length) recountReleases(tx, repoId);
}
