/**
 * The repository's code as its web pages show it (Gitea's repo home, `src`, `raw` and `media`):
 * refs named in paths resolved as Gitea's RepoRefByType does, directories listed with the last
 * commit of each entry (one walk of history per directory page, remembered by commit), files read
 * for display within the size the site shows, and the counts of the repository's header. Every
 * read asks for a code reader (a request's declaration already did; this is the services' own
 * guard).
 */
import type { Env } from "../env.ts";
import { Visibility, type UserRow } from "../../db/schema/index.ts";
import * as branchModel from "../../models/branch.ts";
import { NotFound } from "../../lib/errors.ts";
import { Lru } from "../../lib/lru.ts";
import { parseLfsPointer, type LfsPointer } from "../../lib/lfs-pointer.ts";
import { sniffType, SNIFF_BYTES } from "../../lib/sniff.ts";
import { countCommits } from "../../git/log.ts";
import { readBlob, streamBlob } from "../../git/tree.ts";
import { readCommit, type Commit } from "../../git/objects.ts";
import {
  listBranchNames,
  listTagNames,
  objectInfoOf,
  readObjectBytes,
  readTreeItems,
  walkChangedPaths,
  type TreeItem,
  type WalkedCommit,
} from "../../git/code-view.ts";
import { requireCodeReader } from "../access/permission.ts";
import { findUserByEmail } from "../user/lookup.ts";
import { cleanReadPath, type RawFile } from "./contents.ts";
import { gitDirOf, type RepoContext } from "./lookup.ts";
import { openArchive, type Archive } from "./archive.ts";

export type { WalkedCommit } from "../../git/code-view.ts";

