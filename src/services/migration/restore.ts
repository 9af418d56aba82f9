import { join } from "node:path";
import type { Env } from "../env.ts";
import { writeTx, type Tx } from "../../db/client.ts";
import { RepoStatus, UserType, type RepoRow, type UserRow } from "../../db/schema/index.ts";
import * as data from "../../models/migration.ts";
import * as branchModel from "../../models/branch.ts";
import { setRepoTopics } from "../../models/topic.ts";
import { getRepoByOwner, updateRepo } from "../../models/repo.ts";
import { getUserByName } from "../../models/user.ts";
import { dropBranchesAndTags, fetchBranchesAndTags } from "../../git/mirror.ts";
import { readBranchHeads, type BranchHead } from "../../git/refs.ts";
import { setHead } from "../../git/repo-init.ts";
import { repoSizeBytes } from "../../git/maintenance.ts";
import { Conflict, Invalid, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { createRepo } from "../repo/create.ts";
import { repoEvents } from "../events/repo-events.ts";
import { discardRepo } from "../repo/delete.ts";
import { asSystem } from "../access/repo-access.ts";
import { gitDirOf } from "../repo/lookup.ts";
import { FILES, deadlineUnix, parseRFC3339, type DumpCounts, type Unit } from "./format.ts";
import { COMMENT_TYPES, loadDump, type LoadedDump } from "./load.ts";
import { insertPulls, preparePulls, pullTitle, type PreparedPull, type PreparedReview } from "./pull-restore.ts";
import { discardReleaseFiles, insertReleases, prepareReleases, type AuthorOf, type PreparedRelease } from "./release-restore.ts";

export interface RestoreInput {
  /** `--repo_dir`: the dump's own directory (the one holding repo.yml), as Gitea's restore-repo reads it. */
  repoDir: string;
  ownerName: string;
  repoName: string;
  units: Set<Unit>;
}

export interface RestoreSummary extends DumpCounts {
  fullName: string;
  created: boolean;
  branches: number;
}

const GHOST_ID = -1;

/**
 * Gitea's remapLocalUser (a dump of this instance): a dumped user id is this instance's account when the account exists under
 * the same name (case-insensitively); anyone else is recorded as the Ghost with their original name
 * and id, as Gitea 1.25 does for people it cannot match.
 */
function authorMapper(tx: Tx, dump: LoadedDump, people: PeopleMapping): AuthorOf {
  if (people === "ghost") {
    // Another forge's ids name nobody here: everyone keeps their name and id as the original author.
    return (id, name) => (id === GHOST_ID ? { posterId: GHOST_ID, originalAuthor: "", originalAuthorId: 0 } : { posterId: GHOST_ID, originalAuthor: name ?? "", originalAuthorId: id });
  }
  const ids: number[] = (dump.releases ?? []).map((r) => r.record.publisher_id);
  for (const i of [...(dump.issues ?? []), ...(dump.pulls ?? []).map((p) => p.record)]) {
    ids.push(i.poster_id, ...(i.reactions ?? []).map((r) => r.user_id));
  }
  for (const list of dump.reviews.values()) {
    for (const r of list) {
      ids.push(r.reviewer_id);
      for (const cm of r.comments ?? []) ids.push(cm.poster_id, ...(cm.reactions ?? []).map((x) => x.user_id));
    }
  }
  for (const list of dump.comments.values()) {
    for (const cm of list) ids.push(cm.poster_id, ...(cm.reactions ?? []).map((r) => r.user_id));
  }
  const accounts = data.usersByIds(tx, ids);
  return (id, name) => {
    if (id === GHOST_ID) return { posterId: GHOST_ID, originalAuthor: "", originalAuthorId: 0 };
    const u = accounts.get(id);
    // A reaction may omit user_name (reaction.json only requires user_id): the id alone decides then.
    if (u && u.type === UserType.Individual && (name === undefined || u.lowerName === name.toLowerCase())) {
      return { posterId: u.id, originalAuthor: "", originalAuthorId: 0 };
    }
    return { posterId: GHOST_ID, originalAuthor: name ?? "", originalAuthorId: id };
  };
}

const time = (value: string): number => parseRFC3339(value)!;
const optionalTime = (value: string | null | undefined): number => (value ? time(value) : 0);

/** The default branch: repo.yml's when the dump has it, else the mirror's HEAD, else the first branch. */
function chooseDefaultBranch(dump: LoadedDump, fallback: string): string {
  const { branches, head } = dump.git;
  if (dump.defaultBranch && branches.includes(dump.defaultBranch)) return dump.defaultBranch;
  if (head && branches.includes(head)) return head;
  return branches[0] ?? (dump.defaultBranch || fallback);
}

interface ImportContext {
  repo: RepoRow;
  dump: LoadedDump;
  units: Set<Unit>;
  heads: BranchHead[];
  defaultBranch: string;
  doer: UserRow;
  orgLabels: Map<string, { id: number }>;
  releases: PreparedRelease[];
  pulls?: { pulls: PreparedPull[]; reviews: PreparedReview[] };
  people: PeopleMapping;
}

/** Every row of the restore, in the caller's one transaction. */
function importRows(tx: Tx, ctx: ImportContext): Omit<RestoreSummary, "fullName" | "created"> {
  const { repo, dump, units } = ctx;
  const now = nowUnix();
  branchModel.replaceBranches(
    tx,
    repo.id,
    ctx.heads.map((h) => ({ name: h.name, commitId: h.commitId, commitMessage: h.subject, commitUnix: h.commitUnix, pusherId: ctx.doer.id })),
    now,
  );
  updateRepo(tx, repo.id, { isEmpty: ctx.heads.length === 0, defaultBranch: ctx.defaultBranch, updatedUnix: now });
  if (dump.topics) setRepoTopics(tx, repo.id, dump.topics);

  const milestoneIds = new Map<string, number>();
  for (const m of dump.milestones ?? []) {
    const row = data.insertMilestoneRow(tx, {
      repoId: repo.id,
      name: m.title,
      content: m.description,
      isClosed: m.state === "closed",
      deadlineUnix: deadlineUnix(m.deadline),
      closedDateUnix: optionalTime(m.closed),
      createdUnix: time(m.created),
      updatedUnix: time(m.updated),
    });
    milestoneIds.set(m.title, row.id);
  }
  const labelIds = new Map<string, number>();
  for (const l of dump.labels ?? []) {
    const row = data.insertLabelRow(tx, {
      repoId: repo.id,
      name: l.name,
      exclusive: l.exclusive ?? false,
      color: l.color,
      description: l.description ?? "",
      createdUnix: now,
      updatedUnix: now,
    });
    labelIds.set(l.name, row.id);
  }

  const author = authorMapper(tx, dump, ctx.people);
  const pullRecords = (ctx.pulls?.pulls ?? []).map((p) => p.loaded.record);
  const assignees = data.individualsByNames(
    tx,
    [...(dump.issues ?? []), ...pullRecords].flatMap((i) => i.assignees ?? []),
  );
  const issueIds = new Map<number, number>();
  const orgLabelsUsed: number[] = [];
  let maxNumber = 0;
  // Issues and pull requests alike: a pull request is an issue row (is_pull) with a pull_request row beside it.
  const trackerItems = [
    ...(dump.issues ?? []).map((issue) => ({ issue, isPull: false, title: issue.title, ref: issue.ref ?? "" })),
    ...pullRecords.map((pr) => ({ issue: pr, isPull: true, title: pullTitle(pr.title, pr.is_draft), ref: "" })),
  ];
  for (const { issue, isPull, title, ref } of trackerItems) {
    const row = data.insertIssueRow(tx, {
      repoId: repo.id,
      index: issue.number,
      ...author(issue.poster_id, issue.poster_name),
      title,
      content: issue.content,
      ref,
      isPull,
      milestoneId: (units.has("milestones") && issue.milestone && milestoneIds.get(issue.milestone)) || 0,
      isClosed: issue.state === "closed",
      isLocked: issue.is_locked,
      createdUnix: time(issue.created),
      updatedUnix: time(issue.updated),
      closedUnix: optionalTime(issue.closed),
    });
    issueIds.set(issue.number, row.id);
    maxNumber = Math.max(maxNumber, issue.number);
    if (units.has("labels")) {
      const ids = (issue.labels ?? []).map((l) => {
        const own = labelIds.get(l.name);
        if (own !== undefined) return own;
        const org = ctx.orgLabels.get(l.name)!.id;
        orgLabelsUsed.push(org);
        return org;
      });
      data.linkIssueLabels(tx, row.id, ids);
    }
    // Gitea's uploader likewise drops assignees who have no account here.
    data.linkAssignees(
      tx,
      row.id,
      (issue.assignees ?? []).flatMap((name) => assignees.get(name.toLowerCase())?.id ?? []),
    );
    for (const r of issue.reactions ?? []) {
      const who = author(r.user_id, r.user_name);
      data.insertReactionRow(tx, {
        type: r.content,
        issueId: row.id,
        userId: who.posterId,
        originalAuthor: who.originalAuthor,
        originalAuthorId: who.originalAuthorId,
        createdUnix: now,
      });
    }
  }
  if (ctx.pulls) insertPulls(tx, repo.id, ctx.doer.id, ctx.pulls, issueIds, author, now);

  let commentCount = 0;
  for (const [issueNumber, list] of dump.comments) {
    const issueId = issueIds.get(issueNumber)!;
    for (const cm of list) {
      const type = COMMENT_TYPES[cm.comment_type || "comment"]!;
      const row = data.insertCommentRow(tx, {
        type,
        issueId,
        ...author(cm.poster_id, cm.poster_name),
        content: cm.content,
        oldTitle: type === COMMENT_TYPES.change_title ? String(cm.meta?.OldTitle ?? "") : "",
        newTitle: type === COMMENT_TYPES.change_title ? String(cm.meta?.NewTitle ?? "") : "",
        createdUnix: time(cm.created),
        updatedUnix: time(cm.updated),
      });
      commentCount++;
      for (const r of cm.reactions ?? []) {
        const who = author(r.user_id, r.user_name);
        data.insertReactionRow(tx, {
          type: r.content,
          issueId,
          commentId: row.id,
          userId: who.posterId,
          originalAuthor: who.originalAuthor,
          originalAuthorId: who.originalAuthorId,
          createdUnix: now,
        });
      }
    }
  }
  insertReleases(tx, repo.id, ctx.releases, author);
  if (maxNumber > 0) data.raiseIssueIndex(tx, repo.id, maxNumber);
  data.recountAfterRestore(tx, repo.id, orgLabelsUsed);
  return {
    branches: ctx.heads.length,
    milestones: dump.milestones?.length ?? 0,
    labels: dump.labels?.length ?? 0,
    issues: dump.issues?.length ?? 0,
    comments: commentCount,
    pullRequests: ctx.pulls?.pulls.length ?? 0,
    reviews: ctx.pulls?.reviews.length ?? 0,
    releases: ctx.releases.length,
  };
}

/** How a dump's people become accounts: `local` for a dump of this instance (id and name must match), `ghost` for any other source. */
export type PeopleMapping = "local" | "ghost";

export interface ImportInput {
  dir: string;
  owner: UserRow;
  /** Who creates the repository and is recorded as the pusher of its branches. */
  doer: UserRow;
  repoName: string;
  units: Set<Unit>;
  people: PeopleMapping;
  /** An empty repository to fill instead of creating one. */
  existing?: RepoRow;
  /** A new repository's settings beyond the dump's (a migration's choices). */
  create?: { description?: string; isPrivate?: boolean; originalUrl?: string; isMirror?: boolean };
  /** Runs in the import's own transaction after every row is written (a pull mirror's row). */
  finish?: (tx: Tx, repo: RepoRow) => void;
}

/**
 * Gitea's restore-repo: a dump made by `dump-repo` (or by Gitea) becomes a repository of this
 * instance, new or existing but empty (no git branches or tags, issues, pull requests, labels, milestones or releases).
 */
export async function restoreRepo(env: Env, input: RestoreInput): Promise<RestoreSummary> {
  const owner = getUserByName(env.db, input.ownerName);
  if (!owner) throw new NotFound(`owner ${input.ownerName} does not exist`);
  // Gitea restores as the first site administrator (GetAdminUser): the creator of the repository.
  const doer = data.firstAdmin(env.db);
  if (!doer) throw new Invalid("restore-repo needs a site administrator account to restore as");
  const existing = getRepoByOwner(env.db, owner.id, input.repoName);
  if (existing && !(existing.isEmpty && data.trackerIsEmpty(env.db, existing.id))) {
    throw new Conflict(`repository ${owner.name}/${existing.name} already exists and is not empty`);
  }
  const { summary } = await importDump(env, {
    dir: input.repoDir,
    owner,
    doer,
    repoName: input.repoName,
    units: input.units,
    people: "local",
    existing,
  });
  return summary;
}

/**
 * The one import path of restore-repo and migrations. Everything is checked first, every file
 * against its schema and every reference between files, and nothing is written when anything is
 * wrong. Then the repository is created if needed, the git data fetched into it (branches, tags
 * and the pull requests' heads), the release assets copied into storage, and every row written in
 * one transaction; a failure there deletes the repository this import created, or takes the
 * fetched branches out of the one it filled, and removes the copied assets.
 */
export async function importDump(env: Env, input: ImportInput): Promise<{ repo: RepoRow; summary: RestoreSummary }> {
  const { units, owner, doer, existing } = input;
  const orgLabels = owner.type === UserType.Organization ? data.orgLabelsByName(env.db, owner.id) : new Map();
  const dump = await loadDump(input.dir, { units, orgLabels: new Set(orgLabels.keys()) });
  if (existing && existing.objectFormat !== dump.git.objectFormat) {
    throw new Conflict(
      `repository ${owner.name}/${existing.name} uses ${existing.objectFormat} object names, the dump ${dump.git.objectFormat}`,
    );
  }

  const defaultBranch = chooseDefaultBranch(dump, existing?.defaultBranch ?? env.settings.repository.defaultBranch);
  const repo =
    existing ??
    (await createRepo(env, {
      owner,
      doer,
      name: input.repoName,
      description: input.create?.description ?? dump.description,
      isPrivate: input.create?.isPrivate ?? dump.isPrivate,
      defaultBranch,
      objectFormat: dump.git.objectFormat,
      originalUrl: input.create?.originalUrl,
      isMirror: input.create?.isMirror,
      beingMigrated: true,
    }));
  const path = gitDirOf(env, owner, repo);
  let releases: PreparedRelease[] = [];
  try {
    await fetchBranchesAndTags(path, join(input.dir, FILES.git));
    const heads = await readBranchHeads(path);
    if (heads.length) await setHead(path, defaultBranch);
    const pulls = dump.pulls && (await preparePulls(env, repo, path, join(input.dir, FILES.git), dump.pulls, dump.reviews));
    releases = await prepareReleases(env, path, dump.releases ?? []);
    const size = await repoSizeBytes(path);
    const counts = writeTx(env.db, (tx) => {
      const c = importRows(tx, { repo, dump, units, heads, defaultBranch, doer, orgLabels, releases, pulls, people: input.people });
      input.finish?.(tx, repo);
      // Ready with its rows and its size: a crash before this commit leaves it marked, and the next start removes it.
      if (existing) updateRepo(tx, repo.id, { size });
      else {
        const ready = updateRepo(tx, repo.id, { size, status: RepoStatus.Ready })!;
        repoEvents.emit(tx, env, { kind: "created", repo: ready, owner, doer });
      }
      return c;
    });
    return { repo, summary: { fullName: `${owner.name}/${repo.name}`, created: !existing, ...counts } };
  } catch (err) {
    discardReleaseFiles(env, releases);
    if (!existing) {
      // hearth undoing its own half-made repository: no request, nothing to check or announce.
      discardRepo(env, asSystem({ owner, repo }, { owner: true }));
    } else {
      await dropBranchesAndTags(path).catch(() => undefined);
      await setHead(path, existing.defaultBranch).catch(() => undefined);
    }
    throw err;
  }
}
