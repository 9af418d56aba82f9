import { existsSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { FILES, type ReleaseRecord } from "./format.ts";
import { isValidRef, readChecked, type Collector } from "./checks.ts";

/**
 * Reads and checks release.yml before anything is restored: the schema (release-schema.ts), then
 * what it cannot say: tags and targets git accepts, one release per tag (tags compare
 * case-insensitively, as Gitea's lower_tag_name), and, when assets are restored, every asset's
 * file inside the dump with the size its record gives.
 */

export interface LoadedRelease {
  record: ReleaseRecord;
  /** Per asset of the record: its file in the dump; empty when assets are not restored. */
  files: string[];
}

/**
 * An asset's `download_url` as a file of the dump: a relative path that stays inside it (symbolic
 * links resolved), naming a regular file. Gitea's restorer opens any path joined to the dump, and a
 * dump made without `release_assets` carries the source's web address here, which it cannot open.
 */
function assetFile(dir: string, url: string | null | undefined): { path: string } | { problem: string } {
  if (!url) return { problem: "no file in the dump (dumped without release_assets?)" };
  if (isAbsolute(url) || /^[a-z][a-z0-9+.-]*:/i.test(url)) {
    return { problem: `"${url}" is not a file of the dump (dumped without release_assets?)` };
  }
  const path = join(dir, url);
  const outside = (rel: string) => rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
  if (outside(relative(dir, path))) return { problem: `"${url}" is outside the dump` };
  if (!existsSync(path)) return { problem: `file "${url}" is missing` };
  if (outside(relative(realpathSync(dir), realpathSync(path)))) return { problem: `"${url}" is outside the dump` };
  if (!statSync(path).isFile()) return { problem: `"${url}" is not a file` };
  return { path };
}

/** release.yml's releases, checked; undefined when the file is absent or failed its schema (a problem is recorded then). */
export function loadReleases(c: Collector, dir: string, withAssets: boolean): LoadedRelease[] | undefined {
  const file = FILES.release;
  const list = readChecked<ReleaseRecord>(c, dir, file, "release");
  if (!list) return undefined;
  const tags = new Set<string>();
  return list.map((record, item) => {
    const tag = record.tag_name;
    if (!isValidRef(tag)) c.add({ file, item, field: "tag_name", message: `invalid tag name "${tag}"` });
    if (tags.has(tag.toLowerCase())) c.add({ file, item, field: "tag_name", message: `duplicate tag "${tag}"` });
    tags.add(tag.toLowerCase());
    const target = record.target_commitish;
    if (target && !isValidRef(target)) c.add({ file, item, field: "target_commitish", message: `invalid git reference "${target}"` });
    const files: string[] = [];
    if (withAssets) {
      (record.assets ?? []).forEach((asset, i) => {
        const found = assetFile(dir, asset.download_url);
        if ("problem" in found) {
          c.add({ file, item, field: `assets[${i}].download_url`, message: found.problem });
          return;
        }
        const size = statSync(found.path).size;
        if (size !== asset.size) c.add({ file, item, field: `assets[${i}].size`, message: `is ${asset.size}, the file has ${size} bytes` });
        files.push(found.path);
      });
    }
    return { record, files };
  });
}
