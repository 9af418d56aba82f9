/**
 * A directory as the code pages show it: its entries in Gitea's order, the last commit of each
 * (one walk of history per directory page, remembered by commit), and its README.
 */
export type { WalkedCommit } from "../../git/code-view.ts";
import type { Env } from "../env.ts";
import { type UserRow } from "../../db/schema/index.ts";
import { NotFound } from "../../lib/errors.ts";
import { naturalCompare } from "../../lib/natural-sort.ts";
import { Lru } from "../../lib/lru.ts";
import { readCommit, type Commit } from "../../git/objects.ts";
import { objectInfoOf, readTreeItems, walkChangedPaths, type TreeItem, type WalkedCommit } from "../../git/code-view.ts";
import { requireCodeReader } from "../access/permission.ts";
import { findUserByEmail } from "../user/lookup.ts";
import { cleanReadPath } from "./contents.ts";
import { gitDirOf, type RepoContext } from "./lookup.ts";
import { NOT_FOUND } from "./code-ref.ts";

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
