import type { PullBranchRecord, ReactionRecord, ReviewState } from "../format.ts";

/**
 * GitHub's JSON as a migration reads it (docs.github.com, REST API v3), and its mapping to the
 * dump's records where it takes more than a field copy: reactions, labels, review states, a code
 * comment's line, a pull request's branch.
 */

/** The reaction names GitHub and Gitea share; GitHub has no others today, and the import refuses unknown ones. */
const REACTIONS = new Set(["+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes"]);

// The parts of GitHub's JSON that a migration reads (docs.github.com, REST API).
export interface GhUser {
  login: string;
  id: number;
  email?: string | null;
}
export interface GhLabel {
  name: string;
  color?: string | null;
  description?: string | null;
}
export interface GhMilestone {
  title: string;
  description?: string | null;
  state?: "open" | "closed";
  created_at: string;
  updated_at?: string | null;
  closed_at?: string | null;
  due_on?: string | null;
}
export interface GhRepo {
  name: string;
  owner?: GhUser | null;
  description?: string | null;
  private?: boolean;
  default_branch?: string | null;
  html_url?: string;
  clone_url?: string;
}
export interface GhIssue {
  number: number;
  title: string;
  user?: GhUser | null;
  body?: string | null;
  state: "open" | "closed";
  locked?: boolean;
  labels?: (GhLabel | string)[];
  milestone?: GhMilestone | null;
  assignees?: GhUser[] | null;
  created_at: string;
  updated_at: string;
  closed_at?: string | null;
  /** Present when the "issue" is a pull request. */
  pull_request?: unknown;
}
export interface GhComment {
  id: number;
  user?: GhUser | null;
  body?: string | null;
  created_at: string;
  updated_at: string;
}
export interface GhReaction {
  user?: GhUser | null;
  content: string;
}
export interface GhBranch {
  ref: string;
  sha: string;
  user?: GhUser | null;
  repo?: { name: string; clone_url?: string; owner?: GhUser | null } | null;
}
export interface GhPull extends Omit<GhIssue, "pull_request"> {
  merged_at?: string | null;
  merge_commit_sha?: string | null;
  active_lock_reason?: string | null;
  draft?: boolean;
  head: GhBranch;
  base: GhBranch;
}
export interface GhReview {
  id: number;
  user?: GhUser | null;
  body?: string | null;
  state: string;
  commit_id?: string | null;
  submitted_at?: string | null;
}
export interface GhReviewComment {
  id: number;
  in_reply_to_id?: number;
  path: string;
  diff_hunk?: string;
  position?: number | null;
  line?: number | null;
  original_line?: number | null;
  side?: "LEFT" | "RIGHT" | null;
  commit_id?: string;
  user?: GhUser | null;
  body?: string | null;
  created_at: string;
  updated_at: string;
}
export interface GhAsset {
  id: number;
  url: string;
  browser_download_url: string;
  name: string;
  content_type?: string | null;
  size: number;
  download_count?: number;
  created_at: string;
  updated_at: string;
}
export interface GhRelease {
  tag_name: string;
  target_commitish?: string;
  name?: string | null;
  body?: string | null;
  draft?: boolean;
  prerelease?: boolean;
  created_at: string;
  published_at?: string | null;
  author?: GhUser | null;
  assets?: GhAsset[];
}

/** Gitea's ghost: who a deleted GitHub account (a null user) is recorded as. */
export const GHOST: GhUser = { login: "ghost", id: -1 };

export function reactionRecords(list: GhReaction[]): ReactionRecord[] {
  return list
    .filter((r) => REACTIONS.has(r.content))
    .map((r) => {
      const user = r.user ?? GHOST;
      return { user_id: user.id, user_name: user.login, content: r.content };
    });
}

export function labelRecord(l: GhLabel | string): { name: string; color: string; description: string } {
  // The issues API documents a label as an object or, on old servers, its bare name.
  if (typeof l === "string") return { name: l, color: "", description: "" };
  return { name: l.name, color: l.color ?? "", description: l.description ?? "" };
}

/** GitHub's review states in Gitea's words; a dismissed review stays as the comment it was. */
export function reviewState(state: string): ReviewState {
  switch (state) {
    case "APPROVED":
    case "CHANGES_REQUESTED":
    case "COMMENTED":
    case "PENDING":
      return state;
    default:
      return "COMMENTED";
  }
}

/**
 * The line a code comment is on when GitHub gives none (an outdated comment without
 * original_line): the hunk's last line, negative when that line is only on the old side.
 */
export function lineFromHunk(hunk: string): number {
  const lines = hunk.split("\n");
  const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(lines[0] ?? "");
  if (!header) return 0;
  let oldLine = Number(header[1]) - 1;
  let newLine = Number(header[2]) - 1;
  let last = 0;
  for (const l of lines.slice(1)) {
    if (l.startsWith("-")) last = -++oldLine;
    else if (l.startsWith("+")) last = ++newLine;
    else if (l.startsWith(" ") || l === "") {
      oldLine++;
      last = ++newLine;
    }
  }
  return last;
}

/** A code comment's line in the dump's terms: the new side positive, the old side (GitHub's LEFT) negative. */
export function commentLine(c: GhReviewComment): number {
  const line = c.line ?? c.original_line ?? 0;
  if (line > 0) return c.side === "LEFT" ? -line : line;
  return lineFromHunk(c.diff_hunk ?? "");
}

export function branchRecord(b: GhBranch): PullBranchRecord {
  const out: PullBranchRecord = { ref: b.ref, sha: b.sha };
  const owner = b.user?.login ?? b.repo?.owner?.login;
  if (owner) out.owner_name = owner;
  if (b.repo?.name) out.repo_name = b.repo.name;
  if (b.repo?.clone_url) out.clone_url = b.repo.clone_url;
  return out;
}

