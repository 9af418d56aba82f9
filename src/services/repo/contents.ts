/**
 * Repository contents as Gitea's contents API sees them: reading paths at a ref, changing files
 * with one commit (no worktree, compare-and-swap on the branch) and opening blobs for raw download.
 */
import type { Env } from "../env.ts";
import { gitIdentityOf, usableGitName } from "../user/git-identity.ts";
import { checkProtectedRefs } from "../protection/push-check.ts";
import { processPush } from "./push.ts";
import { Visibility, type UserRow } from "../../db/schema/index.ts";
import * as repos from "../../models/repo.ts";
import { Conflict, Forbidden, Invalid, NotFound } from "../../lib/errors.ts";
import { nowUnix, parseDateTime } from "../../lib/time.ts";
import { commitFiles, isValidBranchName, RefMovedError, type FileWrite } from "../../git/commit-files.ts";
import * as tree from "../../git/tree.ts";
import type { CommitInfo, EntryKind, LastCommit, TreeEntry } from "../../git/tree.ts";
import { gitDirOf, type RepoContext } from "./lookup.ts";
import { requireCodeReader } from "../access/permission.ts";
import { parseLfsPointer } from "../../lib/lfs-pointer.ts";
import type { Writes } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";

export type { CommitInfo, EntryKind, LastCommit } from "../../git/tree.ts";

const NOT_FOUND = "The target couldn't be found.";

// ---------------------------------------------------------------------------------------------
// Refs and paths

/** A ref the request named and the commit it resolved to (Gitea's utils.RefCommit). */
export interface RefCommit {
  /** As the caller wrote it (the default branch when none was given). */
  inputRef: string;
  kind: "branch" | "tag" | "commit";
  /** Branch or tag name, or the commit id. */
  name: string;
  commitId: string;
}

/** Gitea's ResolveRefCommit: a branch, else a tag, else a full commit id; 404 otherwise. */
export async function resolveRefCommit(env: Env, rc: RepoContext, ref: string | undefined): Promise<RefCommit> {
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const input = (ref ?? "").trim() || rc.repo.defaultBranch;
  const candidates: { kind: RefCommit["kind"]; rev: string }[] = [];
  if (tree.isSafeRefName(input)) {
    candidates.push({ kind: "branch", rev: `refs/heads/${input}^{commit}` }, { kind: "tag", rev: `refs/tags/${input}^{commit}` });
  }
  if (tree.isObjectId(input)) candidates.push({ kind: "commit", rev: `${input}^{commit}` });
  const found = await tree.resolveRevisions(gitDir, candidates.map((c) => c.rev));
  const i = found.findIndex(Boolean);
  if (i < 0) throw new NotFound(NOT_FOUND);
  return { inputRef: input, kind: candidates[i]!.kind, name: input, commitId: found[i]!.oid };
}

const MAX_PATH_BYTES = 4096;
const MAX_NAME_BYTES = 255;

/**
 * A path to change, checked strictly: relative, no empty, `.` or `..` component, no `.git`
 * component (any case), no NUL, bounded length. Gitea's ErrFilenameInvalid (422) otherwise.
 */
export function checkWritePath(path: string): string {
  const bad = () => new Invalid(`path contains a malformed path component [path: ${path}]`);
  if (!path || path.includes("\0") || Buffer.byteLength(path) > MAX_PATH_BYTES) throw bad();
  for (const part of path.split("/")) {
    if (part === "" || part === "." || part === ".." || part.toLowerCase() === ".git") throw bad();
    if (Buffer.byteLength(part) > MAX_NAME_BYTES) throw bad();
  }
  return path;
}

/**
 * A path to read: empty and `.` components dropped (Gitea cleans them), undefined for one that
 * cannot name anything in a tree (`..`, `.git`, NUL, overlong).
 */
export function cleanReadPath(path: string): string | undefined {
  if (path.includes("\0") || Buffer.byteLength(path) > MAX_PATH_BYTES) return undefined;
  const parts = path.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.some((p) => p === ".." || p.toLowerCase() === ".git")) return undefined;
  return parts.join("/");
}

