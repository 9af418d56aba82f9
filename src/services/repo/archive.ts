/**
 * Repository archives (Gitea's archiver service, streaming mode): `{ref}.zip`, `{ref}.tar.gz` and
 * `{ref}.bundle`, made by git as the client downloads them.
 */
import type { Env } from "../env.ts";
import { BadRequest, NotFound } from "../../lib/errors.ts";
import { streamArchive, streamBundle } from "../../git/archive.ts";
import { isSafeRefName, resolveRevisions } from "../../git/tree.ts";
import { gitDirOf, type RepoContext } from "./lookup.ts";
import { requireCodeReader } from "../access/permission.ts";

export type ArchiveType = "zip" | "tar.gz" | "bundle";

export interface Archive {
  type: ArchiveType;
  commitId: string;
  /** Gitea's download name: `{repo}-{ref with / as -}.{ext}`. */
  filename: string;
  open(): Promise<ReadableStream<Uint8Array>>;
}

/** Gitea's SplitArchiveNameType. */
export function splitArchiveName(name: string): { ref: string; type: ArchiveType } | undefined {
  for (const type of ["zip", "tar.gz", "bundle"] as const) {
    if (name.endsWith(`.${type}`)) return { ref: name.slice(0, -(type.length + 1)), type };
  }
  return undefined;
}

/**
 * Resolves `{ref}.{ext}`: 400 for an unknown format, 404 when the ref is not a branch, a tag or a
 * commit id (prefix of 4 or more hex digits).
 */
export async function openArchive(env: Env, rc: RepoContext, name: string): Promise<Archive> {
  requireCodeReader(rc);
  const split = splitArchiveName(name);
  if (!split) throw new BadRequest(`unknown format: ${name}`);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const revs: string[] = [];
  if (isSafeRefName(split.ref)) revs.push(`refs/heads/${split.ref}^{commit}`, `refs/tags/${split.ref}^{commit}`);
  if (split.ref === "HEAD") revs.push("HEAD^{commit}");
  if (/^[0-9a-f]{4,64}$/.test(split.ref)) revs.push(`${split.ref}^{commit}`);
  const found = (await resolveRevisions(gitDir, revs)).find(Boolean);
  if (!found) throw new NotFound(`unrecognized repository reference: ${split.ref}`);
  const commitId = found.oid;
  const filename = `${rc.repo.name}-${split.ref.replaceAll("/", "-")}.${split.type}`;
  return {
    type: split.type,
    commitId,
    filename,
    open: () =>
      split.type === "bundle"
        ? streamBundle(gitDir, commitId)
        : streamArchive(gitDir, { format: split.type, commit: commitId, prefix: `${rc.repo.name.toLowerCase()}/` }),
  };
}
