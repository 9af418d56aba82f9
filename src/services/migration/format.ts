import { join } from "node:path";
import { stringify } from "yaml";
import { Invalid } from "../../lib/errors.ts";
import { toRFC3339 } from "../../lib/time.ts";

/**
 * Gitea's repository dump format (services/migrations/dump.go, modules/migration/*.go): one
 * directory per repository holding YAML files and the git data.
 *
 *   repo.yml             name, owner, description, is_private, default_branch, units dumped, ...
 *   topic.yml            topics: [...]
 *   milestone.yml        [Milestone]          validated with migration-schemas/milestone.json
 *   label.yml            [Label]              items: migration-schemas/label.json (+ Gitea's exclusive, priority)
 *   issue.yml            [Issue]              validated with migration-schemas/issue.json (labels, reactions inside)
 *   comments/{n}.yml     [Comment] of issue n reactions: migration-schemas/reaction.json
 *   pull_request.yml     [PullRequest]        checked with pull-schema.ts (Gitea ships no schema for it)
 *   reviews/{n}.yml      [Review] of pull n   checked with pull-schema.ts; code comments inside
 *   release.yml          [Release]            checked with release-schema.ts (Gitea ships no schema for it)
 *   release_assets/{tag}/{name}               asset files, with `--units release_assets`
 *   git/                 bare mirror of the repository, `refs/pull/{n}/head` included
 *
 * Keys are the yaml names of Gitea's structs (its yaml tags, else the lower-cased field name).
 */

export const FILES = {
  repo: "repo.yml",
  topic: "topic.yml",
  milestone: "milestone.yml",
  label: "label.yml",
  issue: "issue.yml",
  pullRequest: "pull_request.yml",
  reviews: "reviews",
  release: "release.yml",
  releaseAssets: "release_assets",
  comments: "comments",
  git: "git",
} as const;

export const commentFile = (issueNumber: number): string => join(FILES.comments, `${issueNumber}.yml`);
export const reviewFile = (pullNumber: number): string => join(FILES.reviews, `${pullNumber}.yml`);

/** Gitea's milestone record: exactly these seven fields, all present (the seed's "Milestone record"). */
export interface MilestoneRecord {
  title: string;
  description: string;
  deadline: string;
  created: string;
  updated: string;
  closed: string | null;
  state: "open" | "closed";
}

export interface LabelRecord {
  name: string;
  /** Gitea's Label.Exclusive; not in label.json, which describes the label embedded in an issue. */
  exclusive?: boolean;
  color?: string;
  /** Gitea's Label.Priority; hearth has no label priority and ignores it. */
  priority?: string;
  description?: string;
}

export interface ReactionRecord {
  user_id: number;
  user_name?: string;
  content: string;
}

export interface IssueRecord {
  number: number;
  poster_id: number;
  poster_name: string;
  poster_email?: string;
  title: string;
  content: string;
  ref?: string;
  milestone?: string;
  state: "open" | "closed";
  is_locked: boolean;
  created: string;
  updated: string;
  closed?: string | null;
  labels?: { name: string; color?: string; description?: string }[];
  reactions?: ReactionRecord[];
  assignees?: string[];
}

export interface CommentRecord {
  issue_index: number;
  /** The comment's id in the source. */
  index?: number;
  comment_type?: string;
  poster_id: number;
  poster_name: string;
  poster_email?: string;
  created: string;
  updated: string;
  content: string;
  reactions?: ReactionRecord[];
  meta?: Record<string, unknown>;
}

/** Gitea's PullRequestBranch (modules/migration/pullrequest.go). */
export interface PullBranchRecord {
  clone_url?: string;
  ref: string;
  sha: string;
  repo_name?: string;
  owner_name?: string;
}

/**
 * Gitea's PullRequest: the issue half (number, poster, title, state, labels, ...) beside the
 * branches and the merge. `patch_url` names a patch file under `git/pulls/` when the dumper
 * downloaded one; hearth writes none (Gitea's dumper skips an empty one, its restorer reads none).
 */
export interface PullRequestRecord {
  number: number;
  title: string;
  poster_name: string;
  poster_id: number;
  poster_email?: string;
  content: string;
  milestone?: string;
  state: "open" | "closed";
  created: string;
  updated: string;
  closed?: string | null;
  labels?: { name: string; color?: string; description?: string }[] | null;
  patch_url?: string;
  merged: boolean;
  merged_time?: string | null;
  merge_commit_sha?: string;
  head: PullBranchRecord;
  base: PullBranchRecord;
  assignees?: string[] | null;
  is_locked: boolean;
  reactions?: ReactionRecord[] | null;
  /** Gitea's ForeignIndex (no yaml tag): the number in the source. */
  foreignindex?: number;
  ensured_safe?: boolean;
  is_draft?: boolean;
}

/** Gitea's ReviewComment: a code comment of a review. `line` < 0 is a line of the old side. */
export interface ReviewCommentRecord {
  id?: number;
  in_reply_to?: number;
  content: string;
  tree_path: string;
  diff_hunk: string;
  position?: number;
  line: number;
  commit_id: string;
  poster_id: number;
  reactions?: ReactionRecord[] | null;
  created_at: string;
  updated_at: string;
}

/** Gitea's review states (modules/migration/review.go) and hearth's ReviewType for each. */
export const REVIEW_STATES = {
  PENDING: 0,
  APPROVED: 1,
  COMMENTED: 2,
  CHANGES_REQUESTED: 3,
  REQUEST_REVIEW: 4,
} as const;
export type ReviewState = keyof typeof REVIEW_STATES;