// ---------------------------------------------------------------------------------------------
// Reading

/** One path as the contents API describes it, before URLs are attached (convert/content.ts). */
export interface EntryView {
  name: string;
  path: string;
  sha: string;
  kind: EntryKind;
  size: number;
  lastCommit?: LastCommit;
  /** Single-file reads only: base64 content, or null when the blob is over DEFAULT_MAX_BLOB_SIZE. */
  content?: string | null;
  target?: string;
  submoduleUrl?: string;
  lfs?: { oid: string; size: number };
}

export type ContentsResult = { ref: RefCommit; file: EntryView } | { ref: RefCommit; dir: EntryView[] };

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

async function entryView(
  env: Env,
  gitDir: string,
  commit: string,
  e: TreeEntry,
  opts: { content: boolean; lastCommit?: LastCommit },
): Promise<EntryView> {
  const kind = tree.entryKind(e);
  const view: EntryView = { name: e.name, path: e.path, sha: e.oid, kind, size: kind === "dir" || kind === "submodule" ? 0 : e.size };
  view.lastCommit = opts.lastCommit ?? (await tree.lastCommitFor(gitDir, commit, e.path));
  if (kind === "file" && opts.content) {
    if (e.size > env.settings.api.defaultMaxBlobSize) view.content = null;
    else {
      const bytes = await tree.readBlob(gitDir, e.oid);
      view.content = bytes.toString("base64");
      view.lfs = parseLfsPointer(bytes);
    }
  } else if (kind === "symlink") {
    view.target = (await tree.readBlob(gitDir, e.oid, 1024)).toString("utf8");
  } else if (kind === "submodule") {
    view.submoduleUrl = await tree.submoduleUrl(gitDir, commit, e.path);
  }
  return view;
}

/** GET contents: a file with its content, or a directory's entries in git's order. */
export async function getContents(env: Env, rc: RepoContext, rawPath: string, ref: string | undefined): Promise<ContentsResult> {
  requireCodeReader(rc);
  const refCommit = await resolveRefCommit(env, rc, ref);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const path = cleanReadPath(rawPath);
  const entry = path === undefined ? undefined : await tree.readEntry(gitDir, refCommit.commitId, path);
  if (!entry) throw new NotFound("GetContentsOrList");
  if (entry.type !== "tree") {
    return { ref: refCommit, file: await entryView(env, gitDir, refCommit.commitId, entry, { content: true }) };
  }
  const children = await tree.listTree(gitDir, entry.oid, entry.path);
  const dir = await mapLimit(children, 8, (e) => entryView(env, gitDir, refCommit.commitId, e, { content: false }));
  return { ref: refCommit, dir };
}

// ---------------------------------------------------------------------------------------------
// Changing files

export type FileOperation = "create" | "update" | "upload" | "rename" | "delete";

export interface FileChange {
  operation: FileOperation;
  path: string;
  fromPath?: string;
  /** Base64 as the API takes it; absent for deletions (and a rename keeping the old content). */
  contentBase64?: string;
  sha?: string;
}

export interface Identity {
  name?: string;
  email?: string;
}

export interface ChangeFilesInput {
  files: FileChange[];
  message?: string;
  branch?: string;
  newBranch?: string;
  forcePush?: boolean;
  author?: Identity;
  committer?: Identity;
  /** RFC 3339; now when absent. */
  dates?: { author?: string | null; committer?: string | null };
  signoff?: boolean;
}

export interface ChangeFilesResult {
  ref: RefCommit;
  commit: CommitInfo;
  /** In request order; null for deletions. At most `[api] DEFAULT_PAGING_NUM`, as Gitea caps it. */
  files: (EntryView | null)[];
}

