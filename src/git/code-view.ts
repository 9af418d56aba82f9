/**
 * What the repository's code pages read: trees and entries at a commit through the repository's
 * long-lived `cat-file` (one pipe round trip each, no process per object), the names of its tags,
 * and the last commit of every entry of a directory found in one walk of history instead of one
 * `git log` per entry (WEB-NOTES: per-entry work is what makes big repository homes slow).
 */
import { catFile, isSafeObjectName, type ObjectInfo } from "./catfile.ts";
import { gitArgs, gitEnv, runGit } from "./exec.ts";

export type TreeItemType = "blob" | "tree" | "commit";

/** One entry of a tree object, as stored: no size (a blob's size is asked when needed). */
export interface TreeItem {
  name: string;
  /** `100644`, `100755`, `120000`, `40000` (trees are written without the leading 0), `160000`. */
  mode: string;
  type: TreeItemType;
  oid: string;
}

const HEX = "0123456789abcdef";

function hex(buf: Buffer, from: number, to: number): string {
  let out = "";
  for (let i = from; i < to; i++) out += HEX[buf[i]! >> 4]! + HEX[buf[i]! & 15]!;
  return out;
}

/**
 * A raw tree object's entries (`<mode> <name>\0<binary id>` each), in stored order. `idBytes` is
 * 20 for SHA-1 repositories, 32 for SHA-256 ones.
 */
export function parseTreeObject(buf: Buffer, idBytes: number): TreeItem[] {
  const items: TreeItem[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const sp = buf.indexOf(0x20, pos);
    const nul = sp < 0 ? -1 : buf.indexOf(0, sp);
    if (sp < 0 || nul < 0 || nul + 1 + idBytes > buf.length) break;
    const mode = buf.toString("latin1", pos, sp);
    const name = buf.toString("utf8", sp + 1, nul);
    const oid = hex(buf, nul + 1, nul + 1 + idBytes);
    pos = nul + 1 + idBytes;
    const type: TreeItemType = mode === "40000" || mode === "040000" ? "tree" : mode === "160000" ? "commit" : "blob";
    items.push({ name, mode, type, oid });
  }
  return items;
}

const idBytesOf = (oid: string) => oid.length / 2;

/** The tree `name` names (`<commit>^{tree}`, `<commit>:<dir>`, a tree id), or undefined when it is not one. */
export async function readTreeItems(gitDir: string, name: string): Promise<{ oid: string; items: TreeItem[] } | undefined> {
  if (!isSafeObjectName(name)) return undefined;
  const obj = await catFile(gitDir).read(name);
  if (!obj || obj.type !== "tree") return undefined;
  return { oid: obj.oid, items: parseTreeObject(obj.content, idBytesOf(obj.oid)) };
}

/** Type and size of an object (`<oid>`, `<rev>^{commit}`, `<commit>:<path>`), undefined when missing. */
export function objectInfoOf(gitDir: string, name: string): Promise<ObjectInfo | undefined> {
  if (!isSafeObjectName(name)) return Promise.resolve(undefined);
  return catFile(gitDir).info(name);
}

/** A whole object's bytes with its type (callers bound the size first, from `objectInfoOf`). */
export async function readObjectBytes(gitDir: string, name: string): Promise<{ oid: string; type: string; content: Buffer } | undefined> {
  if (!isSafeObjectName(name)) return undefined;
  return catFile(gitDir).read(name);
}

/** Names of every tag (`refs/tags/` stripped), as for-each-ref lists them: reads refs only, no objects. */
export async function listTagNames(gitDir: string): Promise<string[]> {
  const r = await runGit(["for-each-ref", "--format=%(refname)", "refs/tags/"], { gitDir });
  if (r.code !== 0) return [];
  const out: string[] = [];
  for (const line of r.stdout.toString("utf8").split("\n")) if (line.startsWith("refs/tags/")) out.push(line.slice("refs/tags/".length));
  return out;
}

