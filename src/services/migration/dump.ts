import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../env.ts";
import type { Tx } from "../../db/client.ts";
import type { IssueRow, ReactionRow, RepoRow, UserRow } from "../../db/schema/index.ts";
import * as data from "../../models/migration.ts";
import { getUserByName } from "../../models/user.ts";
import { getRepoByOwner, listTopics } from "../../models/repo.ts";
import { cloneMirror } from "../../git/mirror.ts";
import { Invalid, NotFound } from "../../lib/errors.ts";
import { gitDirOf } from "../repo/lookup.ts";
import { readReleases, writeReleaseAssets, type ReleaseDump } from "./release-dump.ts";
import { buildPullDump, pullRecords, readReviewRows, type PullDump } from "./pull-dump.ts";
import {
  FILES,
  GITEA_SERVICE_TYPE,
  NO_DEADLINE,
  commentFile,
  dumpTime,
  repoRecord,
  reviewFile,
  toYaml,
  type CommentRecord,
  type DumpCounts,
  type IssueRecord,
  type LabelRecord,
  type MilestoneRecord,
  type ReactionRecord,
  type RepoRecord,
  type Unit,
} from "./format.ts";

export interface DumpInput {
  /** `--repo_dir`: must be missing or empty; the dump goes to `{repo_dir}/{owner}/{repo}`, as Gitea lays it out. */
  repoDir: string;
  ownerName: string;
  repoName: string;
  units: Set<Unit>;
}

export interface DumpSummary extends DumpCounts {
  path: string;
}

/** Who wrote something, as the dump names them: the original author of imported content, else the account. */
interface Person {
  id: number;
  name: string;
  email: string;
}

const GHOST: Person = { id: -1, name: "Ghost", email: "" };

/** Gitea's dump-repo refuses a repo_dir that is a file or holds anything. */
export function checkTarget(repoDir: string): void {
  if (!existsSync(repoDir)) return;
  if (!statSync(repoDir).isDirectory()) throw new Invalid(`repo_dir "${repoDir}" already exists and is not a directory`);
  if (readdirSync(repoDir).length > 0) throw new Invalid(`repo_dir "${repoDir}" is not empty`);
}

interface Files {
  milestones?: MilestoneRecord[];
  labels?: LabelRecord[];
  issues?: IssueRecord[];
  comments: Map<number, CommentRecord[]>;
  topics: string[];
  releases?: ReleaseDump;
  pulls?: PullDump;
}

