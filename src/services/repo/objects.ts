import type { Env } from "../env.ts";
import { BadRequest, NotFound } from "../../lib/errors.ts";
import { isSafeRevision, lsTree, objectInfo, readObject, resolveRevision, type TreeEntry } from "../../git/objects.ts";
import { treeLanguageStats } from "../../git/languages.ts";
import { gitDirOf, type RepoContext } from "./lookup.ts";
import { NOT_FOUND_MESSAGE } from "./commits.ts";
import { definitionFor, parseEditorConfig, type EditorConfigDefinition } from "../../lib/editorconfig.ts";
import { parseLfsPointer } from "../../lib/lfs-pointer.ts";

/** Gitea's `[ui] MAX_DISPLAY_FILE_SIZE`: a larger .editorconfig is treated as absent. */
const MAX_DISPLAY_FILE_SIZE = 8 * 1024 * 1024;

export interface TreePage {
  /** The resolved tree id. */
  sha: string;
  /** The entries of the page; undefined for a page past the end (Gitea's `tree: null`). */
  entries: TreeEntry[] | undefined;
  page: number;
  totalCount: number;
  truncated: boolean;
}

/**
 * Gitea's GetTreeBySHA: `sha` is a tree, a commit or a ref; unresolvable is 400
 * `sha not found [<sha>]`. Pages of `perPage` entries (default and maximum
 * `[api] DEFAULT_GIT_TREES_PER_PAGE`), recursive lists including sub-trees, in git's order.
 */
export async function getTree(
  env: Env,
  rc: RepoContext,
  sha: string,
  opts: { recursive: boolean; page: number; perPage: number },
): Promise<TreePage> {
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const tree = isSafeRevision(sha) ? await resolveRevision(gitDir, sha, "tree") : undefined;
  if (!tree) throw new BadRequest(`sha not found [${sha}]`);
  const all = await lsTree(gitDir, tree, opts.recursive);
  const max = env.settings.api.defaultGitTreesPerPage;
  const perPage = opts.perPage <= 0 || opts.perPage > max ? max : opts.perPage;
  const page = Math.max(1, opts.page);
  const start = perPage * (page - 1);
  if (start >= all.length) return { sha: tree, entries: undefined, page, totalCount: all.length, truncated: false };
  const end = Math.min(start + perPage, all.length);
  return { sha: tree, entries: all.slice(start, end), page, totalCount: all.length, truncated: end < all.length };
}

export interface BlobData {
  sha: string;
  size: number;
  /** Undefined when the blob is larger than `[api] DEFAULT_MAX_BLOB_SIZE`. */
  content: Buffer | undefined;
  lfs?: { oid: string; size: number };
}

/** Go's `%#U` of a byte, as encoding/hex reports an invalid one. */
function goInvalidByte(ch: string): string {
  const code = ch.codePointAt(0)!;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  return code >= 0x20 && code !== 0x7f ? `${hex} '${ch}'` : hex;
}

/**
 * Gitea's GetBlobBySHA: the id must be a full object id (Gitea's errors otherwise, as 400), an
 * unknown one is 400 `object does not exist`; content is left out above DEFAULT_MAX_BLOB_SIZE,
 * and a small blob that is an LFS pointer reports the LFS object.
 */
export async function getBlob(env: Env, rc: RepoContext, sha: string): Promise<BlobData> {
  if (sha.length !== 40 && sha.length !== 64) throw new BadRequest(`length ${sha.length} has no matched object format: ${sha}`);
  const bad = /[^0-9a-fA-F]/.exec(sha);
  if (bad) throw new BadRequest(`encoding/hex: invalid byte: ${goInvalidByte(bad[0])}`);
  const oid = sha.toLowerCase();
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const missing = () => new BadRequest(`object does not exist [id: ${oid}, rel_path: ]`);
  const info = /^0+$/.test(oid) ? undefined : await objectInfo(gitDir, oid);
  if (!info) throw missing();
  if (info.size > env.settings.api.defaultMaxBlobSize) return { sha: info.oid, size: info.size, content: undefined };
  const obj = await readObject(gitDir, oid);
  if (!obj) throw missing();
  const blob: BlobData = { sha: obj.oid, size: obj.size, content: obj.content };
  const lfs = parseLfsPointer(obj.content);
  if (lfs) blob.lfs = lfs;
  return blob;
}

/** Bytes per language over the default branch, largest first; empty for an empty repository. */
export async function repoLanguages(env: Env, rc: RepoContext): Promise<[string, number][]> {
  if (rc.repo.isEmpty) return [];
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const head = await resolveRevision(gitDir, `refs/heads/${rc.repo.defaultBranch}`, "commit");
  return head ? treeLanguageStats(gitDir, head) : [];
}

/**
 * Gitea's getRefNameLegacy for an API `?ref=`: the shortest leading run of path segments that
 * is a branch, then a tag, then a full commit id; anything else falls back to the default branch.
 */
async function refCommit(gitDir: string, ref: string, defaultBranch: string): Promise<string | undefined> {
  const cleaned = ref
    .split("/")
    .filter((p) => p !== "" && p !== ".")
    .join("/");
  if (cleaned && isSafeRevision(cleaned)) {
    const parts = cleaned.split("/");
    for (const kind of ["refs/heads/", "refs/tags/"]) {
      for (let i = 1; i <= parts.length; i++) {
        const name = parts.slice(0, i).join("/");
        const sha = await resolveRevision(gitDir, `${kind}${name}`, "commit");
        if (sha) return sha;
      }
    }
    if (/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(parts[0]!)) return resolveRevision(gitDir, parts[0]!, "commit");
  }
  return resolveRevision(gitDir, `refs/heads/${defaultBranch}`, "commit");
}

/**
 * Gitea's GetEditorconfig: the definition the repository's root `.editorconfig` (at `ref`,
 * default branch by default) gives `filename`; 404 when there is none.
 */
export async function editorConfigFor(
  env: Env,
  rc: RepoContext,
  filename: string,
  ref: string | undefined,
): Promise<EditorConfigDefinition> {
  if (rc.repo.isEmpty) throw new NotFound("repository is empty");
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const commit = await refCommit(gitDir, (ref ?? "").trim(), rc.repo.defaultBranch);
  if (!commit) throw new NotFound("unable to find a git ref");
  const info = await objectInfo(gitDir, `${commit}:.editorconfig`);
  if (!info || info.type !== "blob" || info.size >= MAX_DISPLAY_FILE_SIZE) throw new NotFound(NOT_FOUND_MESSAGE);
  const blob = await readObject(gitDir, info.oid);
  if (!blob) throw new NotFound(NOT_FOUND_MESSAGE);
  return definitionFor(parseEditorConfig(blob.content.toString("utf8")), filename);
}