const NOT_FOUND = "The target couldn't be found.";
const FULL_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** Gitea's IsStringLikelyCommitID with its minimum of 7 hex digits. */
const LIKELY_ID = /^[0-9a-f]{7,64}$/;
/** A name no git ref can be (Gitea's IsValidRefPattern, the same expression as git/objects.ts). */
// eslint-disable-next-line no-control-regex
const INVALID_REF = /[\x00-\x1f\x7f \\~^:?*[]|^[/.]|\/\.|\.lock$|\.lock\/|\.\.|\/\/|@\{|[/.]$|^@$/;
/** The longest ref name tried as a path prefix: longer than any branch Gitea lets anyone make. */
const MAX_REF_NAME = 1024;

/**
 * The web's code reader (Gitea's reqRepoCodeReader on its web routes): the code unit switched on
 * and readable. Unlike the API, a repository administrator does not pass where the unit is off.
 */
function requireCodeUnit(rc: RepoContext): void {
  requireCodeReader(rc);
  if (!rc.perm.unitEnabled("code")) throw new NotFound(NOT_FOUND);
}

// ---------------------------------------------------------------------------------------------
// Refs in paths

export type RefKind = "branch" | "tag" | "commit";

/** How a path names its revision: Gitea's `/src/branch/…`, `/src/tag/…`, `/src/commit/…`, or the legacy `/src/…`. */
export type RefStyle = RefKind | "legacy";

/** The revision a code path names, and the path inside the tree after it. */
export interface CodeRef {
  kind: RefKind;
  /** The branch or tag name, or the commit id as the path wrote it (7 to 64 hex digits). */
  name: string;
  commitId: string;
  treePath: string;
  /**
   * A legacy path (`/src/main/x`) was resolved: the page redirects to the path with the ref's
   * kind; `fallback` when no ref matched and the whole rest is a path on the default branch.
   */
  legacy?: { fallback: boolean };
}

async function refCommit(gitDir: string, full: string): Promise<string | undefined> {
  const info = await objectInfoOf(gitDir, `${full}^{commit}`);
  return info?.type === "commit" ? info.oid : undefined;
}

/**
 * Gitea's getRefNameFromPath: the leading segments of `parts` that name a branch (or tag), tried
 * shortest first. git cannot hold both `a` and `a/b` as branches, so at most one prefix exists and
 * shortest and longest are the same answer.
 */
async function refFromParts(gitDir: string, parts: string[], kind: "branch" | "tag"): Promise<{ name: string; commitId: string; rest: string } | undefined> {
  const prefix = kind === "branch" ? "refs/heads/" : "refs/tags/";
  let name = "";
  for (let i = 0; i < parts.length; i++) {
    name = i === 0 ? parts[0]! : `${name}/${parts[i]}`;
    if (name.length > MAX_REF_NAME) return undefined;
    if (INVALID_REF.test(name)) continue;
    const commitId = await refCommit(gitDir, `${prefix}${name}`);
    if (commitId) return { name, commitId, rest: parts.slice(i + 1).join("/") };
  }
  return undefined;
}

/**
 * The revision and tree path of a code page's path rest (decoded), as Gitea's RepoRefByType:
 * a branch or tag whose name may hold `/` (`HEAD` is the default branch), a commit id of 7 or
 * more hex digits (`HEAD` is the default branch's head), or for a legacy path a branch, a tag, a
 * full commit id, else the default branch with the whole rest as the path. 404 when nothing matches.
 */
export async function resolveCodeRef(env: Env, rc: RepoContext, style: RefStyle, rest: string): Promise<CodeRef> {
  requireCodeUnit(rc);
  if (rc.repo.isEmpty) throw new NotFound(NOT_FOUND);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const parts = rest.split("/");
  const defaultHead = () => refCommit(gitDir, `refs/heads/${rc.repo.defaultBranch}`);
  const byRef = async (kind: "branch" | "tag"): Promise<CodeRef | undefined> => {
    const found = await refFromParts(gitDir, parts, kind);
    if (found) return { kind, name: found.name, commitId: found.commitId, treePath: found.rest };
    if (kind === "branch" && parts[0] === "HEAD") {
      const commitId = await defaultHead();
      if (commitId) return { kind, name: rc.repo.defaultBranch, commitId, treePath: parts.slice(1).join("/") };
    }
    return undefined;
  };
  if (style === "branch" || style === "tag") {
    const ref = await byRef(style);
    if (!ref) throw new NotFound(NOT_FOUND);
    return ref;
  }
  if (style === "commit") {
    const first = parts[0] ?? "";
    const commitId = LIKELY_ID.test(first) ? await refCommit(gitDir, first) : first === "HEAD" ? await defaultHead() : undefined;
    if (!commitId) throw new NotFound(NOT_FOUND);
    return { kind: "commit", name: first === "HEAD" ? commitId : first, commitId, treePath: parts.slice(1).join("/") };
  }
  // Legacy: a branch, a tag, a full commit id, else the default branch.
  const ref = (await byRef("branch")) ?? (await byRef("tag"));
  if (ref) return { ...ref, legacy: { fallback: false } };
  const first = parts[0] ?? "";
  if (FULL_ID.test(first)) {
    const commitId = await refCommit(gitDir, first);
    if (!commitId) throw new NotFound(NOT_FOUND);
    return { kind: "commit", name: first, commitId, treePath: parts.slice(1).join("/"), legacy: { fallback: false } };
  }
  const commitId = await defaultHead();
  if (!commitId) throw new NotFound(NOT_FOUND);
  return { kind: "branch", name: rc.repo.defaultBranch, commitId, treePath: rest, legacy: { fallback: true } };
}

/** The default branch's head, for the repository's home; undefined when the branch is missing. */
export async function defaultBranchRef(env: Env, rc: RepoContext): Promise<CodeRef | undefined> {
  requireCodeUnit(rc);
  if (rc.repo.isEmpty) return undefined;
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const commitId = await refCommit(gitDir, `refs/heads/${rc.repo.defaultBranch}`);
  if (commitId) return { kind: "branch", name: rc.repo.defaultBranch, commitId, treePath: "" };
  // Gitea shows the first branch there is when the default one is gone.
  const [first] = await branchNamesNewestFirst(env, rc, 1);
  const other = first === undefined ? undefined : await refCommit(gitDir, `refs/heads/${first}`);
  return other && first !== undefined ? { kind: "branch", name: first, commitId: other, treePath: "" } : undefined;
}

// ---------------------------------------------------------------------------------------------
// Entries

export type CodeEntryKind = "dir" | "file" | "symlink" | "submodule";

export interface CodeEntry {
  name: string;
  /** From the root of the tree; "" for the root. */
  path: string;
  kind: CodeEntryKind;
  oid: string;
  executable: boolean;
}

const kindOf = (item: TreeItem): CodeEntryKind =>
  item.type === "tree" ? "dir" : item.type === "commit" ? "submodule" : item.mode === "120000" ? "symlink" : "file";

/** The entry at `treePath` in `commit` (the root directory for ""), 404 when there is none. */
export async function codeEntry(env: Env, rc: RepoContext, commitId: string, treePath: string): Promise<CodeEntry> {
  requireCodeReader(rc);
  const path = cleanReadPath(treePath);
  if (path === undefined) throw new NotFound(NOT_FOUND);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  if (path === "") {
    const root = await objectInfoOf(gitDir, `${commitId}^{tree}`);
    if (!root) throw new NotFound(NOT_FOUND);
    return { name: "", path: "", kind: "dir", oid: root.oid, executable: false };
  }
  const slash = path.lastIndexOf("/");
  const parent = await readTreeItems(gitDir, `${commitId}:${path.slice(0, Math.max(0, slash))}`);
  const name = path.slice(slash + 1);
  const item = parent?.items.find((i) => i.name === name);
  if (!item) throw new NotFound(NOT_FOUND);
  return { name, path, kind: kindOf(item), oid: item.oid, executable: item.mode === "100755" };
}

const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

/** Gitea's NaturalSortLess: numbers by value, letters without regard to case, then exactly. */
export function naturalCompare(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Gitea's Entries.CustomSort: directories and submodules first, then by natural order of names. */
function sortEntries(entries: CodeEntry[]): CodeEntry[] {
  const rank = (e: CodeEntry) => (e.kind === "dir" || e.kind === "submodule" ? 0 : 1);
  return entries.sort((a, b) => rank(a) - rank(b) || naturalCompare(a.name, b.name));
}

/** The entries of a directory, sorted as Gitea lists them. */
export async function listDirectory(env: Env, rc: RepoContext, commitId: string, dir: CodeEntry): Promise<CodeEntry[]> {
  requireCodeReader(rc);
  const tree = await readTreeItems(gitDirOf(env, rc.owner, rc.repo), dir.oid);
  if (!tree) throw new NotFound(NOT_FOUND);
  const prefix = dir.path ? `${dir.path}/` : "";
  return sortEntries(
    tree.items.map((i) => ({ name: i.name, path: prefix + i.name, kind: kindOf(i), oid: i.oid, executable: i.mode === "100755" })),
  );
}

// ---------------------------------------------------------------------------------------------
// Last commits

/** How long a directory's walk may take before the entries still unknown are shown without one (Gitea: 1 s). */
const WALK_MS = 1000;
/** Commits the walk over the whole directory reads before narrowing to the entries still unknown. */
const WIDE_WALK_COMMITS = 512;
/** Remembered last commits, by commit id and entry path: null for one not found within the walk's time. */
const lastCommitCache = new Lru<WalkedCommit | null>(20_000);
const inFlight = new Map<string, Promise<void>>();

/**
 * The last commit that changed each of `names` (entries of directory `dir`) at or before `commitId`,
 * found in one walk of history (Gitea's GetCommitsInfo): `git log --name-only` over the directory,
 * narrowed to the entries still unknown after a few hundred commits, stopped once each is found or
 * after a second. Results are remembered by commit and path; an entry left unknown is tried again
 * a minute later.
 */
export async function lastCommitsOf(
  env: Env,
  rc: RepoContext,
  commitId: string,
  dir: string,
  names: string[],
): Promise<Map<string, WalkedCommit | undefined>> {
  requireCodeReader(rc);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const prefix = dir ? `${dir}/` : "";
  const key = (name: string) => `${commitId}\0${prefix}${name}`;
  const missing = () => names.filter((n) => lastCommitCache.get(key(n)) === undefined);

  let wanted = missing();
  // A walk of the same directory already under way (another visitor) answers this one too.
  const flightKey = `${commitId}\0${dir}`;
  while (wanted.length) {
    const running = inFlight.get(flightKey);
    if (!running) break;
    await running;
    wanted = missing();
  }
  if (wanted.length) {
    const walk = walkFor(gitDir, commitId, prefix, wanted, key);
    inFlight.set(flightKey, walk);
    try {
      await walk;
    } finally {
      if (inFlight.get(flightKey) === walk) inFlight.delete(flightKey);
    }
  }
  return new Map(names.map((n) => [n, lastCommitCache.get(key(n)) ?? undefined]));
}

async function walkFor(gitDir: string, commitId: string, prefix: string, names: string[], key: (n: string) => string): Promise<void> {
  const pending = new Set(names);
  const onPath = (path: string, c: WalkedCommit): boolean => {
    if (!path.startsWith(prefix)) return false;
    const slash = path.indexOf("/", prefix.length);
    const name = slash < 0 ? path.slice(prefix.length) : path.slice(prefix.length, slash);
    if (pending.delete(name)) lastCommitCache.set(key(name), c);
    return pending.size === 0;
  };
  const deadline = Date.now() + WALK_MS;
  const dir = prefix.slice(0, -1);
  const pathspecs = dir ? [dir] : [];

  // After a push, the parent's answers are usually known: only the new commits are walked, and
  // an entry none of them changed keeps its answer at the parent (an entry the parent did not
  // know, a new one, is then looked for in the whole history as usual).
  const parent = (await readCommit(gitDir, commitId))?.parents[0];
  const inherited = parent ? names.map((n) => lastCommitCache.get(`${parent}\0${prefix}${n}`)) : [];
  if (parent && inherited.some(Boolean)) {
    const complete = await walkChangedPaths(gitDir, commitId, pathspecs, onPath, { deadline, not: [parent] });
    if (complete) {
      names.forEach((n, i) => inherited[i] && pending.delete(n) && lastCommitCache.set(key(n), inherited[i]));
      if (pending.size === 0) return;
    }
  }

  const complete = await walkChangedPaths(gitDir, commitId, pathspecs, onPath, { deadline, maxCommits: WIDE_WALK_COMMITS });
  if (pending.size && !complete && Date.now() < deadline) {
    await walkChangedPaths(gitDir, commitId, [...pending].map((n) => prefix + n), onPath, { deadline });
  }
  // Not found within the time: shown without a commit, tried again after a while.
  for (const name of pending) {
    const k = key(name);
    lastCommitCache.set(k, null);
    setTimeout(() => lastCommitCache.get(k) === null && lastCommitCache.delete(k), 60_000).unref?.();
  }
}

/** One commit, parsed; 404 when the id names none. */
export async function commitInfo(env: Env, rc: RepoContext, commitId: string): Promise<Commit> {
  requireCodeReader(rc);
  const commit = await readCommit(gitDirOf(env, rc.owner, rc.repo), commitId);
  if (!commit) throw new NotFound(NOT_FOUND);
  return commit;
}

/** The account owning an email, for a commit's author (Gitea links the author when one does). */
export function accountOfEmail(env: Env, email: string): UserRow | undefined {
  return email ? findUserByEmail(env, email) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Counts and ref names

const commitCounts = new Lru<Promise<number>>(1024);

/**
 * How many commits lead to `commitId` (`rev-list --count`), remembered by commit. A commit whose
 * only parent was counted is that count plus one; a merge whose first parent was counted adds
 * what the merge brings (`rev-list --count commit ^parent`), which is cheap.
 */
export function commitCount(env: Env, rc: RepoContext, commitId: string): Promise<number> {
  requireCodeReader(rc);
  const hit = commitCounts.get(commitId);
  if (hit) return hit;
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const counted = (async () => {
    const parents = (await readCommit(gitDir, commitId))?.parents ?? [];
    const before = parents[0] === undefined ? undefined : commitCounts.get(parents[0]);
    if (before && parents.length === 1) return (await before) + 1;
    if (before) return (await before) + (await countCommits(gitDir, { from: [commitId], not: [parents[0]!] }));
    return countCommits(gitDir, { from: [commitId] });
  })();
  commitCounts.set(commitId, counted);
  counted.catch(() => commitCounts.delete(commitId));
  return counted;
}

async function branchNamesNewestFirst(env: Env, rc: RepoContext, limit: number): Promise<string[]> {
  const { rows } = branchModel.listBranchesNewestFirst(env.db, rc.repo.id, 0, limit);
  if (rows.length || rc.repo.isEmpty) return rows.map((r) => r.name);
  // A repository whose branch table was never filled (Gitea syncs it on first read): ask git.
  return (await listBranchNames(gitDirOf(env, rc.owner, rc.repo))).sort(naturalCompare).slice(0, limit);
}

export interface RefNames {
  /** Newest commit first, at most the limit asked for; the default branch is always among them. */
  branches: string[];
  branchCount: number;
  /** Newest versions first (natural order of names, descending), at most the limit. */
  tags: string[];
  tagCount: number;
}

/**
 * The branches and tags a ref switcher offers, at most `limit` of each, narrowed to names
 * containing `filter` (any case) when one is given, with the repository's totals.
 */
export async function refNames(env: Env, rc: RepoContext, limit: number, filter = ""): Promise<RefNames> {
  requireCodeReader(rc);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const needle = filter.toLowerCase();
  const match = (n: string) => !needle || n.toLowerCase().includes(needle);
  let branchCount = branchModel.countBranches(env.db, rc.repo.id);
  let branches: string[];
  if (branchCount === 0 && !rc.repo.isEmpty) {
    const all = await listBranchNames(gitDir);
    branchCount = all.length;
    branches = all.filter(match).sort(naturalCompare).slice(0, limit);
  } else if (!needle) {
    branches = (await branchNamesNewestFirst(env, rc, limit)).slice(0, limit);
  } else {
    branches = branchModel
      .listBranchesNewestFirst(env.db, rc.repo.id, 0, Math.max(branchCount, 1))
      .rows.map((r) => r.name)
      .filter(match)
      .slice(0, limit);
  }
  const def = rc.repo.defaultBranch;
  if (match(def) && !branches.includes(def) && branchCount > 0) branches = [def, ...branches.slice(0, Math.max(0, limit - 1))];
  else if (branches.includes(def)) branches = [def, ...branches.filter((b) => b !== def)];
  const allTags = rc.repo.isEmpty ? [] : await listTagNames(gitDir);
  const tags = allTags.filter(match).sort((a, b) => naturalCompare(b, a)).slice(0, limit);
  return { branches, branchCount, tags, tagCount: allTags.length };
}

// ---------------------------------------------------------------------------------------------
// Files

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

// ---------------------------------------------------------------------------------------------
// READMEs

/**
 * Gitea's findReadmeFileInEntries for an English reader: README files by extension in this
 * order (localised Markdown, Markdown, text, none), then any other `readme.*`; among names in the
 * same rank the last in natural order wins.
 */
const README_EXTS = [".en-us.md", ".en_us.md", ".en.md", "_en.md", ".md", ".txt", ""];
/** The well-known directories a repository's top README may live in, in Gitea's order. */
const DOCS_DIRS = ["docs", ".gitea", ".github"];

function readmeRank(name: string): number | undefined {
  const lower = name.toLowerCase();
  if (lower.length < 6 || !lower.startsWith("readme")) return undefined;
  const rest = lower.slice(6);
  const i = README_EXTS.indexOf(rest);
  if (i >= 0) return i;
  return rest.startsWith(".") ? README_EXTS.length : undefined;
}

function readmeIn(entries: CodeEntry[]): CodeEntry | undefined {
  const best: (CodeEntry | undefined)[] = [];
  for (const e of entries) {
    if (e.kind !== "file") continue;
    const rank = readmeRank(e.name);
    if (rank === undefined) continue;
    const held = best[rank];
    if (!held || naturalCompare(held.name, e.name) < 0) best[rank] = e;
  }
  return best.find(Boolean);
}

/**
 * The README to show under a directory's file list: one among its files, else, at the top of the
 * tree only, one in `docs/`, `.gitea/` or `.github/` (Gitea's order).
 */
export async function findReadme(env: Env, rc: RepoContext, commitId: string, dir: CodeEntry, entries: CodeEntry[]): Promise<CodeEntry | undefined> {
  const here = readmeIn(entries);
  if (here || dir.path !== "") return here;
  for (const name of DOCS_DIRS) {
    const sub = entries.find((e) => e.kind === "dir" && e.name.toLowerCase() === name);
    if (!sub) continue;
    const found = readmeIn(await listDirectory(env, rc, commitId, sub));
    if (found) return found;
  }
  return undefined;
}

/** An archive for the web's `/archive/{ref}.{ext}` (the API's openArchive, behind the web's code check). */
export function webArchive(env: Env, rc: RepoContext, name: string): Promise<Archive> {
  requireCodeUnit(rc);
  return openArchive(env, rc, name);
}
