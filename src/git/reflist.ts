import { runGit } from "./exec.ts";

/**
 * Reading refs and commits with the git CLI, one process per call however many objects: the
 * branch and tag listings of the API. Every user value reaches git on stdin (cat-file's batch
 * protocol) or after a fixed `refs/` prefix, never where git could read it as an option.
 */

/** A git signature line (`Name <email> 1700000000 +0200`), the offset kept as written. */
export interface GitSignature {
  name: string;
  email: string;
  unix: number;
  /** `+0200`, `-0530`, `+0000`. */
  tz: string;
}

export interface CommitInfo {
  id: string;
  tree: string;
  parents: string[];
  author: GitSignature;
  committer: GitSignature;
  /** The full message as stored (trailing newline kept), as Gitea's CommitMessage. */
  message: string;
  /** Whether the commit carries a gpgsig/gpgsig-sha256 header. */
  signed: boolean;
}

export interface RefEntry {
  /** Full name: `refs/heads/main`. */
  name: string;
  /** The type of the object the ref points at: `commit`, or `tag` for an annotated tag. */
  type: string;
  sha: string;
}

export interface RawObject {
  sha: string;
  type: string;
  content: Buffer;
}

const ZERO_SIG: GitSignature = { name: "", email: "", unix: 0, tz: "+0000" };

export const isHexId = (s: string): boolean => /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(s);

/** Whether `rev` can be handed to git's batch protocol: one line, no control characters, bounded. */
export function isSafeRevision(rev: string): boolean {
  // eslint-disable-next-line no-control-regex
  return rev.length > 0 && rev.length <= 1024 && !/[\x00-\x1f\x7f]/.test(rev);
}

export function parseSignature(text: string): GitSignature | undefined {
  const m = /^(.*?) ?<([^>]*)> (\d+)(?: ([+-]\d{4}))?$/.exec(text.trim());
  if (!m) return undefined;
  return { name: m[1]!, email: m[2]!, unix: Number(m[3]), tz: m[4] ?? "+0000" };
}

/** Splits a raw commit or tag object into its headers (continuation lines joined) and message. */
export function splitObject(raw: string): { headers: [string, string][]; message: string } {
  const headers: [string, string][] = [];
  let pos = 0;
  while (pos < raw.length) {
    const eol = raw.indexOf("\n", pos);
    const line = eol < 0 ? raw.slice(pos) : raw.slice(pos, eol);
    pos = eol < 0 ? raw.length : eol + 1;
    if (line === "") break;
    if (line.startsWith(" ") && headers.length) {
      headers[headers.length - 1]![1] += "\n" + line.slice(1);
      continue;
    }
    const sp = line.indexOf(" ");
    headers.push(sp < 0 ? [line, ""] : [line.slice(0, sp), line.slice(sp + 1)]);
  }
  return { headers, message: raw.slice(pos) };
}

export function parseCommit(id: string, raw: string): CommitInfo {
  const { headers, message } = splitObject(raw);
  const get = (k: string) => headers.find(([h]) => h === k)?.[1];
  return {
    id,
    tree: get("tree") ?? "",
    parents: headers.filter(([h]) => h === "parent").map(([, v]) => v),
    author: parseSignature(get("author") ?? "") ?? ZERO_SIG,
    committer: parseSignature(get("committer") ?? "") ?? ZERO_SIG,
    message,
    signed: headers.some(([h]) => h === "gpgsig" || h === "gpgsig-sha256"),
  };
}

/**
 * `git cat-file --batch` over the given object names (revisions allowed): one process, the
 * names on stdin. A name that is missing, ambiguous or not a safe revision maps to undefined.
 */
export async function readObjects(gitDir: string, names: string[]): Promise<(RawObject | undefined)[]> {
  const safe = names.map(isSafeRevision);
  const asked = names.filter((_, i) => safe[i]);
  const out: (RawObject | undefined)[] = new Array(names.length).fill(undefined);
  if (asked.length === 0) return out;
  const r = await runGit(["cat-file", "--batch"], { gitDir, input: asked.map((n) => `${n}\n`).join("") });
  if (r.code !== 0) return out;
  const buf = r.stdout;
  let pos = 0;
  for (let i = 0; i < names.length; i++) {
    if (!safe[i]) continue;
    const eol = buf.indexOf(0x0a, pos);
    if (eol < 0) break;
    const header = buf.subarray(pos, eol).toString("utf8");
    pos = eol + 1;
    const m = /^([0-9a-f]{40,64}) (\S+) (\d+)$/.exec(header);
    if (!m) continue; // "<name> missing" / "<name> ambiguous"
    const size = Number(m[3]);
    out[i] = { sha: m[1]!, type: m[2]!, content: Buffer.from(buf.subarray(pos, pos + size)) };
    pos += size + 1;
  }
  return out;
}

/** Commits by revision (sha, `refs/heads/x`, tag...), each peeled to its commit; undefined when none. */
export async function readCommits(gitDir: string, revs: string[]): Promise<(CommitInfo | undefined)[]> {
  const objs = await readObjects(
    gitDir,
    revs.map((r) => (isSafeRevision(r) ? `${r}^{commit}` : "")),
  );
  return objs.map((o) => (o && o.type === "commit" ? parseCommit(o.sha, o.content.toString("utf8")) : undefined));
}

export async function readCommit(gitDir: string, rev: string): Promise<CommitInfo | undefined> {
  return (await readCommits(gitDir, [rev]))[0];
}

/** The commit a revision names (a branch, tag, sha or any rev-parse expression), or undefined. */
export async function resolveCommit(gitDir: string, rev: string): Promise<string | undefined> {
  if (!isSafeRevision(rev)) return undefined;
  const r = await runGit(["cat-file", "--batch-check"], { gitDir, input: `${rev}^{commit}\n` });
  if (r.code !== 0) return undefined;
  const m = /^([0-9a-f]{40,64}) commit \d+$/m.exec(r.stdout.toString("utf8"));
  return m?.[1];
}

/**
 * Refs under the given prefixes (each starting with `refs/`; all refs when none), sorted by
 * name as for-each-ref lists them.
 */
export async function listRefs(gitDir: string, prefixes: string[] = []): Promise<RefEntry[]> {
  const patterns = prefixes.filter((p) => p.startsWith("refs/"));
  if (prefixes.length && !patterns.length) return [];
  const r = await runGit(["for-each-ref", "--format=%(objectname) %(objecttype) %(refname)", ...patterns], { gitDir });
  if (r.code !== 0) return [];
  const refs: RefEntry[] = [];
  for (const line of r.stdout.toString("utf8").split("\n")) {
    const m = /^([0-9a-f]{40,64}) (\S+) (.+)$/.exec(line);
    if (m) refs.push({ sha: m[1]!, type: m[2]!, name: m[3]! });
  }
  return refs;
}

/** Whether commit `ancestor` is reachable from `descendant` (both full ids). */
export async function isAncestor(gitDir: string, ancestor: string, descendant: string): Promise<boolean> {
  if (!isHexId(ancestor) || !isHexId(descendant)) return false;
  const r = await runGit(["merge-base", "--is-ancestor", ancestor, descendant], { gitDir });
  return r.code === 0;
}
