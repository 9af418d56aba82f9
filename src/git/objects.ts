import { git, runGit } from "./exec.ts";
import { catFile, isSafeObjectName, type GitObject, type ObjectInfo, type ObjectType } from "./catfile.ts";

/**
 * Reading objects: revisions resolved, commits parsed (signature and signed payload kept, for
 * verification), trees listed, blobs and notes read. Revisions travel to git on cat-file's stdin
 * (never as an argument git could read as an option); object ids given as arguments are checked
 * hex first.
 */

export interface Signature {
  name: string;
  email: string;
  unix: number;
  /** The offset as written in the object: `+0200`, `-0530`, `+0000`. */
  tz: string;
}

export interface Commit {
  oid: string;
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  /** The full message, trailing newline kept (Gitea's CommitMessage). */
  message: string;
  /** The armored signature of a gpgsig/gpgsig-sha256 header, if signed. */
  signature?: string;
  /** The object without its signature header: what the signature signs. */
  payload: string;
}

export interface TreeEntry {
  /** `100644`, `100755`, `120000`, `040000`, `160000`. */
  mode: string;
  type: ObjectType;
  oid: string;
  /** Blob size; 0 for trees and submodules. */
  size: number;
  /** The entry name, or its path below the listed tree when recursive. */
  path: string;
}

export const EMPTY_TREE_SHA1 = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

export const isObjectId = (s: string): boolean => /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(s);

