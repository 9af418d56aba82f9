/**
 * Reads paths, trees, blobs and commits at a given commit, for the contents, raw and file-editing
 * APIs: `ls-tree`, `cat-file` and `log` with argument arrays, user paths only after `--` and as
 * literal pathspecs, user revisions only after validation. Blobs can be streamed, never buffered
 * whole unless the caller asks for a bounded read.
 */
import { gitArgs, gitEnv, GitError, runGit, type GitOptions } from "./exec.ts";

export type EntryType = "blob" | "tree" | "commit";
/** Gitea's content types: executables are files, gitlinks are submodules. */
export type EntryKind = "file" | "dir" | "symlink" | "submodule";

export interface TreeEntry {
  /** Octal mode as git prints it: 100644, 100755, 120000, 040000, 160000. */
  mode: string;
  type: EntryType;
  oid: string;
  /** Blob size in bytes; 0 for trees and submodules. */
  size: number;
  /** Path from the root of the tree, without a leading slash ("" for the root itself). */
  path: string;
  name: string;
}

export function entryKind(e: Pick<TreeEntry, "mode" | "type">): EntryKind {
  if (e.type === "tree") return "dir";
  if (e.type === "commit") return "submodule";
  if (e.mode === "120000") return "symlink";
  return "file";
}

export const isExecutable = (e: Pick<TreeEntry, "mode">) => e.mode === "100755";

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
export const isObjectId = (s: string) => OID.test(s);
export const ZERO_OID = "0000000000000000000000000000000000000000";

/**
 * Whether `name` is a ref name git would accept below `refs/heads/` or `refs/tags/` (the rules of
 * check-ref-format, in-process), so it can be used in a revision expression without any chance
 * of being read as an option, a path (`:`), a reflog (`@{`) or a search (`:/`).
 */
export function isSafeRefName(name: string): boolean {
  if (!name || name.length > 1024 || name === "@") return false;
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false;
  if (name.includes("..") || name.includes("@{") || name.includes("//")) return false;
  if (name.startsWith("/") || name.endsWith("/") || name.endsWith(".") || name.startsWith("-")) return false;
  return name.split("/").every((c) => c !== "" && !c.startsWith(".") && !c.endsWith(".lock"));
}

export interface ResolvedObject {
  oid: string;
  type: "commit" | "tree" | "blob" | "tag";
}

/**
 * Resolves revision expressions with one `cat-file --batch-check`: undefined for each that does
 * not name an object. Callers build the expressions only from validated names and object ids.
 */
export async function resolveRevisions(gitDir: string, revs: string[]): Promise<(ResolvedObject | undefined)[]> {
  if (revs.length === 0) return [];
  for (const r of revs) if (/[\r\n\x00]/.test(r)) throw new Error("revision with a line break");
  const r = await runGit(["cat-file", "--batch-check=%(objectname) %(objecttype)"], { gitDir, input: revs.join("\n") + "\n" });
  if (r.code !== 0) throw new GitError(["cat-file"], r.code, r.stderr);
  const lines = r.stdout.toString("utf8").split("\n");
  return revs.map((_, i) => {
    const m = /^([0-9a-f]{40,64}) (commit|tree|blob|tag)$/.exec(lines[i] ?? "");
    return m ? { oid: m[1]!, type: m[2] as ResolvedObject["type"] } : undefined;
  });
}

function parseLsTree(out: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const rec of out.toString("utf8").split("\0")) {
    if (!rec) continue;
    const m = /^(\d{6}) (blob|tree|commit) ([0-9a-f]{40,64}) +(-|\d+)\t([\s\S]*)$/.exec(rec);
    if (!m) continue;
    const path = m[5]!;
    entries.push({
      mode: m[1]!,
      type: m[2] as EntryType,
      oid: m[3]!,
      size: m[4] === "-" ? 0 : Number(m[4]),
      path,
      name: path.slice(path.lastIndexOf("/") + 1),
    });
  }
  return entries;
}

/**
 * The entries at `paths` in `commit`, and every tree on the way to them, in one `ls-tree`: a map
 * from path to entry (a path that does not exist is absent). `""` maps to the root tree.
 */
