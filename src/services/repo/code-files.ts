/**
 * A file's content as its page shows it, within the size the site shows; blobs by id and files by
 * ref for `raw` and `media`; archives of the web's `archive/` path.
 */
import type { Env } from "../env.ts";
import { Visibility } from "../../db/schema/index.ts";
import { NotFound } from "../../lib/errors.ts";
import { parseLfsPointer, type LfsPointer } from "../../lib/lfs-pointer.ts";
import { sniffType, SNIFF_BYTES } from "../../lib/sniff.ts";
import { readBlob, streamBlob } from "../../git/tree.ts";
import { objectInfoOf, readObjectBytes } from "../../git/code-view.ts";
import { requireCodeReader } from "../access/permission.ts";
import { type RawFile } from "./contents.ts";
import { gitDirOf, type RepoContext } from "./lookup.ts";
import { openArchive, type Archive } from "./archive.ts";
import { NOT_FOUND, FULL_ID, requireCodeUnit } from "./code-ref.ts";
import type { CodeRef } from "./code-ref.ts";
import { codeEntry, lastCommitsOf } from "./code-tree.ts";

/** What a file view shows, decided from the blob's size and first bytes as Gitea's file view does. */
export type FileContent =
  | { kind: "text"; text: string; size: number }
  | { kind: "image" | "video" | "audio" | "pdf" | "binary"; mime: string; size: number }
  | { kind: "too-large"; mime: string; size: number }
  | { kind: "lfs"; pointer: LfsPointer; text: string; size: number };

/** Decodes a blob's bytes for display: UTF-8 when it is, else Latin-1 (no byte is lost either way). */
function decodeText(bytes: Buffer): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return bytes.toString("latin1");
  }
}

/** A file's content for its page: text up to `[ui] MAX_DISPLAY_FILE_SIZE`, else what kind of file it is. */
export async function fileContent(env: Env, rc: RepoContext, oid: string): Promise<FileContent> {
  requireCodeReader(rc);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const info = await objectInfoOf(gitDir, oid);
  if (!info || info.type !== "blob") throw new NotFound(NOT_FOUND);
  const size = info.size;
  const limit = env.settings.ui.maxDisplayFileSize;
  const bytes = size <= limit ? (await readObjectBytes(gitDir, oid))?.content : await readBlob(gitDir, oid, SNIFF_BYTES);
  if (!bytes) throw new NotFound(NOT_FOUND);
  const mime = sniffType(bytes.subarray(0, SNIFF_BYTES));
  const pointer = size <= limit ? parseLfsPointer(bytes) : undefined;
  if (pointer) return { kind: "lfs", pointer, text: bytes.toString("utf8"), size };
  if (mime.startsWith("image/")) return { kind: "image", mime, size };
  if (mime.startsWith("video/")) return { kind: "video", mime, size };
  if (mime.startsWith("audio/")) return { kind: "audio", mime, size };
  if (mime.startsWith("application/pdf")) return { kind: "pdf", mime, size };
  if (!mime.startsWith("text/")) return { kind: "binary", mime, size };
  if (size > limit) return { kind: "too-large", mime, size };
  return { kind: "text", text: decodeText(bytes), size };
}

/** A text blob up to `max` bytes (a README), undefined when larger or not text. */
export async function smallTextBlob(env: Env, rc: RepoContext, oid: string, max: number): Promise<string | undefined> {
  requireCodeReader(rc);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const info = await objectInfoOf(gitDir, oid);
  if (!info || info.type !== "blob" || info.size > max) return undefined;
  const bytes = (await readObjectBytes(gitDir, oid))?.content;
  if (!bytes || !sniffType(bytes.subarray(0, SNIFF_BYTES)).startsWith("text/")) return undefined;
  return decodeText(bytes);
}

/**
 * The URL `.gitmodules` at `commitId` gives each submodule path (Gitea links a submodule to it),
 * read with the tree's other objects, no process.
 */
export async function submoduleUrls(env: Env, rc: RepoContext, commitId: string): Promise<Map<string, string>> {
  requireCodeReader(rc);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const blob = await readObjectBytes(gitDir, `${commitId}:.gitmodules`);
  const out = new Map<string, string>();
  if (!blob || blob.type !== "blob" || blob.content.length > 256 * 1024) return out;
  let path: string | undefined;
  let url: string | undefined;
  const flush = () => {
    if (path !== undefined && url !== undefined) out.set(path, url);
    path = url = undefined;
  };
  for (const raw of blob.content.toString("utf8").split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[")) flush();
    const m = /^(path|url)\s*=\s*(.*?)\s*$/i.exec(line);
    if (m) {
      const value = m[2]!.replace(/^"(.*)"$/, "$1");
      if (m[1]!.toLowerCase() === "path") path = value;
      else url = value;
    }
  }
  flush();
  return out;
}

// ---------------------------------------------------------------------------------------------
// Blobs by id (raw/blob/{sha})

export interface BlobById {
  oid: string;
  size: number;
  cachePublic: boolean;
  open(): Promise<ReadableStream<Uint8Array>>;
}

/** Gitea's DownloadByID: a blob of the repository by its full id; 404 for anything else. */
export async function blobById(env: Env, rc: RepoContext, sha: string): Promise<BlobById> {
  requireCodeUnit(rc);
  if (rc.repo.isEmpty || !FULL_ID.test(sha)) throw new NotFound(NOT_FOUND);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const info = await objectInfoOf(gitDir, sha);
  if (!info || info.type !== "blob") throw new NotFound(NOT_FOUND);
  return {
    oid: info.oid,
    size: info.size,
    cachePublic: !rc.repo.isPrivate && rc.owner.visibility === Visibility.Public,
    open: () => streamBlob(gitDir, info.oid),
  };
}

/**
 * The file at `treePath` in a resolved revision, to serve as it is (Gitea's SingleDownload): files
 * and symlinks (the link's target text), 404 for directories, submodules and missing paths. Its
 * Last-Modified is the committer time of the last commit that changed it.
 */
export async function rawFileAt(env: Env, rc: RepoContext, ref: CodeRef): Promise<RawFile> {
  const entry = await codeEntry(env, rc, ref.commitId, ref.treePath);
  if (entry.kind !== "file" && entry.kind !== "symlink") throw new NotFound(NOT_FOUND);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const info = await objectInfoOf(gitDir, entry.oid);
  if (!info) throw new NotFound(NOT_FOUND);
  const slash = entry.path.lastIndexOf("/");
  const last = (await lastCommitsOf(env, rc, ref.commitId, entry.path.slice(0, Math.max(0, slash)), [entry.name])).get(entry.name);
  return {
    path: entry.path,
    name: entry.name,
    kind: entry.kind,
    oid: entry.oid,
    size: info.size,
    lastModified: last?.unix,
    cachePublic: !rc.repo.isPrivate && rc.owner.visibility === Visibility.Public,
    open: () => streamBlob(gitDir, entry.oid),
  };
}

/** An archive for the web's `/archive/{ref}.{ext}` (the API's openArchive, behind the web's code check). */
export function webArchive(env: Env, rc: RepoContext, name: string): Promise<Archive> {
  requireCodeUnit(rc);
  return openArchive(env, rc, name);
}