/** Gitea's changeFilesCommitMessage: "Add a, b\nUpdate c\nDelete d", trimmed of newlines. */
export function defaultCommitMessage(files: Pick<FileChange, "operation" | "path">[]): string {
  const of = (ops: FileOperation[]) => files.filter((f) => ops.includes(f.operation)).map((f) => f.path);
  const [created, updated, deleted] = [of(["create"]), of(["update", "upload", "rename"]), of(["delete"])];
  let message = "";
  if (created.length) message += `Add ${created.join(", ")}\n`;
  if (updated.length) message += `Update ${updated.join(", ")}\n`;
  if (deleted.length) message += `Delete ${deleted.join(", ")}`;
  return message.replace(/^\n+|\n+$/g, "");
}

interface SigIdentity {
  name: string;
  email: string;
}

/** Gitea's GetAuthorAndCommitterUsers: one given is used for both; neither means the doer. */
function identities(env: Env, doer: UserRow, author?: Identity, committer?: Identity): { author: SigIdentity; committer: SigIdentity } {
  const doerSig: SigIdentity = gitIdentityOf(env, doer);
  const resolve = (i?: Identity): SigIdentity | undefined => {
    if (!i?.email) return undefined;
    if (doer.email && i.email.toLowerCase() === doer.email.toLowerCase()) return { name: usableGitName(i.name ?? "") ?? doerSig.name, email: doerSig.email };
    // git refuses an empty name (or one it strips to nothing, as `..`): fall back to the
    // mailbox's local part, then to the doer's name.
    const name = usableGitName(i.name ?? "") ?? usableGitName(i.email.split("@")[0] ?? "") ?? doerSig.name;
    return { name, email: i.email };
  };
  const c = resolve(committer);
  const a = resolve(author) ?? c ?? doerSig;
  return { author: a, committer: c ?? a };
}

interface PlannedChange extends FileChange {
  content?: Uint8Array;
  fromPath: string;
  executable: boolean;
  from?: TreeEntry;
}

const WRITES: FileOperation[] = ["create", "update", "upload", "rename"];
const READS_FROM: FileOperation[] = ["update", "upload", "delete", "rename"];

function prefixes(path: string): string[] {
  const parts = path.split("/");
  return parts.map((_, i) => parts.slice(0, i + 1).join("/"));
}

/** Gitea's handleCheckErrors, against the branch head before the change. */
function checkChange(f: PlannedChange, entries: Map<string, TreeEntry>): void {
  if (READS_FROM.includes(f.operation)) {
    const from = entries.get(f.fromPath);
    if (!from && f.operation !== "upload") throw new NotFound(`object does not exist [id: , rel_path: ${f.fromPath}]`);
    if (from && from.type === "tree") throw new Invalid(`path is invalid [path: ${f.fromPath}]`);
    f.from = from;
    f.executable = from ? tree.isExecutable(from) : false;
    if (f.sha && f.sha !== (from?.oid ?? "")) {
      throw new Invalid(`sha does not match [given: ${f.sha}, expected: ${from?.oid ?? ""}]`);
    }
  }
  if (!WRITES.includes(f.operation)) return;
  const parts = prefixes(f.path);
  for (let i = 0; i < parts.length; i++) {
    const sub = parts[i]!;
    const e = entries.get(sub);
    if (!e) break;
    if (i < parts.length - 1) {
      if (e.type !== "tree") throw new Invalid(`a file exists where you’re trying to create a subdirectory [path: ${sub}]`);
    } else if (tree.entryKind(e) === "symlink") {
      throw new Invalid(`a symbolic link exists where you’re trying to create a subdirectory [path: ${sub}]`);
    } else if (e.type === "tree") {
      throw new Invalid(`a directory exists where you’re trying to create a file [path: ${sub}]`);
    } else if (f.fromPath !== f.path || f.operation === "create") {
      throw new Invalid(`repository file already exists [path: ${f.path}]`);
    }
  }
}

/** Conflicts among the request's own targets, which the index would refuse. */
function checkTargets(changes: PlannedChange[]): void {
  const targets = new Map<string, PlannedChange>();
  for (const f of changes) {
    if (!WRITES.includes(f.operation)) continue;
    if (targets.has(f.path) && f.operation === "create") throw new Invalid(`repository file already exists [path: ${f.path}]`);
    targets.set(f.path, f);
  }
  for (const path of targets.keys()) {
    for (const dir of prefixes(path).slice(0, -1)) {
      if (targets.has(dir)) throw new Invalid(`a file exists where you’re trying to create a subdirectory [path: ${dir}]`);
    }
  }
}