export async function readEntries(gitDir: string, commit: string, paths: string[]): Promise<Map<string, TreeEntry>> {
  const map = new Map<string, TreeEntry>();
  const wanted = paths.filter((p) => p !== "");
  if (paths.includes("")) {
    const info = await readCommit(gitDir, commit);
    if (info) map.set("", { mode: "040000", type: "tree", oid: info.tree, size: 0, path: "", name: "" });
  }
  if (wanted.length === 0) return map;
  const r = await runGit(["ls-tree", "-t", "-l", "-z", "--full-tree", commit, "--", ...wanted], { gitDir });
  if (r.code !== 0) throw new GitError(["ls-tree"], r.code, r.stderr);
  for (const e of parseLsTree(r.stdout)) map.set(e.path, e);
  return map;
}

/** One entry, or undefined when the path does not exist at `commit`. */
export async function readEntry(gitDir: string, commit: string, path: string): Promise<TreeEntry | undefined> {
  return (await readEntries(gitDir, commit, [path])).get(path);
}

/** The entries of a tree (by its id), in git's order; `prefix` is prepended to their paths. */
export async function listTree(gitDir: string, tree: string, prefix: string): Promise<TreeEntry[]> {
  const r = await runGit(["ls-tree", "-l", "-z", "--end-of-options", tree], { gitDir });
  if (r.code !== 0) throw new GitError(["ls-tree"], r.code, r.stderr);
  return parseLsTree(r.stdout).map((e) => ({ ...e, path: prefix ? `${prefix}/${e.name}` : e.name }));
}

/** At most `max` bytes of a blob (the whole blob when `max` is omitted). */
export async function readBlob(gitDir: string, oid: string, max?: number): Promise<Buffer> {
  if (!isObjectId(oid)) throw new Error("not an object id");
  if (max === undefined) {
    const r = await runGit(["cat-file", "blob", oid], { gitDir });
    if (r.code !== 0) throw new GitError(["cat-file"], r.code, r.stderr);
    return r.stdout;
  }
  const stream = await gitStream(["cat-file", "blob", oid], { gitDir });
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < max) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => {});
  return Buffer.concat(chunks).subarray(0, max);
}

/** A blob's bytes as a stream (git's pipe, read as the client reads). */
export function streamBlob(gitDir: string, oid: string): Promise<ReadableStream<Uint8Array>> {
  if (!isObjectId(oid)) throw new Error("not an object id");
  return gitStream(["cat-file", "blob", oid], { gitDir });
}

export interface LastCommit {
  oid: string;
  /** Strict ISO 8601 with the signature's offset (`%aI`, `%cI`). */
  authorDate: string;
  committerDate: string;
}

/** The last commit at or before `commit` that touched `path` (`git log -1 -- path`). */
export async function lastCommitFor(gitDir: string, commit: string, path: string): Promise<LastCommit | undefined> {
  const args = ["log", "-1", "--format=%H%x00%aI%x00%cI", commit];
  if (path) args.push("--", path);
  const r = await runGit(args, { gitDir });
  if (r.code !== 0) throw new GitError(["log"], r.code, r.stderr);
  const [oid, authorDate, committerDate] = r.stdout.toString("utf8").trim().split("\0");
  if (!oid || !authorDate || !committerDate) return undefined;
  return { oid, authorDate, committerDate };
}

export interface Signature {
  name: string;
  email: string;
  unix: number;
  /** `+0200` as recorded. */
  tz: string;
}

export interface CommitInfo {
  oid: string;
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  /** The full message as stored (usually ending with a newline). */
  message: string;
}

function parseSignature(value: string): Signature {
  const m = /^(.*?) ?<([^>]*)> (\d+) ([+-]\d{4})$/.exec(value);
  if (!m) return { name: value, email: "", unix: 0, tz: "+0000" };
  return { name: m[1]!, email: m[2]!, unix: Number(m[3]), tz: m[4]! };
}

