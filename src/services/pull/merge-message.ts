/**
 * The default commit message of a merge, as Gitea's getMergeMessage builds it: the repository's
 * template `.gitea/default_merge_message/<STYLE>_TEMPLATE.md` on the default branch when there is
 * one (its first line the title, the rest the description, `$Var`/`${Var}` expanded), otherwise
 * Gitea's fixed sentences.
 */
import * as tree from "../../git/tree.ts";
import type { MergeStyle } from "./merge-styles.ts";

/** Gitea's `[repository.pull-request] DEFAULT_MERGE_MESSAGE_SIZE`: longer templates are cut. */
const MAX_TEMPLATE_BYTES = 5 * 1024;

export interface MergeMessageFacts {
  baseOwner: string;
  baseRepo: string;
  baseBranch: string;
  /** Undefined when the head repository was deleted. */
  headOwner?: string;
  headRepo?: string;
  headBranch: string;
  sameRepo: boolean;
  index: number;
  title: string;
  description: string;
  posterName: string;
  /** "#", or "!" when the repository uses an external tracker (Gitea's issue reference). */
  reference: string;
  /** Indexes of issues the pull request closes, for `$ClosingIssues`. */
  closingIndexes: number[];
}

export interface MergeMessage {
  title: string;
  body: string;
}

/** Go's os.Expand: `${name}` and `$name` (letters, digits, `_`; or one special character) become their value, unknown names nothing. */
export function expandVariables(text: string, vars: Record<string, string>): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch !== "$" || i + 1 >= text.length) {
      out += ch;
      continue;
    }
    const next = text[i + 1]!;
    if (next === "{") {
      const end = text.indexOf("}", i + 2);
      if (end < 0) return out; // Go drops a malformed "${" and everything after it.
      out += vars[text.slice(i + 2, end)] ?? "";
      i = end;
    } else if (/[*#$@!?\-0-9]/.test(next)) {
      out += vars[next] ?? "";
      i += 1;
    } else {
      const m = /^[A-Za-z0-9_]+/.exec(text.slice(i + 1));
      if (!m) {
        // "$" before anything else: Go drops the "$" and keeps the character.
        continue;
      }
      out += vars[m[0]] ?? "";
      i += m[0].length;
    }
  }
  return out;
}

function templateVars(f: MergeMessageFacts): Record<string, string> {
  return {
    BaseRepoOwnerName: f.baseOwner,
    BaseRepoName: f.baseRepo,
    BaseBranch: f.baseBranch,
    HeadRepoOwnerName: f.headOwner ?? "",
    HeadRepoName: f.headRepo ?? "",
    HeadBranch: f.headBranch,
    PullRequestTitle: f.title,
    PullRequestDescription: f.description,
    PullRequestPosterName: f.posterName,
    PullRequestIndex: String(f.index),
    PullRequestReference: `${f.reference}${f.index}`,
    ClosingIssues: f.closingIndexes.map((n) => `close ${f.reference}${n}`).join(", "),
  };
}

/** Splits an expanded template: the first line is the title, the remaining lines (trimmed) the description. */
export function expandTemplate(template: string, vars: Record<string, string>): MergeMessage {
  const text = template.trim();
  const nl = text.indexOf("\n");
  const title = nl < 0 ? text : text.slice(0, nl);
  const body = nl < 0 ? "" : text.slice(nl + 1).trim();
  return { title: expandVariables(title, vars), body: expandVariables(body, vars) };
}

/** The template of a merge style on the default branch's commit, if the repository has one. */
export async function readMergeTemplate(gitDir: string, defaultBranchCommit: string | undefined, style: MergeStyle): Promise<string | undefined> {
  if (!defaultBranchCommit) return undefined;
  const entry = await tree.readEntry(gitDir, defaultBranchCommit, `.gitea/default_merge_message/${style.toUpperCase()}_TEMPLATE.md`);
  if (!entry || entry.type !== "blob") return undefined;
  return (await tree.readBlob(gitDir, entry.oid, MAX_TEMPLATE_BYTES)).toString("utf8");
}

/** Gitea's default message for a style when the repository has no template. */
export function defaultMergeMessage(f: MergeMessageFacts, style: MergeStyle, template: string | undefined): MergeMessage {
  if (template !== undefined) return expandTemplate(template, templateVars(f));
  const ref = `${f.reference}${f.index}`;
  // A fast-forward rebase keeps the last commit's message unless a template says otherwise.
  if (style === "rebase") return { title: "", body: "" };
  if (style === "squash") return { title: `${f.title} (${ref})`, body: "" };
  if (f.sameRepo) return { title: `Merge pull request '${f.title}' (${ref}) from ${f.headBranch} into ${f.baseBranch}`, body: "" };
  if (f.headOwner === undefined) return { title: `Merge pull request '${f.title}' (${ref}) from <deleted>:${f.headBranch} into ${f.baseBranch}`, body: "" };
  return { title: `Merge pull request '${f.title}' (${ref}) from ${f.headOwner}/${f.headRepo}:${f.headBranch} into ${f.baseBranch}`, body: "" };
}
