import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { inspectMirror, type MirrorInfo } from "../../git/mirror.ts";
import { Invalid } from "../../lib/errors.ts";
import { normalizeColor } from "../label/color.ts";
import { sanitizeTopics, MAX_TOPICS_PER_REPO } from "../repo/topics.ts";
import {
  FILES,
  commentFile,
  reviewFile,
  type CommentRecord,
  type PullRequestRecord,
  type ReviewRecord,
  type IssueRecord,
  type LabelRecord,
  type MilestoneRecord,
  type ReactionRecord,
  type Unit,
} from "./format.ts";
import { loadReleases, type LoadedRelease } from "./release-load.ts";
import { checkPullHeads, checkPulls, checkReviews, type LoadedPull } from "./pull-load.ts";
import { checkReactions, Collector, isId, isValidRef, readChecked, readYaml } from "./checks.ts";

/**
 * Reads a dump directory and checks all of it before anything is written: every file against its
 * schema, then what the schemas cannot say (unique numbers and names, references between files,
 * colors, refs). Any problem refuses the whole dump.
 */

/** The comment types a restore can record whole: their meaning needs no ids from the source. */
export const COMMENT_TYPES: Record<string, number> = {
  comment: 0,
  reopen: 1,
  close: 2,
  change_title: 10,
  lock: 23,
  unlock: 24,
};

export interface LoadedDump {
  dir: string;
  description: string;
  isPrivate: boolean;
  /** repo.yml's default_branch; may be empty or name no branch. */
  defaultBranch: string;
  topics: string[] | undefined;
  /** Undefined where the unit was not asked for or its file is absent. */
  milestones?: MilestoneRecord[];
  labels?: (LabelRecord & { color: string })[];
  issues?: IssueRecord[];
  /** Per issue or pull request number. */
  comments: Map<number, CommentRecord[]>;
  /** Undefined where the unit was not asked for or pull_request.yml is absent. */
  pulls?: LoadedPull[];
  /** Per pull request number. */
  reviews: Map<number, ReviewRecord[]>;
  /** Undefined where the unit was not asked for or release.yml is absent. */
  releases?: LoadedRelease[];
  git: MirrorInfo;
}

