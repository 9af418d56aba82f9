/**
 * Issue references in free text (`#12`, `owner/repo#12`) and the keyword before each one that makes
 * it an action, as Gitea's modules/references finds them: `closes #12` closes issue 12 when the
 * pull request (or, later, the pushed commit) lands, `reopens #12` reopens it.
 */

/** Gitea's default `[repository.pull-request] CLOSE_KEYWORDS` and `REOPEN_KEYWORDS`. */
export const CLOSE_KEYWORDS = ["close", "closes", "closed", "fix", "fixes", "fixed", "resolve", "resolves", "resolved"] as const;
export const REOPEN_KEYWORDS = ["reopen", "reopens", "reopened"] as const;

export type RefAction = "none" | "closes" | "reopens";

export interface IssueRef {
  /** Set for `owner/repo#N`; absent for a reference to the same repository. */
  owner?: string;
  repo?: string;
  index: number;
  action: RefAction;
}

const keywordGroup = (words: readonly string[]) => words.join("|");
// The keyword must end right before the reference, separated by spaces and at most one colon.
const CLOSE_BEFORE = new RegExp(`(?:^|[\\s(\\[])(?:${keywordGroup(CLOSE_KEYWORDS)}):?\\s+$`, "i");
const REOPEN_BEFORE = new RegExp(`(?:^|[\\s(\\[])(?:${keywordGroup(REOPEN_KEYWORDS)}):?\\s+$`, "i");
// A reference starts a word and ends at a boundary Gitea accepts (space, punctuation, end of text).
const REFERENCE = /(^|[\s(\[])(?:([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+))?#(\d+)(?=$|[\s.,:;!?)\]'"])/g;

/** Every issue reference in `text`, in order, with the action its keyword asks for; the same target keeps its first action. */
export function findIssueRefs(text: string): IssueRef[] {
  const out: IssueRef[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(REFERENCE)) {
    const index = Number(m[4]);
    if (!Number.isSafeInteger(index) || index <= 0) continue;
    const start = m.index! + m[1]!.length;
    // Only the text of the same line counts, as in Gitea.
    const lineStart = text.lastIndexOf("\n", start - 1) + 1;
    const before = text.slice(lineStart, start);
    const action: RefAction = CLOSE_BEFORE.test(before) ? "closes" : REOPEN_BEFORE.test(before) ? "reopens" : "none";
    const key = `${m[2] ?? ""}/${m[3] ?? ""}#${index}`.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ...(m[2] ? { owner: m[2], repo: m[3] } : {}), index, action });
  }
  return out;
}

/** An issue reference where it stands in a text, for linking it when the text is rendered. */
export interface IssueRefSpan {
  /** Where `#12`, `!12` or `owner/repo#12` starts and ends in the text (`end` exclusive). */
  start: number;
  end: number;
  /** Set for `owner/repo#12`; absent for a reference to the rendering's own repository. */
  owner?: string;
  repo?: string;
  index: number;
  /** Written `!12`: Gitea's spelling for a pull request (`#12` names either). */
  pull: boolean;
}

// Gitea's modules/references patterns for rendering, matched from the `#`/`!` backwards (a
// pattern that starts with the repository's name is tried at every character of every text): a
// short reference may also follow a quote, and punctuation after any reference counts only when a
// space or the end follows it (`#1.5` is no reference).
const REF_TAIL = /([#!])(\d+)(?=$|[\s)\]'"]|[:;,.?!](?:\s|$))/g;
const SHORT_BOUNDARY = /[\s(\['"]/;
const CROSS_BOUNDARY = /[\s(\[]/;

/**
 * The issue references of a text with their places, in order, as Gitea's renderer finds them:
 * `owner/repo#12` always, `#12` and `!12` only when `short` (a comment or a wiki page knows its
 * repository; a file of it does not link them). Nothing is checked: the caller links only what
 * exists.
 */
export function scanIssueRefs(text: string, opts: { short: boolean }): IssueRefSpan[] {
  if (!text.includes("#") && !text.includes("!")) return [];
  const out: IssueRefSpan[] = [];
  for (const m of text.matchAll(REF_TAIL)) {
    const at = m.index!;
    const index = Number(m[2]);
    if (!Number.isSafeInteger(index) || index <= 0) continue;
    const end = at + m[0].length;
    const pull = m[1] === "!";
    // `owner/repo#12`: the names stand right before, after a space, a bracket or the start.
    const names = repoNameBefore(text, at);
    if (names) {
      const after = text[end];
      if ((names.start === 0 || CROSS_BOUNDARY.test(text[names.start - 1]!)) && after !== "'" && after !== '"') {
        out.push({ start: names.start, end, owner: names.owner, repo: names.repo, index, pull });
      }
      continue;
    }
    if (opts.short && (at === 0 || SHORT_BOUNDARY.test(text[at - 1]!))) out.push({ start: at, end, index, pull });
  }
  return out;
}

const isNameChar = (c: string | undefined) => c !== undefined && /[0-9A-Za-z_.-]/.test(c);

/** `owner/repo` ending right before `at` (both parts of Gitea's `[0-9a-zA-Z-_.]+`), read backwards. */
export function repoNameBefore(text: string, at: number): { start: number; owner: string; repo: string } | undefined {
  let i = at;
  while (isNameChar(text[i - 1])) i--;
  if (i === at || text[i - 1] !== "/") return undefined;
  const slash = i - 1;
  let start = slash;
  while (isNameChar(text[start - 1])) start--;
  if (start === slash) return undefined;
  return { start, owner: text.slice(start, slash), repo: text.slice(slash + 1, at) };
}