/** Names of every branch (`refs/heads/` stripped), for a repository whose branch table is not filled yet. */
export async function listBranchNames(gitDir: string): Promise<string[]> {
  const r = await runGit(["for-each-ref", "--format=%(refname)", "refs/heads/"], { gitDir });
  if (r.code !== 0) return [];
  const out: string[] = [];
  for (const line of r.stdout.toString("utf8").split("\n")) if (line.startsWith("refs/heads/")) out.push(line.slice("refs/heads/".length));
  return out;
}

/** A commit as the history walk reports it: enough for a file list's row. */
export interface WalkedCommit {
  oid: string;
  /** Committer time, Unix seconds. */
  unix: number;
  subject: string;
}

const RECORD = 0x1e;
const COMMIT_TOKEN = /^\x1e([0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * One `git log --name-only` from `commit` (without the history of `not`) limited to `pathspecs`
 * (none: the whole tree), handing every changed path to `onPath` with the commit that changed
 * it, newest first, until `onPath` says it has all it needs, `maxCommits` commits went by, or `deadline` (ms since the epoch)
 * passed. The process is killed as soon as the walk stops, so an early answer costs only the
 * history it read. Merges list no paths (their changes are the commits they merge). Returns
 * whether the walk reached the end of history.
 */
export async function walkChangedPaths(
  gitDir: string,
  commit: string,
  pathspecs: string[],
  onPath: (path: string, c: WalkedCommit) => boolean,
  opts: { deadline: number; maxCommits?: number; not?: string[] },
): Promise<boolean> {
  const ids = [commit, ...(opts.not ?? [])];
  if (!ids.every((id) => /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(id))) throw new Error("not an object id");
  const exclude = (opts.not ?? []).map((id) => `^${id}`);
  const args = ["log", "--name-only", "-z", "--no-renames", "--no-color", "--format=%x1e%H%x00%ct%x00%s", commit, ...exclude, "--", ...pathspecs];
  const proc = Bun.spawn(gitArgs({ gitDir }, args), { env: gitEnv(), stdin: "ignore", stdout: "pipe", stderr: "ignore" });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const wait = opts.deadline - Date.now();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void reader.cancel().catch(() => {});
  }, Math.max(0, wait));

  // Tokens are NUL-separated: `\x1e<id>`, `<time>`, `<subject>`, then the paths (the first after a
  // newline), until the next `\x1e<id>`.
  let field = 0; // 0: expecting a commit token, 1: time, 2: subject, 3: paths
  let current: WalkedCommit = { oid: "", unix: 0, subject: "" };
  let commits = 0;
  let done = false;
  let rest: Buffer = Buffer.alloc(0);
  const onToken = (buf: Buffer, from: number, to: number): void => {
    if (buf[from] === RECORD) {
      const token = buf.toString("latin1", from, to);
      const m = COMMIT_TOKEN.exec(token);
      if (m) {
        if (opts.maxCommits !== undefined && commits >= opts.maxCommits) {
          done = true;
          return;
        }
        commits++;
        current = { oid: m[1]!, unix: 0, subject: "" };
        field = 1;
        return;
      }
    }
    if (field === 1) {
      current.unix = Number(buf.toString("latin1", from, to)) || 0;
      field = 2;
    } else if (field === 2) {
      current.subject = buf.toString("utf8", from, to);
      field = 3;
    } else if (field === 3) {
      if (buf[from] === 0x0a) from++;
      if (to > from && onPath(buf.toString("utf8", from, to), current)) done = true;
    }
  };

  let complete = false;
  try {
    while (!done) {
      const r = await reader.read();
      if (r.done) {
        if (rest.length) onToken(rest, 0, rest.length);
        complete = !timedOut;
        break;
      }
      const chunk = rest.length ? Buffer.concat([rest, r.value]) : Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength);
      let start = 0;
      for (let nul = chunk.indexOf(0, start); nul >= 0 && !done; nul = chunk.indexOf(0, start)) {
        onToken(chunk, start, nul);
        start = nul + 1;
      }
      rest = done ? Buffer.alloc(0) : Buffer.from(chunk.subarray(start));
      if (Date.now() >= opts.deadline) break;
    }
  } catch {
    // Cancelled by the deadline: what was found stands.
  } finally {
    clearTimeout(timer);
    if (!complete) proc.kill();
    void reader.cancel().catch(() => {});
    await proc.exited;
  }
  return complete;
}