export interface LoadOptions {
  units: Set<Unit>;
  /** Label names an issue may carry without label.yml defining them: the target organization's labels. */
  orgLabels: Set<string>;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Go's strconv.ParseBool, which Gitea's restorer applies to repo.yml's is_private. */
function goBool(v: unknown): boolean | undefined {
  const s = String(v);
  if (["1", "t", "T", "TRUE", "true", "True"].includes(s)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(s)) return false;
  return undefined;
}

function loadRepoFile(c: Collector, dir: string): { description: string; isPrivate: boolean; defaultBranch: string } {
  const out = { description: "", isPrivate: false, defaultBranch: "" };
  if (!existsSync(join(dir, FILES.repo))) {
    c.add({ file: FILES.repo, message: "missing: not a repository dump" });
    return out;
  }
  const repo = readYaml(c, dir, FILES.repo);
  if (repo === undefined) return out;
  if (!isMap(repo)) {
    c.add({ file: FILES.repo, message: "must be a mapping" });
    return out;
  }
  const scalar = (key: string): string | undefined => {
    const v = repo[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v === "object") {
      c.add({ file: FILES.repo, field: key, message: "must be a string" });
      return undefined;
    }
    return String(v);
  };
  out.description = scalar("description") ?? "";
  out.defaultBranch = scalar("default_branch") ?? "";
  const priv = scalar("is_private");
  if (priv !== undefined) {
    const b = goBool(priv);
    if (b === undefined) c.add({ file: FILES.repo, field: "is_private", message: "must be true or false" });
    else out.isPrivate = b;
  }
  return out;
}

function loadTopics(c: Collector, dir: string): string[] | undefined {
  const doc = readYaml(c, dir, FILES.topic);
  if (doc === undefined) return undefined;
  const topics = isMap(doc) ? doc.topics : undefined;
  if (topics === undefined || topics === null) return [];
  if (!Array.isArray(topics) || topics.some((t) => typeof t !== "string")) {
    c.add({ file: FILES.topic, field: "topics", message: "must be an array of strings" });
    return undefined;
  }
  const { valid, invalid } = sanitizeTopics(topics as string[]);
  if (invalid.length) c.add({ file: FILES.topic, field: "topics", message: `invalid topic "${invalid[0]}"` });
  if (valid.length > MAX_TOPICS_PER_REPO) c.add({ file: FILES.topic, field: "topics", message: `more than ${MAX_TOPICS_PER_REPO} topics` });
  return valid;
}

function checkMilestones(c: Collector, list: MilestoneRecord[]): void {
  const seen = new Set<string>();
  list.forEach((m, item) => {
    if (seen.has(m.title)) c.add({ file: FILES.milestone, item, field: "title", message: `duplicate title "${m.title}"` });
    seen.add(m.title);
  });
}

function checkLabels(c: Collector, list: LabelRecord[]): (LabelRecord & { color: string })[] {
  const seen = new Set<string>();
  return list.map((l, item) => {
    if (!l.name.trim()) c.add({ file: FILES.label, item, field: "name", message: "must not be empty" });
    if (seen.has(l.name)) c.add({ file: FILES.label, item, field: "name", message: `duplicate name "${l.name}"` });
    seen.add(l.name);
    // Gitea's uploader turns a missing color into white; one that is there must be a color.
    let color = "#ffffff";
    if (l.color !== undefined && l.color !== "") {
      try {
        color = normalizeColor(l.color);
      } catch {
        c.add({ file: FILES.label, item, field: "color", message: `invalid color "${l.color}"` });
      }
    }
    return { ...l, color };
  });
}

type TrackerRecord = Pick<IssueRecord, "number" | "poster_id" | "milestone" | "ref"> & {
  labels?: IssueRecord["labels"] | null;
  reactions?: ReactionRecord[] | null;
};

/** The checks issue.yml and pull_request.yml share; `numbers` holds the numbers taken so far (issues and pull requests share them). */
function checkIssues(
  c: Collector,
  file: string,
  list: TrackerRecord[],
  refs: { milestones?: Set<string>; labels?: Set<string>; orgLabels: Set<string> },
  numbers: Set<number>,
): void {
  list.forEach((issue, item) => {
    if (!Number.isSafeInteger(issue.number) || issue.number < 1) {
      c.add({ file, item, field: "number", message: "must be a positive integer" });
    } else if (numbers.has(issue.number)) {
      c.add({ file, item, field: "number", message: `duplicate number ${issue.number}${file === FILES.issue ? "" : ` (issues and pull requests share numbers)`}` });
    }
    numbers.add(issue.number);
    if (!isId(issue.poster_id)) c.add({ file, item, field: "poster_id", message: "must be an integer" });
    if (issue.ref && !isValidRef(issue.ref)) c.add({ file, item, field: "ref", message: `invalid git reference "${issue.ref}"` });
    if (issue.milestone && refs.milestones && !refs.milestones.has(issue.milestone)) {
      c.add({ file, item, field: "milestone", message: `milestone "${issue.milestone}" is not in ${FILES.milestone}` });
    }
    if (refs.labels) {
      (issue.labels ?? []).forEach((l, i) => {
        if (!refs.labels!.has(l.name) && !refs.orgLabels.has(l.name)) {
          c.add({ file, item, field: `labels[${i}].name`, message: `label "${l.name}" is not in ${FILES.label}` });
        }
      });
    }
    checkReactions(c, file, item, "", issue.reactions);
  });
}

/**
 * The `{n}.yml` files of a folder of the dump (comments/ by issue, reviews/ by pull request), by
 * number; a file name that is not a number is refused.
 */
export function numberedFiles(c: Collector, dir: string, folder: string, what: string): number[] {
  const path = join(dir, folder);
  if (!existsSync(path) || !statSync(path).isDirectory()) return [];
  const numbers: number[] = [];
  for (const name of readdirSync(path).sort()) {
    if (!name.endsWith(".yml")) continue;
    const n = /^[1-9]\d*\.yml$/.test(name) ? Number(name.slice(0, -4)) : NaN;
    if (Number.isSafeInteger(n)) numbers.push(n);
    else c.add({ file: join(folder, name), message: `name must be {${what} number}.yml` });
  }
  return numbers.sort((a, b) => a - b);
}

function checkComments(c: Collector, file: string, issueNumber: number, list: CommentRecord[], issues: Set<number>): void {
  if (!issues.has(issueNumber)) c.add({ file, message: `issue ${issueNumber} is not in ${FILES.issue} or ${FILES.pullRequest}` });
  list.forEach((cm, item) => {
    if (cm.issue_index !== issueNumber) c.add({ file, item, field: "issue_index", message: `must be ${issueNumber}, the file's issue` });
    if (!isId(cm.poster_id)) c.add({ file, item, field: "poster_id", message: "must be an integer" });
    const type = cm.comment_type || "comment";
    if (!(type in COMMENT_TYPES)) {
      c.add({ file, item, field: "comment_type", message: `"${type}" cannot be restored (one of ${Object.keys(COMMENT_TYPES).join(", ")})` });
    }
    for (const key of ["OldTitle", "NewTitle"]) {
      const v = cm.meta?.[key];
      if (v !== undefined && typeof v !== "string") c.add({ file, item, field: `meta.${key}`, message: "must be a string" });
    }
    checkReactions(c, file, item, "", cm.reactions);
  });
}

/** Reads and checks the dump at `dir` for the units asked for; throws Invalid naming the first problem. */
export async function loadDump(dir: string, opts: LoadOptions): Promise<LoadedDump> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Invalid(`repo_dir "${dir}" is not a directory`);
  const c = new Collector();
  const { units } = opts;
  const repo = loadRepoFile(c, dir);
  const topics = loadTopics(c, dir);