/** Gitea's IsValidRefPattern (modules/git/ref.go), the same expression. */
// eslint-disable-next-line no-control-regex
const INVALID_REF_PATTERN = /[\x00-\x1f\x7f \\~^:?*[]|^[/.]|\/\.|\.lock$|\.lock\/|\.\.|\/\/|@\{|[/.]$|^@$/;

export function isValidRefPattern(name: string): boolean {
  // Beyond PATH_MAX a name cannot be a loose ref, so no branch or tag can carry it.
  return name.length <= 4096 && !INVALID_REF_PATTERN.test(name);
}

/** Whether a user-given revision may be handed to git at all (one line, printable, bounded). */
export function isSafeRevision(rev: string): boolean {
  // eslint-disable-next-line no-control-regex
  return isSafeObjectName(rev) && rev.length <= 1024 && !/[\x00-\x1f\x7f]/.test(rev);
}

const ZERO_SIG: Signature = { name: "", email: "", unix: 0, tz: "+0000" };

/** `Name <email> 1700000000 +0200`, parsed as Gitea's newSignatureFromCommitline. */
export function parseSignature(text: string): Signature {
  const lt = text.indexOf("<");
  const gt = text.lastIndexOf(">");
  if (lt < 0 || gt < lt) return { ...ZERO_SIG, name: text.trim() };
  const [unix, tz] = text.slice(gt + 1).trim().split(/\s+/);
  const n = Number(unix);
  return {
    name: text.slice(0, lt).trim(),
    email: text.slice(lt + 1, gt),
    unix: Number.isFinite(n) ? n : 0,
    tz: tz && /^[+-]\d{4}$/.test(tz) ? tz : "+0000",
  };
}

/** A raw commit object, parsed. */
export function parseCommit(oid: string, raw: Buffer | string): Commit {
  const text = typeof raw === "string" ? raw : raw.toString("utf8");
  const c: Commit = { oid, tree: "", parents: [], author: ZERO_SIG, committer: ZERO_SIG, message: "", payload: "" };
  let pos = 0;
  let payload = "";
  let sig: string[] | undefined;
  let inSig = false;
  while (pos < text.length) {
    const eol = text.indexOf("\n", pos);
    const line = eol < 0 ? text.slice(pos) : text.slice(pos, eol);
    const full = eol < 0 ? line : text.slice(pos, eol + 1);
    pos = eol < 0 ? text.length : eol + 1;
    if (line === "") {
      c.message = text.slice(pos);
      payload += "\n" + c.message;
      break;
    }
    if (line.startsWith(" ")) {
      if (inSig) sig!.push(line.slice(1));
      else payload += full;
      continue;
    }
    inSig = false;
    const sp = line.indexOf(" ");
    const key = sp < 0 ? line : line.slice(0, sp);
    const value = sp < 0 ? "" : line.slice(sp + 1);
    switch (key) {
      case "tree":
        c.tree = value;
        break;
      case "parent":
        c.parents.push(value);
        break;
      case "author":
        c.author = parseSignature(value);
        break;
      case "committer":
        c.committer = parseSignature(value);
        break;
      case "gpgsig":
      case "gpgsig-sha256":
        sig = [value];
        inSig = true;
        continue;
    }
    payload += full;
  }
  if (sig) {
    c.signature = sig.join("\n") + "\n";
    c.payload = payload;
  }
  return c;
}

/**
 * The object a revision names (a sha or its prefix, a branch, a tag, any rev-parse expression),
 * peeled to `peel` when given; undefined when it does not resolve or cannot be peeled.
 */
export async function resolveRevision(gitDir: string, rev: string, peel?: "commit" | "tree"): Promise<string | undefined> {
  if (!isSafeRevision(rev)) return undefined;
  const info = await catFile(gitDir).info(peel ? `${rev}^{${peel}}` : rev);
  return info?.oid;
}

/** Type and size of an object named by `name` (an id, or `<rev>:<path>`). */
export async function objectInfo(gitDir: string, name: string): Promise<ObjectInfo | undefined> {
  if (!isSafeRevision(name)) return undefined;
  return catFile(gitDir).info(name);
}

export async function readObject(gitDir: string, name: string): Promise<GitObject | undefined> {
  if (!isSafeRevision(name)) return undefined;
  return catFile(gitDir).read(name);
}

/** One commit by id or revision; undefined when it does not name a commit. */
export async function readCommit(gitDir: string, rev: string): Promise<Commit | undefined> {
  const obj = await readObject(gitDir, `${rev}^{commit}`);
  return obj && obj.type === "commit" ? parseCommit(obj.oid, obj.content) : undefined;
}

/** Commits by id, in the order given; ids that are not commits are left out. */
export async function readCommits(gitDir: string, oids: string[]): Promise<Commit[]> {
  const cf = catFile(gitDir);
  const objs = await Promise.all(oids.map((oid) => (isObjectId(oid) ? cf.read(oid) : undefined)));
  return objs.filter((o): o is GitObject => o?.type === "commit").map((o) => parseCommit(o.oid, o.content));
}

/**
 * The entries of a tree (`git ls-tree -l`), recursive including the sub-trees themselves, in
 * git's order. `tree` must be an object id.
 */
export async function lsTree(gitDir: string, tree: string, recursive: boolean): Promise<TreeEntry[]> {
  if (!isObjectId(tree)) return [];
  const args = ["ls-tree", "-l", "-z", ...(recursive ? ["-r", "-t"] : []), tree];
  const r = await runGit(args, { gitDir });
  if (r.code !== 0) return [];
  const out: TreeEntry[] = [];
  const buf = r.stdout;
  let pos = 0;
  while (pos < buf.length) {
    let end = buf.indexOf(0, pos);
    if (end < 0) end = buf.length;
    const rec = buf.toString("utf8", pos, end);
    pos = end + 1;
    const tab = rec.indexOf("\t");
    const m = /^(\d{6}) (blob|tree|commit) ([0-9a-f]{40,64}) +(-|\d+)$/.exec(rec.slice(0, tab));
    if (tab < 0 || !m) continue;
    out.push({ mode: m[1]!, type: m[2] as ObjectType, oid: m[3]!, size: m[4] === "-" ? 0 : Number(m[4]), path: rec.slice(tab + 1) });
  }
  return out;
}

export const NOTES_REF = "refs/notes/commits";

/**
 * The note attached to object `oid` in refs/notes/commits, walking the notes tree's fan-out
 * (`ab/cdef…`) as Gitea's GetNote does: the note text, and the commit of the notes history that
 * last touched the note (not the annotated commit).
 */
export async function readNote(gitDir: string, oid: string): Promise<{ message: Buffer; commit: string } | undefined> {
  if (!isObjectId(oid)) return undefined;
  const cf = catFile(gitDir);
  const notes = await cf.info(`${NOTES_REF}^{commit}`);
  if (!notes) return undefined;
  let dir = "";
  let rest = oid;
  let found: string | undefined;
  while (rest.length > 2) {
    const entry = await cf.info(`${notes.oid}:${dir}${rest}`);
    if (entry?.type === "blob") {
      found = `${dir}${rest}`;
      break;
    }
    const sub = await cf.info(`${notes.oid}:${dir}${rest.slice(0, 2)}`);
    if (sub?.type !== "tree") return undefined;
    dir += `${rest.slice(0, 2)}/`;
    rest = rest.slice(2);
  }
  if (!found) return undefined;
  const blob = await cf.read(`${notes.oid}:${found}`);
  if (!blob) return undefined;
  const last = (await git(["log", "-1", "--format=%H", notes.oid, "--", found], { gitDir })).trim();
  return { message: blob.content, commit: isObjectId(last) ? last : notes.oid };
}