/**
 * Gitea's ChangeRepoFiles: checks every change against the branch head, writes them as one commit
 * on `newBranch` (default: the base branch) and records the branch. A concurrent push makes the
 * compare-and-swap fail; the whole change is then re-checked and retried, and reported as a
 * conflict only if the branch keeps moving.
 */
export async function changeFiles(env: Env, rc: Writes<"code">, doer: Doer, input: ChangeFilesInput): Promise<ChangeFilesResult> {
  const prepared = await prepareInput(input);
  for (let attempt = 1; ; attempt++) {
    try {
      return await changeFilesOnce(env, rc, doer, prepared);
    } catch (err) {
      if (!(err instanceof RefMovedError)) throw err;
      // Each round lets at least one concurrent writer through; give the others a few more.
      if (attempt >= 8) throw new Conflict("the branch was updated while the change was being made, please retry");
      await Bun.sleep(Math.floor(Math.random() * 20 * attempt));
    }
  }
}

/**
 * Go's base64.StdEncoding.DecodeString: padding required, line breaks ignored, anything else an
 * error naming the offending byte (Gitea answers 422 with it).
 */
export function decodeBase64(s: string): Uint8Array {
  const clean = s.replace(/[\r\n]/g, "");
  const bad = clean.search(/[^A-Za-z0-9+/=]/);
  const pad = clean.indexOf("=");
  let at = bad;
  if (at < 0 && pad >= 0 && !/^={1,2}$/.test(clean.slice(pad))) at = pad;
  if (at < 0 && clean.length % 4 !== 0) at = clean.length - (clean.length % 4);
  if (at >= 0) throw new Invalid(`illegal base64 data at input byte ${at}`);
  return Buffer.from(clean, "base64");
}

const GO_TIME_LAYOUT = "2006-01-02T15:04:05Z07:00";

interface PreparedInput extends Omit<ChangeFilesInput, "files" | "dates"> {
  files: (FileChange & { content?: Uint8Array })[];
  dates: { author?: number; committer?: number };
}

/** Gitea's binding checks (branch names, dates) and the base64 decoding, before anything is read. */
async function prepareInput(input: ChangeFilesInput): Promise<PreparedInput> {
  for (const [value, field] of [
    [input.branch, "BranchName"],
    [input.newBranch, "NewBranchName"],
  ] as const) {
    if (!value) continue;
    if (value.length > 100) throw new Invalid(`[${field}]: MaxSize`);
    if (!(await isValidBranchName(value))) throw new Invalid(`[${field}]: GitRefName`);
  }
  const date = (value: string | null | undefined): number | undefined => {
    if (!value) return undefined;
    const unix = parseDateTime(value);
    if (unix === undefined) throw new Invalid(`[]: parsing time "${value}" as "${GO_TIME_LAYOUT}": cannot parse "${value}"`);
    return unix;
  };
  const dates = { author: date(input.dates?.author), committer: date(input.dates?.committer) };
  const files = input.files.map((f) => ({
    ...f,
    content: f.contentBase64 === undefined ? undefined : decodeBase64(f.contentBase64),
  }));
  return { ...input, files, dates };
}

