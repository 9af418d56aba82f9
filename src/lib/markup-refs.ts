/**
 * The other references a rendered text links besides issues (lib/issue-refs.ts): `@mentions`,
 * commit ids and `owner/repo@sha`, found where they stand as Gitea's renderer finds them
 * (modules/references and modules/markup's hash pattern). Nothing is checked here: the renderer
 * links only accounts, repositories and commits that exist and that its viewer may see.
 */
import { repoNameBefore } from "./issue-refs.ts";

/** A reference's place in the text (`end` exclusive) and what it names. */
export interface MentionSpan {
  start: number;
  end: number;
  /** The name after `@`, as written. */
  name: string;
}

export interface CommitSpan {
  start: number;
  end: number;
  /** 7 to 64 lowercase hex digits, as written. */
  sha: string;
}

export interface CommitCrossSpan extends CommitSpan {
  owner: string;
  repo: string;
}

// `@name` after a space, a bracket or the start, before a space, a bracket, a quote or punctuation
// that ends the sentence; `@org/team` (team mentions) is not a user mention.
const MENTION = /(?<=^|[\s(\[])@([-\w][-.\w]*?)(?=$|\s|[:,;.?!](?:\s|$)|'|\)|\])/g;
// Gitea's hashCurrentPattern: a bare hex word of 7 to 64 digits.
const COMMIT = /(?<=^|[\s(\[])([0-9a-f]{7,64})(?=$|[\s)\]]|[.,:](?:\s|$))/g;
// `owner/repo@sha`, matched from the `@` backwards like issue references (lib/issue-refs.ts).
const COMMIT_TAIL = /@([0-9a-f]{7,64})(?=$|[\s)\]]|[:;,.?!](?:\s|$))/g;


export function scanMentions(text: string): MentionSpan[] {
  if (!text.includes("@")) return [];
  return [...text.matchAll(MENTION)].map((m) => ({ start: m.index!, end: m.index! + m[0].length, name: m[1]! }));
}

export function scanCommitIds(text: string): CommitSpan[] {
  return [...text.matchAll(COMMIT)].map((m) => ({ start: m.index!, end: m.index! + m[0].length, sha: m[1]! }));
}

export function scanCommitCrossRefs(text: string): CommitCrossSpan[] {
  if (!text.includes("@")) return [];
  const out: CommitCrossSpan[] = [];
  for (const m of text.matchAll(COMMIT_TAIL)) {
    const at = m.index!;
    const names = repoNameBefore(text, at);
    if (!names || (names.start > 0 && !/[\s(\[]/.test(text[names.start - 1]!))) continue;
    out.push({ start: names.start, end: at + m[0].length, owner: names.owner, repo: names.repo, sha: m[1]! });
  }
  return out;
}

/** Gitea's short form of a commit id in links: its first ten digits. */
export const shortSha = (sha: string): string => sha.slice(0, 10);

/**
 * Spans of several kinds merged into one ordered list without overlaps: where two overlap, the
 * one of the earlier list wins (Gitea runs its processors in a fixed order over the same text).
 */
export function mergeSpans<T extends { start: number; end: number }>(...lists: T[][]): T[] {
  const taken: T[] = [];
  for (const list of lists) {
    for (const span of list) {
      if (!taken.some((t) => span.start < t.end && t.start < span.end)) taken.push(span);
    }
  }
  return taken.sort((a, b) => a.start - b.start);
}