/** Everything the YAML files hold, read in one transaction so the files agree with each other. */
function readRecords(tx: Tx, env: Env, owner: UserRow, repo: RepoRow, units: Set<Unit>): Files {
  const milestoneRows = data.repoMilestones(tx, repo.id);
  const issueRows = units.has("issues") ? data.repoIssues(tx, repo.id) : [];
  const pullRows = units.has("pull_requests") ? data.repoPulls(tx, repo.id) : [];
  // Pull requests are issues too: their comments, reactions, labels and assignees are read with the issues'.
  const trackerRows = [...issueRows, ...pullRows.map((p) => p.issue)];
  const issueIds = trackerRows.map((i) => i.id);
  const commentRows = units.has("comments") ? data.plainCommentsOfIssues(tx, issueIds) : [];
  const reactionRows = data.reactionsOfIssues(tx, issueIds);
  const reviewRows = readReviewRows(tx, pullRows.map((p) => p.issue.id));
  const people = data.usersByIds(tx, [
    ...trackerRows.map((i) => i.posterId),
    ...commentRows.map((c) => c.posterId),
    ...reactionRows.map((r) => r.userId),
    ...reviewRows.reviews.map((r) => r.reviewerId),
    ...reviewRows.codeComments.map((c) => c.posterId),
  ]);
  const person = (id: number, originalAuthor: string, originalAuthorId: number): Person => {
    if (originalAuthor) return { id: originalAuthorId, name: originalAuthor, email: "" };
    const u: UserRow | undefined = people.get(id);
    return u ? { id: u.id, name: u.name, email: u.email } : GHOST;
  };
  const reaction = (r: ReactionRow): ReactionRecord => {
    const p = person(r.userId, r.originalAuthor, r.originalAuthorId);
    return { user_id: p.id, user_name: p.name, content: r.type };
  };

  const files: Files = { comments: new Map(), topics: listTopics(tx, repo.id) };
  if (units.has("releases")) files.releases = readReleases(tx, env, repo.id, units.has("release_assets"));
  if (units.has("milestones")) {
    files.milestones = milestoneRows.map((m) => ({
      title: m.name,
      description: m.content,
      deadline: m.deadlineUnix > 0 ? dumpTime(m.deadlineUnix) : NO_DEADLINE,
      created: dumpTime(m.createdUnix),
      updated: dumpTime(m.updatedUnix),
      closed: m.closedDateUnix > 0 ? dumpTime(m.closedDateUnix) : null,
      state: m.isClosed ? "closed" : "open",
    }));
  }
  if (units.has("labels")) {
    files.labels = data.repoLabels(tx, repo.id).map((l) => ({
      name: l.name,
      exclusive: l.exclusive,
      // Gitea's migration data (from its API) carries the color without `#`.
      color: l.color.replace(/^#/, ""),
      description: l.description,
    }));
  }
  const milestoneNames = new Map(milestoneRows.map((m) => [m.id, m.name]));
  const labelsOf = data.labelsByIssue(tx, issueIds);
  const assigneesOf = data.assigneeNamesByIssue(tx, issueIds);
  const issueReactions = new Map<number, ReactionRecord[]>();
  const commentReactions = new Map<number, ReactionRecord[]>();
  for (const r of reactionRows) {
    const [map, key] = r.commentId > 0 ? [commentReactions, r.commentId] : [issueReactions, r.issueId];
    map.set(key, [...(map.get(key) ?? []), reaction(r)]);
  }
  const issueRecord = (i: IssueRow): IssueRecord => {
    const p = person(i.posterId, i.originalAuthor, i.originalAuthorId);
    return {
      number: i.index,
      poster_id: p.id,
      poster_name: p.name,
      poster_email: p.email,
      title: i.title,
      content: i.content,
      ref: i.ref,
      milestone: milestoneNames.get(i.milestoneId) ?? "",
      state: i.isClosed ? "closed" : "open",
      is_locked: i.isLocked,
      created: dumpTime(i.createdUnix),
      updated: dumpTime(i.updatedUnix),
      closed: i.closedUnix > 0 ? dumpTime(i.closedUnix) : null,
      labels: (labelsOf.get(i.id) ?? []).map((l) => ({ name: l.name, color: l.color.replace(/^#/, ""), description: l.description })),
      reactions: issueReactions.get(i.id) ?? [],
      assignees: assigneesOf.get(i.id) ?? [],
    };
  };
  if (units.has("issues")) files.issues = issueRows.map(issueRecord);
  if (units.has("pull_requests")) {
    files.pulls = buildPullDump(env, tx, { ...repo, ownerName: owner.name }, pullRows, reviewRows, issueRecord, person, commentReactions);
  }
  const numberOf = new Map(trackerRows.map((i) => [i.id, i.index]));
  for (const c of commentRows) {
    const issueNumber = numberOf.get(c.issueId)!;
    const p = person(c.posterId, c.originalAuthor, c.originalAuthorId);
    const record: CommentRecord = {
      issue_index: issueNumber,
      index: c.id,
      comment_type: "comment",
      poster_id: p.id,
      poster_name: p.name,
      poster_email: p.email,
      created: dumpTime(c.createdUnix),
      updated: dumpTime(c.updatedUnix),
      content: c.content,
      reactions: commentReactions.get(c.id) ?? [],
    };
    files.comments.set(issueNumber, [...(files.comments.get(issueNumber) ?? []), record]);
  }
  return files;
}

function repoRecordOf(env: Env, owner: UserRow, repo: RepoRow, units: Set<Unit>): RepoRecord {
  const url = `${env.settings.server.rootUrl}${owner.name}/${repo.name}`;
  return repoRecord(
    {
      name: repo.name,
      owner: owner.name,
      description: repo.description,
      clone_addr: `${url}.git`,
      original_url: repo.originalUrl || url,
      is_private: repo.isPrivate,
      default_branch: repo.defaultBranch,
      service_type: GITEA_SERVICE_TYPE,
    },
    units,
  );
}

/**
 * Gitea's dump-repo for a repository of this instance: Gitea's downloader reads a remote service by
 * URL; this reads the local rows and git directory, and writes the same layout. A failure removes
 * what was written, as Gitea's RepositoryDumper.Rollback does.
 */
export async function dumpRepo(env: Env, input: DumpInput): Promise<DumpSummary> {
  const owner = getUserByName(env.db, input.ownerName);
  const repo = owner && getRepoByOwner(env.db, owner.id, input.repoName);
  if (!owner || !repo) throw new NotFound(`repository ${input.ownerName}/${input.repoName} does not exist`);
  checkTarget(input.repoDir);

  const files = env.db.transaction((tx) => readRecords(tx, env, owner, repo, input.units), { behavior: "deferred" });
  const base = join(input.repoDir, owner.name, repo.name);
  try {
    mkdirSync(base, { recursive: true });
    const write = (name: string, value: unknown) => writeFileSync(join(base, name), toYaml(value));
    write(FILES.repo, repoRecordOf(env, owner, repo, input.units));
    write(FILES.topic, { topics: files.topics });
    if (files.milestones) write(FILES.milestone, files.milestones);
    if (files.labels) write(FILES.label, files.labels);
    if (files.releases) {
      writeReleaseAssets(env, base, files.releases);
      write(FILES.release, files.releases.records);
    }
    if (files.issues) write(FILES.issue, files.issues);
    if (files.comments.size) mkdirSync(join(base, FILES.comments));
    for (const [issueNumber, list] of files.comments) write(commentFile(issueNumber), list);
    await cloneMirror(gitDirOf(env, owner, repo), join(base, FILES.git));
    if (files.pulls) {
      write(FILES.pullRequest, await pullRecords(join(base, FILES.git), files.pulls));
      if (files.pulls.reviews.size) mkdirSync(join(base, FILES.reviews));
      for (const [pullNumber, list] of files.pulls.reviews) write(reviewFile(pullNumber), list);
    }
  } catch (err) {
    rmSync(base, { recursive: true, force: true });
    throw err;
  }
  return {
    path: base,
    milestones: files.milestones?.length ?? 0,
    labels: files.labels?.length ?? 0,
    issues: files.issues?.length ?? 0,
    comments: [...files.comments.values()].reduce((n, l) => n + l.length, 0),
    pullRequests: files.pulls?.rows.length ?? 0,
    reviews: [...(files.pulls?.reviews.values() ?? [])].reduce((n, l) => n + l.length, 0),
    releases: files.releases?.records.length ?? 0,
  };
}