async function changeFilesOnce(env: Env, rc: RepoContext, doer: UserRow, input: PreparedInput): Promise<ChangeFilesResult> {
  const repo = repos.getRepoById(env.db, rc.repo.id) ?? rc.repo;
  const gitDir = gitDirOf(env, rc.owner, repo);
  const zero = repo.objectFormat === "sha256" ? "0".repeat(64) : tree.ZERO_OID;
  const oldBranch = input.branch || repo.defaultBranch;
  const newBranch = input.newBranch || oldBranch;
  const [oldHead, newHead] = await tree.resolveRevisions(gitDir, [
    `refs/heads/${oldBranch}^{commit}`,
    `refs/heads/${newBranch}^{commit}`,
  ]);
  if (!oldHead && !repo.isEmpty) throw new NotFound(`branch does not exist [repo_id: ${repo.id} name: ${oldBranch}]`);

  const changes: PlannedChange[] = input.files.map((f) => {
    const path = checkWritePath(f.path);
    const fromPath = f.fromPath ? checkWritePath(f.fromPath) : path;
    return { ...f, path, fromPath, executable: false };
  });
  if (newBranch !== oldBranch && newHead && !input.forcePush) throw new Invalid(`branch already exists [name: ${newBranch}]`);

  const parent = oldHead?.oid;
  const wanted = new Set<string>();
  for (const f of changes) {
    if (READS_FROM.includes(f.operation) || f.fromPath !== f.path) wanted.add(f.fromPath);
    if (WRITES.includes(f.operation)) for (const p of prefixes(f.path)) wanted.add(p);
  }
  const entries = parent ? await tree.readEntries(gitDir, parent, [...wanted]) : new Map<string, TreeEntry>();
  for (const f of changes) checkChange(f, entries);
  checkTargets(changes);

  const writes: FileWrite[] = [];
  const deletes: string[] = [];
  for (const f of changes) {
    if (f.operation === "delete") {
      deletes.push(f.path);
      continue;
    }
    // A move: the old path goes (a create with from_path moves too, when the old path exists).
    const source = f.from ?? (f.fromPath !== f.path ? entries.get(f.fromPath) : undefined);
    if (source && source.type !== "tree" && f.fromPath !== f.path) deletes.push(f.fromPath);
    let content: Uint8Array = f.content ?? new Uint8Array();
    if (f.operation === "rename" && !f.content?.byteLength && f.from) content = await tree.readBlob(gitDir, f.from.oid);
    writes.push({ path: f.path, content, executable: f.executable });
  }

  const now = nowUnix();
  const who = identities(env, doer, input.author, input.committer);
  const author = { ...who.author, unix: input.dates?.author ?? now };
  const committer = { ...who.committer, unix: input.dates?.committer ?? now };
  const trimmed = (input.message ?? "").trim() || defaultCommitMessage(input.files);
  const message = `${trimmed}\n${input.signoff ? `\nSigned-off-by: ${committer.name} <${committer.email}>\n` : ""}`;
  // The commit passes the branch protection a push of it would meet (Gitea pushes it through its hooks).
  const beforeMove = async (commit: string) => {
    const update = { old: (newBranch === oldBranch ? parent : newHead?.oid) ?? zero, new: commit, ref: `refs/heads/${newBranch}` };
    const refusal = await checkProtectedRefs(env, { repo, owner: rc.owner, pusher: doer }, [update]);
    if (refusal) throw new Forbidden(refusal);
  };
  const spec = { branch: newBranch, parent, writes, deletes, message, author, committer, beforeMove };

  const ref = `refs/heads/${newBranch}`;
  let commit: string;
  if (newBranch !== oldBranch && parent) {
    // commitFiles moves a branch from its parent: start the new branch at the parent first.
    if (!(await tree.compareAndSwapRef(gitDir, ref, parent, newHead?.oid ?? zero))) throw new RefMovedError(ref);
    try {
      commit = await commitFiles(gitDir, spec);
    } catch (err) {
      await tree.compareAndSwapRef(gitDir, ref, newHead?.oid, parent);
      throw err;
    }
  } else {
    commit = await commitFiles(gitDir, spec);
  }

  const info = await tree.readCommit(gitDir, commit);
  if (!info) throw new Error(`commit ${commit} not readable after it was made`);
  // What a git push of the commit would do next (Gitea's ChangeRepoFiles pushes through its hooks): the
  // branch table, pull requests on the branch, webhooks and closing keywords, releases, push mirrors.
  const before = (newBranch === oldBranch ? parent : newHead?.oid) ?? zero;
  await processPush(env, repo.id, doer.id, [{ old: before, new: commit, ref: `refs/heads/${newBranch}` }]);

  const refCommit: RefCommit = { inputRef: newBranch, kind: "branch", name: newBranch, commitId: commit };
  const listed = changes.slice(0, env.settings.api.defaultPagingNum);
  const after = await tree.readEntries(gitDir, commit, listed.filter((f) => f.operation !== "delete").map((f) => f.path));
  const files = await mapLimit(listed, 8, async (f) => {
    const e = f.operation === "delete" ? undefined : after.get(f.path);
    return e ? entryView(env, gitDir, commit, e, { content: true }) : null;
  });
  return { ref: refCommit, commit: info, files };
}