/** Gitea's Review. */
export interface ReviewRecord {
  id?: number;
  issue_index: number;
  reviewer_id: number;
  reviewer_name: string;
  official: boolean;
  commit_id: string;
  content: string;
  created_at: string;
  state: ReviewState;
  comments?: ReviewCommentRecord[] | null;
}

/** Gitea's ReleaseAsset (modules/migration/release.go): every key present, as its yaml.Marshal writes them. */
export interface AssetRecord {
  id: number;
  name: string;
  content_type: string | null;
  size: number;
  download_count: number;
  created: string;
  updated: string;
  /** `release_assets/{tag}/{name}` inside the dump when the files were dumped; else where the source serves it. */
  download_url: string | null;
  /** Gitea's Asset.OriginalURL (no yaml tag, so the lower-cased field name). */
  originalurl?: string;
}

/** Gitea's Release: `created` and `published` are both the release's time, as Gitea's API reports them. */
export interface ReleaseRecord {
  tag_name: string;
  target_commitish: string;
  name: string;
  body: string;
  draft: boolean;
  prerelease: boolean;
  publisher_id: number;
  publisher_name: string;
  publisher_email: string;
  assets: AssetRecord[];
  created: string;
  published: string;
}

/** The keys of repo.yml that a restore reads. Gitea writes every value with yaml's own types. */
export interface RepoRecord {
  name: string;
  owner: string;
  description: string;
  clone_addr: string;
  original_url: string;
  is_private: boolean;
  default_branch: string;
  /** Gitea's GitServiceType: 3 is Gitea, which hearth speaks. */
  service_type: number;
  wiki: boolean;
  issues: boolean;
  milestones: boolean;
  labels: boolean;
  releases: boolean;
  comments: boolean;
  pulls: boolean;
  assets: boolean;
}

export const GITEA_SERVICE_TYPE = 3;

/** How many of each item a dump, a download or a restore moved. */
export interface DumpCounts {
  milestones: number;
  labels: number;
  issues: number;
  comments: number;
  pullRequests: number;
  reviews: number;
  releases: number;
}

/** repo.yml as a dumper writes it: the repository's facts and, as Gitea's, which units it holds. */
export function repoRecord(
  repo: Pick<RepoRecord, "name" | "owner" | "description" | "clone_addr" | "original_url" | "is_private" | "default_branch" | "service_type">,
  units: Set<Unit>,
): RepoRecord {
  return {
    ...repo,
    wiki: false,
    issues: units.has("issues"),
    milestones: units.has("milestones"),
    labels: units.has("labels"),
    releases: units.has("releases"),
    comments: units.has("comments"),
    pulls: units.has("pull_requests"),
    assets: units.has("release_assets"),
  };
}

/**
 * The `--units` hearth can move. Gitea's other unit (wiki) names data hearth does not dump yet,
 * so asking for it is an error rather than a silent no-op.
 */
export const UNITS = ["milestones", "labels", "issues", "comments", "pull_requests", "releases", "release_assets"] as const;
export type Unit = (typeof UNITS)[number];
const UNAVAILABLE = new Set(["wiki"]);

/** Gitea's `--units`: comma separated, case-insensitive, empty entries skipped; nothing means all. */
export function parseUnits(value: string | undefined): Set<Unit> {
  const units = new Set<Unit>();
  for (const raw of (value ?? "").split(",")) {
    const unit = raw.trim().toLowerCase();
    if (!unit) continue;
    if ((UNITS as readonly string[]).includes(unit)) units.add(unit as Unit);
    else if (UNAVAILABLE.has(unit)) throw new Invalid(`unit ${unit} is not available: hearth has no ${unit.replace("_", " ")} yet`);
    else throw new Invalid(`invalid unit: ${raw.trim()}`);
  }
  return units.size ? units : new Set(UNITS);
}

/**
 * Gitea stores "no due date" as a deadline in the year 9999 (and its API treats any such year as
 * none); the milestone record needs a date-time there, so that is what a dump writes for one.
 */
export const NO_DEADLINE = "9999-12-31T23:59:59Z";
const NO_DEADLINE_YEAR = 9999;

/** A stored Unix time as the dump writes it: RFC 3339 with the server's offset, as Gitea's yaml does. */
export const dumpTime = (unix: number): string => toRFC3339(unix);

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;

const daysIn = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

/**
 * JSON Schema's `date-time` format: an RFC 3339 date-time, offset required, every part in range
 * (the 31st of April or hour 24 is not a date). Returns Unix seconds, or undefined when it is not one.
 */
export function parseRFC3339(value: string): number | undefined {
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  let offset = 0;
  if (m[9]) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offset = (m[9] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const d = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  d.setUTCFullYear(year); // Date.UTC maps years 0-99 to 1900-1999
  return Math.floor(d.getTime() / 1000) - offset * 60;
}

/** A milestone deadline from the record: 0 (none) for Gitea's year-9999 placeholder. */
export function deadlineUnix(value: string): number {
  const year = Number(value.slice(0, 4));
  return year >= NO_DEADLINE_YEAR ? 0 : parseRFC3339(value)!;
}

/** YAML as Gitea's yaml.Marshal lays it out closely enough for either side to read: block style, no wrapping. */
export function toYaml(value: unknown): string {
  return stringify(value, { lineWidth: 0, aliasDuplicateObjects: false });
}
