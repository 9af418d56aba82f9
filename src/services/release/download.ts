/**
 * `/{owner}/{repo}/releases/download/{tag}/{file}` (Gitea's RedirectDownload): the asset named
 * `file` of the release of `tag`, drafts only for those who may write releases; `latest` names
 * the latest release when no release has that tag (GitHub's alias, which Gitea follows). The
 * asset is then served as Gitea's ServeAttachment does: read permission on the release checked
 * again, the download counted.
 */
import type { Env } from "../env.ts";
import type { Doer } from "../access/permission.ts";
import type { ReleaseRow } from "../../db/schema/index.ts";
import * as releaseModel from "../../models/release.ts";
import { NotFound } from "../../lib/errors.ts";
import type { RepoContext } from "../repo/lookup.ts";
import { countDownload, findDownload, type Download } from "../issue/attachments.ts";
import { listReleaseAssets } from "./attachments.ts";
import { releaseByTag } from "./releases.ts";

export function findReleaseDownload(env: Env, rc: RepoContext, doer: Doer | undefined, tag: string, fileName: string): Download {
  if (rc.repo.isEmpty || !rc.perm.canRead("releases")) throw new NotFound();
  let release: ReleaseRow | undefined;
  try {
    release = releaseByTag(env, rc, tag);
  } catch (err) {
    if (!(err instanceof NotFound)) throw err;
  }
  // Gitea finds the release by the exact tag name (releaseByTag ignores case).
  if (release && release.tagName !== tag) release = undefined;
  if (!release && tag === "latest") release = releaseModel.latestRelease(env.db, rc.repo.id);
  // Gitea's GetAttachmentByReleaseIDFileName: the exact name.
  const asset = release && listReleaseAssets(env, release).find((a) => a.name === fileName);
  const found = asset && findDownload(env, doer, asset.uuid);
  if (!found) throw new NotFound();
  countDownload(env, found.attachment);
  return found;
}