// ---------------------------------------------------------------------------------------------
// Raw

export interface RawFile {
  path: string;
  name: string;
  kind: "file" | "symlink";
  oid: string;
  size: number;
  /** Committer time of the last commit touching the path (Unix seconds). */
  lastModified: number | undefined;
  /** Public repository of a public owner: responses may be cached publicly. */
  cachePublic: boolean;
  open(): Promise<ReadableStream<Uint8Array>>;
}

/**
 * Gitea's getRefNameLegacy over `ref/path`: the shortest leading run of segments that is a
 * branch, else a tag, else a full commit id as the first segment; otherwise the whole string is a
 * path on the default branch.
 */
async function resolveLegacy(rc: RepoContext, gitDir: string, joined: string[]): Promise<{ commit: string; path: string }> {
  const candidates: { kind: "branch" | "tag" | "commit"; at: number; rev: string }[] = [];
  for (const kind of ["branch", "tag"] as const) {
    for (let i = 1; i <= joined.length; i++) {
      const name = joined.slice(0, i).join("/");
      if (tree.isSafeRefName(name)) candidates.push({ kind, at: i, rev: `refs/${kind === "branch" ? "heads" : "tags"}/${name}^{commit}` });
    }
  }
  const first = joined[0] ?? "";
  if (tree.isObjectId(first)) candidates.push({ kind: "commit", at: 1, rev: `${first}^{commit}` });
  const defaultRev = tree.isSafeRefName(rc.repo.defaultBranch) ? `refs/heads/${rc.repo.defaultBranch}^{commit}` : "";
  const found = await tree.resolveRevisions(gitDir, [...candidates.map((c) => c.rev), defaultRev].filter(Boolean));
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i]!;
    const obj = found[i];
    if (obj) return { commit: obj.oid, path: joined.slice(c.at).join("/") };
    if (c.kind === "commit") throw new NotFound(NOT_FOUND); // a commit id that does not resolve
  }
  const fallback = defaultRev ? found[candidates.length] : undefined;
  if (!fallback) throw new NotFound(NOT_FOUND);
  return { commit: fallback.oid, path: joined.join("/") };
}

/** GET raw / media: the blob at `ref`/`path` (files and symlinks; 404 for the rest). */
export async function openRaw(env: Env, rc: RepoContext, rawPath: string, ref: string | undefined): Promise<RawFile> {
  requireCodeReader(rc);
  if (rc.repo.isEmpty) throw new NotFound(NOT_FOUND);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const joined = cleanReadPath(`${(ref ?? "").trim()}/${rawPath}`);
  if (joined === undefined || joined === "") throw new NotFound(NOT_FOUND);
  const { commit, path } = await resolveLegacy(rc, gitDir, joined.split("/"));
  const entry = path ? await tree.readEntry(gitDir, commit, path) : undefined;
  if (!entry) throw new NotFound(NOT_FOUND);
  const kind = tree.entryKind(entry);
  if (kind !== "file" && kind !== "symlink") throw new NotFound("getBlobForEntry");
  const last = await tree.lastCommitFor(gitDir, commit, path);
  return {
    path,
    name: entry.name,
    kind,
    oid: entry.oid,
    size: entry.size,
    lastModified: last ? Math.floor(Date.parse(last.committerDate) / 1000) : undefined,
    cachePublic: !rc.repo.isPrivate && rc.owner.visibility === Visibility.Public,
    open: () => tree.streamBlob(gitDir, entry.oid),
  };
}