/** A commit object parsed from `cat-file commit`; undefined when `oid` is not a commit. */
export async function readCommit(gitDir: string, oid: string): Promise<CommitInfo | undefined> {
  if (!isObjectId(oid)) return undefined;
  const r = await runGit(["cat-file", "commit", oid], { gitDir });
  if (r.code !== 0) return undefined;
  const text = r.stdout.toString("utf8");
  const split = text.indexOf("\n\n");
  const header = split < 0 ? text : text.slice(0, split);
  const message = split < 0 ? "" : text.slice(split + 2);
  const info: CommitInfo = {
    oid,
    tree: "",
    parents: [],
    author: parseSignature(""),
    committer: parseSignature(""),
    message,
  };
  for (const line of header.split("\n")) {
    if (line.startsWith(" ")) continue; // continuation of a multi-line header (gpgsig)
    const sp = line.indexOf(" ");
    const key = line.slice(0, sp);
    const value = line.slice(sp + 1);
    if (key === "tree") info.tree = value;
    else if (key === "parent") info.parents.push(value);
    else if (key === "author") info.author = parseSignature(value);
    else if (key === "committer") info.committer = parseSignature(value);
  }
  return info;
}

/** The URL `.gitmodules` at `commit` gives the submodule at `path`, if any. */
export async function submoduleUrl(gitDir: string, commit: string, path: string): Promise<string | undefined> {
  const modules = await readEntry(gitDir, commit, ".gitmodules");
  if (!modules || modules.type !== "blob") return undefined;
  const r = await runGit(["config", "-z", "--list", `--blob=${modules.oid}`], { gitDir });
  if (r.code !== 0) return undefined;
  const values = new Map<string, string>();
  for (const rec of r.stdout.toString("utf8").split("\0")) {
    const nl = rec.indexOf("\n");
    if (nl > 0) values.set(rec.slice(0, nl), rec.slice(nl + 1));
  }
  for (const [key, value] of values) {
    const m = /^submodule\.(.*)\.path$/s.exec(key);
    if (m && value === path) return values.get(`submodule.${m[1]}.url`);
  }
  return undefined;
}

/**
 * Moves `ref` to `value` only if it is still at `expected` (ZERO_OID: must not exist); deletes it
 * when `value` is undefined. Returns false when the ref was elsewhere.
 */
export async function compareAndSwapRef(gitDir: string, ref: string, value: string | undefined, expected: string): Promise<boolean> {
  const args = value === undefined ? ["update-ref", "-d", ref, expected] : ["update-ref", ref, value, expected];
  return (await runGit(args, { gitDir })).code === 0;
}

/**
 * Streams a git command's stdout. The first chunk is awaited before returning, so a command that
 * fails at once (a bad object, a missing ref) throws GitError instead of yielding an empty body;
 * a failure later errors the stream. Cancelling the stream kills the process. `cleanup` runs once
 * the process is done, whichever way.
 */
export async function gitStream(args: string[], opts: GitOptions, cleanup?: () => void): Promise<ReadableStream<Uint8Array>> {
  const proc = Bun.spawn(gitArgs(opts, args), {
    cwd: opts.cwd,
    env: gitEnv(opts.env),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const stderr = new Response(proc.stderr).text();
  let cleaned = false;
  const finish = () => {
    if (cleaned) return;
    cleaned = true;
    cleanup?.();
  };
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const failure = async (): Promise<GitError | undefined> => {
    const code = await proc.exited;
    finish();
    return code === 0 ? undefined : new GitError(args, code, await stderr);
  };
  let first: Awaited<ReturnType<typeof reader.read>>;
  try {
    first = await reader.read();
  } catch (err) {
    proc.kill();
    finish();
    throw err;
  }
  if (first.done) {
    const err = await failure();
    if (err) throw err;
    return new ReadableStream({ start: (c) => c.close() });
  }
  let pending: Uint8Array | undefined = first.value;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (pending) {
        controller.enqueue(pending);
        pending = undefined;
        return;
      }
      try {
        const { done, value } = await reader.read();
        if (!done) {
          controller.enqueue(value);
          return;
        }
        const err = await failure();
        if (err) controller.error(err);
        else controller.close();
      } catch (err) {
        proc.kill();
        finish();
        controller.error(err);
      }
    },
    cancel() {
      proc.kill();
      void proc.exited.then(finish);
    },
  });
}
