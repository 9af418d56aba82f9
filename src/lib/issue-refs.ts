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
