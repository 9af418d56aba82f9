import { closeSync, copyFileSync, mkdirSync, openSync, readSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Env } from "../env.ts";
import type { Tx } from "../../db/client.ts";
import type { AttachmentRow } from "../../db/schema/index.ts";
import * as data from "../../models/migration.ts";
import { attachmentsOfReleases } from "../../models/release.ts";
import { detectContentType } from "../../lib/sniff.ts";
import { attachmentStore } from "../issue/attachments.ts";
import { FILES, dumpTime, type AssetRecord, type ReleaseRecord } from "./format.ts";

/**
 * The release half of dump-repo, as Gitea's RepositoryDumper.CreateReleases writes it: release.yml
 * holds every release (drafts too, bare tags not), newest first as Gitea's API lists them; with
 * `release_assets` each release gets `release_assets/{tag}/` holding its asset files, and an asset's
 * `download_url` names its file there. Without it the assets are described with the address this
 * instance serves them at, as Gitea's downloader records them.
 */

export interface ReleaseDump {
  records: ReleaseRecord[];
  /** The directories Gitea creates (one per release), relative to the dump. */
  dirs: string[];
  /** Asset files to copy: the stored attachment and its record, whose download_url is the target. */
  files: { attachment: AttachmentRow; record: AssetRecord; tag: string }[];
}

/**
 * An asset's file name inside `release_assets/{tag}/`: its own name (Gitea's layout) unless that
 * could leave the directory or is taken by another asset of the release; then its id keeps it apart.
 */
function fileName(a: AttachmentRow, used: Set<string>): string {
  let name = a.name && a.name !== "." && a.name !== ".." && !/[/\\\0]/.test(a.name) ? a.name : `asset-${a.id}`;
  while (used.has(name.toLowerCase())) name = `${a.id}-${name}`;
  used.add(name.toLowerCase());
  return name;
}

/** The records of release.yml, read in the dump's one transaction. */
export function readReleases(tx: Tx, env: Env, repoId: number, withFiles: boolean): ReleaseDump {
  const rows = data.repoReleases(tx, repoId);
  const assets = attachmentsOfReleases(tx, rows.map((r) => r.id));
  const people = data.usersByIds(tx, rows.map((r) => r.publisherId));
  const out: ReleaseDump = { records: [], dirs: [], files: [] };
  for (const r of rows) {
    const dir = join(FILES.releaseAssets, r.tagName);
    if (withFiles) out.dirs.push(dir);
    const used = new Set<string>();
    const records = (assets.get(r.id) ?? []).map((a): AssetRecord => {
      const record: AssetRecord = {
        id: a.id,
        name: a.name,
        content_type: null,
        size: a.size,
        download_count: a.downloadCount,
        created: dumpTime(a.createdUnix),
        // hearth keeps no update time for an attachment; its creation is its last change.
        updated: dumpTime(a.createdUnix),
        download_url: withFiles ? join(dir, fileName(a, used)) : `${env.settings.server.rootUrl}attachments/${a.uuid}`,
      };
      if (withFiles) out.files.push({ attachment: a, record, tag: r.tagName });
      return record;
    });
    const account = people.get(r.publisherId);
    const publisher = r.originalAuthor
      ? { id: r.originalAuthorId, name: r.originalAuthor, email: "" }
      : account
        ? { id: account.id, name: account.name, email: account.email }
        : { id: -1, name: "Ghost", email: "" };
    out.records.push({
      tag_name: r.tagName,
      target_commitish: r.target,
      name: r.title,
      body: r.note,
      draft: r.isDraft,
      prerelease: r.isPrerelease,
      publisher_id: publisher.id,
      publisher_name: publisher.name,
      publisher_email: publisher.email,
      assets: records,
      created: dumpTime(r.createdUnix),
      published: dumpTime(r.createdUnix),
    });
  }
  return out;
}

/** Go's http.DetectContentType on the file's first bytes, what a download of it is served as. */
function sniff(path: string): string {
  const fd = openSync(path, "r");
  try {
    const head = Buffer.alloc(512);
    return detectContentType(head.subarray(0, readSync(fd, head, 0, head.length, 0)));
  } finally {
    closeSync(fd);
  }
}

/**
 * Copies the asset files into the dump (and records their type). A file missing from attachment
 * storage fails the dump: a dump that silently lost an asset would restore a release without it.
 */
export function writeReleaseAssets(env: Env, base: string, dump: ReleaseDump): void {
  for (const dir of dump.dirs) mkdirSync(join(base, dir), { recursive: true });
  for (const { attachment, record, tag } of dump.files) {
    const source = attachmentStore(env).file(attachment.uuid);
    if (!source) throw new Error(`release ${tag}: the file of asset "${attachment.name}" (id ${attachment.id}) is missing from attachment storage`);
    const target = join(base, record.download_url!);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(source, target);
    record.content_type = sniff(target);
  }
}