  // References into a file that failed its own checks are not checked: that file's problem is the one to report.
  const failed = (file: string, data: unknown) => data === undefined && existsSync(join(dir, file));
  const milestones = units.has("milestones") ? readChecked<MilestoneRecord>(c, dir, FILES.milestone, "milestone") : undefined;
  if (milestones) checkMilestones(c, milestones);
  const rawLabels = units.has("labels") ? readChecked<LabelRecord>(c, dir, FILES.label, "label") : undefined;
  const labels = rawLabels && checkLabels(c, rawLabels);
  const issues = units.has("issues") ? readChecked<IssueRecord>(c, dir, FILES.issue, "issue") : undefined;
  const refs = {
    milestones:
      units.has("milestones") && !failed(FILES.milestone, milestones) ? new Set((milestones ?? []).map((m) => m.title)) : undefined,
    labels: units.has("labels") && !failed(FILES.label, rawLabels) ? new Set((labels ?? []).map((l) => l.name)) : undefined,
    orgLabels: opts.orgLabels,
  };
  const numbers = new Set<number>();
  if (issues) checkIssues(c, FILES.issue, issues, refs, numbers);
  const rawPulls = units.has("pull_requests") ? readChecked<PullRequestRecord>(c, dir, FILES.pullRequest, "pull_request") : undefined;
  const pulls = rawPulls && checkPulls(c, rawPulls);
  if (rawPulls) checkIssues(c, FILES.pullRequest, rawPulls, refs, numbers);

  // Comments belong to the issues and pull requests restored. A file of a number neither holds is
  // refused, unless one of the two was left out of --units: then it may be one of those.
  const comments = new Map<number, CommentRecord[]>();
  const trackerFailed = failed(FILES.issue, issues) || failed(FILES.pullRequest, rawPulls);
  const trackerAsked = units.has("issues") || units.has("pull_requests");
  if (units.has("comments") && trackerAsked && !trackerFailed) {
    const partial = !units.has("issues") || !units.has("pull_requests");
    for (const n of numberedFiles(c, dir, FILES.comments, "issue")) {
      if (partial && !numbers.has(n)) continue;
      const file = commentFile(n);
      const list = readChecked<CommentRecord>(c, dir, file, "comment");
      if (!list) continue;
      checkComments(c, file, n, list, numbers);
      comments.set(n, list);
    }
  }
  const reviews = new Map<number, ReviewRecord[]>();
  if (pulls) {
    const pullNumbers = new Set(pulls.map((p) => p.record.number));
    for (const n of numberedFiles(c, dir, FILES.reviews, "pull request")) {
      const file = reviewFile(n);
      const list = readChecked<ReviewRecord>(c, dir, file, "review");
      if (!list) continue;
      checkReviews(c, n, list, pullNumbers);
      reviews.set(n, list);
    }
  }

  // Assets come with their releases unless `release_assets` is left out of --units (then the releases come without them).
  const releases = units.has("releases") ? loadReleases(c, dir, units.has("release_assets")) : undefined;

  const gitPath = join(dir, FILES.git);
  const git = existsSync(gitPath) ? await inspectMirror(gitPath) : undefined;
  if (!git) c.add({ file: `${FILES.git}/`, message: "missing or not a bare git repository" });
  else if (pulls) await checkPullHeads(c, gitPath, pulls);
  c.throwIfAny();
  return { dir, ...repo, topics, milestones, labels, issues, comments, pulls, reviews, releases, git: git! };
}
