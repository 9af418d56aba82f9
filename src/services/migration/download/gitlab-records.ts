import type { CommentRecord, ReactionRecord } from "../format.ts";
import { COMMENT_TYPES } from "../load.ts";

/**
 * GitLab's JSON as a migration reads it (docs.gitlab.com, REST API v4), and its mapping to the
 * dump's records where it takes more than a field copy: award emoji, label colors, notes and
 * state events as comments.
 */

// The parts of GitLab's JSON a migration reads (docs.gitlab.com, REST API v4).
export interface GlUser {
  id: number;
  username: string;
  name?: string;
  email?: string | null;
}
export interface GlProject {
  id: number;
  name: string;
  path_with_namespace: string;
  description?: string | null;
  visibility?: "public" | "internal" | "private";
  default_branch?: string | null;
  web_url: string;
  http_url_to_repo: string;
  owner?: { username?: string } | null;
  namespace?: { kind?: string; path?: string } | null;
  topics?: string[] | null;
  /** Deprecated for `topics` in GitLab 14.0; Gitea still reads it. */
  tag_list?: string[] | null;
}
export interface GlMilestone {
  title: string;
  description?: string | null;
  /** `active` or `closed`. */
  state?: string;
  due_date?: string | null;
  created_at: string;
  updated_at?: string | null;
}
export interface GlLabel {
  name: string;
  color?: string | null;
  description?: string | null;
}
export interface GlReleaseLink {
  id: number;
  name: string;
  url: string;
}
export interface GlRelease {
  tag_name: string;
  name?: string | null;
  description?: string | null;
  created_at: string;
  released_at?: string | null;
  author?: GlUser | null;
  commit?: { id: string } | null;
  /** `sources` are archives GitLab makes from the tag on request: Gitea skips them, and so does hearth. */
  assets?: { links?: GlReleaseLink[] | null } | null;
}
export interface GlIssue {
  iid: number;
  title: string;
  description?: string | null;
  /** `opened` or `closed`. */
  state: string;
  author: GlUser;
  labels?: string[] | null;
  milestone?: { title: string } | null;
  discussion_locked?: boolean | null;
  created_at: string;
  updated_at: string;
  closed_at?: string | null;
}
export interface GlMergeRequest extends GlIssue {
  /** `opened`, `closed`, `locked` or `merged`. */
  state: string;
  source_branch: string;
  target_branch: string;
  sha?: string | null;
  merge_commit_sha?: string | null;
  squash_commit_sha?: string | null;
  merged_at?: string | null;
  draft?: boolean | null;
  diff_refs?: { base_sha?: string | null } | null;
}
export interface GlAward {
  name: string;
  user: GlUser;
}
export interface GlNote {
  id: number;
  body: string;
  author: GlUser;
  created_at: string;
  updated_at?: string | null;
  system: boolean;
}
export interface GlDiscussion {
  notes: GlNote[];
}
export interface GlStateEvent {
  id: number;
  user: GlUser;
  created_at: string;
  /** `closed`, `reopened`, `merged`, ... */
  state: string;
}
export interface GlApprovals {
  created_at?: string | null;
  updated_at?: string | null;
  approved_by?: { user: GlUser }[] | null;
}

/** GitLab's emoji names for the reactions Gitea has; an award of any other emoji has no Gitea reaction and is left out. */
export const REACTIONS: Record<string, string> = {
  thumbsup: "+1",
  thumbsdown: "-1",
  laughing: "laugh",
  tada: "hooray",
  confused: "confused",
  heart: "heart",
  rocket: "rocket",
  eyes: "eyes",
};

/** Gitea's normalizeColor: no `#`, lower case, three digits doubled; anything else is no color. */
export function normalizeColor(value: string | null | undefined): string {
  let v = (value ?? "").replace(/^#+/, "").toLowerCase();
  if (v.length === 3) v = [...v].map((c) => c + c).join("");
  return /^[0-9a-f]{6}$/.test(v) ? v : "";
}

/** Gitea's awardsToReactions: one reaction per emoji and person. */
export function reactionsOf(awards: GlAward[]): ReactionRecord[] {
  const seen = new Set<string>();
  const out: ReactionRecord[] = [];
  for (const a of awards) {
    const content = REACTIONS[a.name];
    const key = `${a.name}\0${a.user.id}`;
    if (!content || seen.has(key)) continue;
    seen.add(key);
    out.push({ user_id: a.user.id, user_name: a.user.username, content });
  }
  return out;
}

export const isSha = (s: string | null | undefined): s is string => !!s && /^[0-9a-f]{40}([0-9a-f]{24})?$/i.test(s);

/** Gitea's system notes it knows the event of (convertNoteToComment). */
export const TARGET_BRANCH_CHANGE = /^changed target branch from `(.*?)` to `(.*?)`$/;

export function noteComment(issueIndex: number, note: GlNote): CommentRecord {
  const comment: CommentRecord = {
    issue_index: issueIndex,
    index: note.id,
    poster_id: note.author.id,
    poster_name: note.author.username,
    ...(note.author.email ? { poster_email: note.author.email } : {}),
    created: note.created_at,
    updated: note.updated_at || note.created_at,
    content: note.body,
  };
  if (!note.system) return comment;
  let type = "";
  const meta: Record<string, unknown> = {};
  const m = TARGET_BRANCH_CHANGE.exec(note.body);
  if (m) {
    type = "change_target_branch";
    meta.OldRef = m[1];
    meta.NewRef = m[2];
  } else if (note.body.startsWith("enabled an automatic merge")) type = "pull_scheduled_merge";
  else if (note.body === "canceled the automatic merge") type = "pull_cancel_scheduled_merge";
  // A type the import cannot record stays a plain comment: its text still says what happened.
  return type && type in COMMENT_TYPES ? { ...comment, comment_type: type, meta } : comment;
}

/** Gitea's state events as comments: close, reopen and merge; a merge the import cannot record is left to the pull request's own merged state. */
export function stateComment(issueIndex: number, e: GlStateEvent): CommentRecord | undefined {
  const type = { closed: "close", reopened: "reopen", merged: "merge_pull" }[e.state];
  if (!type || !(type in COMMENT_TYPES)) return undefined;
  return {
    issue_index: issueIndex,
    index: e.id,
    comment_type: type,
    poster_id: e.user.id,
    poster_name: e.user.username,
    created: e.created_at,
    updated: e.created_at,
    content: "",
  };
}

