import type { Env } from "../env.ts";
import { commitDiffOrPatch as rawCommitDiff } from "../../git/pull-diff.ts";
import type { UserRow } from "../../db/schema/index.ts";
import * as emails from "../../models/email.ts";
import * as users from "../../models/user.ts";
import { Conflict, Invalid, NotFound } from "../../lib/errors.ts";
import { cleanRelativePath } from "../../lib/path.ts";
import {
  isObjectId,
  isSafeRevision,
  isValidRefPattern,
  readCommit,
  readCommits,
  readNote,
  resolveRevision,
  objectInfo,
  type Commit,
} from "../../git/objects.ts";
import { countCommits, listCommitIds, mergeBase, type RevListQuery } from "../../git/log.ts";
import { diffStats, fileStatuses, type DiffStat, type FileStatus } from "../../git/diff.ts";
import { gitDirOf, type RepoContext } from "./lookup.ts";

/** Gitea's `[git] COMMITS_RANGE_SIZE`: the most commits one page of history holds. */
export const COMMITS_RANGE_SIZE = 50;

export const NOT_FOUND_MESSAGE = "The target couldn't be found.";

/** What a Commit JSON carries beyond the commit itself: each costs git work, so each can be off. */
export interface CommitOptions {
  stat: boolean;
  files: boolean;
  verification: boolean;
}

export interface Verification {
  verified: boolean;
  reason: string;
  signature: string;
  payload: string;
}

/** A commit with what the API shows around it: the hearth users behind its signatures, files, stats. */
export interface CommitView {
  commit: Commit;
  author: UserRow | undefined;
  committer: UserRow | undefined;
  files: FileStatus | undefined;
  stats: DiffStat | undefined;
  verification: Verification | undefined;
}

/**
 * Gitea's GetUserByEmail: an activated address of a user, or the no-reply address
 * `<name>@<NO_REPLY_ADDRESS>` of one.
 */
function userByEmail(env: Env, email: string, cache: Map<string, UserRow | undefined>): UserRow | undefined {
  const key = email.toLowerCase();
  if (cache.has(key)) return cache.get(key);
  let user: UserRow | undefined;
  if (key) {
    const row = emails.getEmail(env.db, key);
    if (row?.isActivated) user = users.getUserById(env.db, row.uid);
    const suffix = `@${env.settings.service.noReplyAddress.toLowerCase()}`;
    if (!user && key.endsWith(suffix)) user = users.getUserByName(env.db, key.slice(0, -suffix.length));
  }
  cache.set(key, user);
  return user;
}

/**
 * Signature verification as far as hearth can go without GPG/SSH keys: an unsigned commit is
 * Gitea's `not_signed_commit`; a signed one is reported with its signature and payload as
 * `no_gpg_keys_found`, what Gitea says when no registered key matches.
 */
function verify(c: Commit): Verification {
  if (!c.signature) return { verified: false, reason: "gpg.error.not_signed_commit", signature: "", payload: "" };
  return { verified: false, reason: "gpg.error.no_gpg_keys_found", signature: c.signature, payload: c.payload };
}

/** Dresses commits for the API: signature users (cached per call), and the parts `opts` asks for. */
export async function describe(env: Env, gitDir: string, commits: Commit[], opts: CommitOptions): Promise<CommitView[]> {
  const ids = commits.map((c) => c.oid);
  const [files, stats] = await Promise.all([
    opts.files ? fileStatuses(gitDir, ids) : undefined,
    opts.stat ? diffStats(gitDir, ids) : undefined,
  ]);
  const cache = new Map<string, UserRow | undefined>();
  return commits.map((c) => ({
    commit: c,
    author: userByEmail(env, c.author.email, cache),
    committer: userByEmail(env, c.committer.email, cache),
    files: files?.get(c.oid),
    stats: stats?.get(c.oid),
    verification: opts.verification ? verify(c) : undefined,
  }));
}

export interface CommitListQuery {
  sha?: string;
  path?: string;
  not?: string;
  since?: string;
  until?: string;
  page: number;
  limit: number;
}

export interface CommitPage {
  items: CommitView[];
  total: number;
  page: number;
  /** The page size the headers report (the `limit` asked, capped at COMMITS_RANGE_SIZE). */
  limit: number;
}

/** A user value git may see as a `--since=`/`--until=` argument or a path: one printable line. */
function safeArgument(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  return value.length <= 4096 && !/[\x00-\x1f\x7f]/.test(value);
}

/**
 * Gitea's GetAllCommits. Without `path`: the history of `sha` (default: the HEAD branch), paged by
 * `limit`. With `path`: the commits of `sha` (default: the default branch) touching it, in pages of
 * COMMITS_RANGE_SIZE whatever `limit` says (Gitea's documented quirk), 404 `FileCommitsCount` when
 * there are none; a path that cleans to the root (`..`) is no path. `not` excludes a revision's history; `since`/`until` filter by commit date.
 */
export async function listCommits(env: Env, rc: RepoContext, q: CommitListQuery, opts: CommitOptions): Promise<CommitPage> {
  if (rc.repo.isEmpty) throw new Conflict("Git Repository is empty.");
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const page = Math.max(1, q.page);
  const limit = Math.min(q.limit, COMMITS_RANGE_SIZE);
  // Gitea cleans the path (PathJoinRelX): `..` and absolute paths stay inside the repository.
  const path = cleanRelativePath(q.path ?? "");
  for (const v of [q.since, q.until, path]) if (v && !safeArgument(v)) throw new NotFound(NOT_FOUND_MESSAGE);

  const rev = q.sha || (path ? rc.repo.defaultBranch : "HEAD");
  const from = await resolveRevision(gitDir, rev, "commit");
  if (!from) throw new NotFound(NOT_FOUND_MESSAGE);
  const not: string[] = [];
  if (q.not) {
    const excluded = await resolveRevision(gitDir, q.not, "commit");
    if (!excluded) throw new NotFound(NOT_FOUND_MESSAGE);
    not.push(excluded);
  }
  const query: RevListQuery = { from: [from], not, since: q.since || undefined, until: q.until || undefined, paths: path ? [path] : [] };

  const total = await countCommits(gitDir, query);
  if (path && total === 0) throw new NotFound("FileCommitsCount");
  const size = path ? COMMITS_RANGE_SIZE : limit;
  const ids = await listCommitIds(gitDir, query, (page - 1) * size, size);
  const items = await describe(env, gitDir, await readCommits(gitDir, ids), opts);
  return { items, total, page, limit };
}

/** Gitea's GetSingleCommit: 422 for what cannot be a ref or sha, 404 (message: the input) when unknown. */
export async function getCommit(env: Env, rc: RepoContext, identifier: string, opts: CommitOptions): Promise<CommitView> {
  if (!isValidRefPattern(identifier)) throw new Invalid(`no valid ref or sha: ${identifier}`);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const commit = isSafeRevision(identifier) ? await readCommit(gitDir, identifier) : undefined;
  if (!commit) throw new NotFound(identifier);
  return (await describe(env, gitDir, [commit], opts))[0]!;
}

/** Gitea's DownloadCommitDiffOrPatch: one commit's diff or mail-formatted patch, 404 when the sha names no commit. */
export async function commitDiffOrPatch(env: Env, rc: RepoContext, identifier: string, patch: boolean): Promise<Buffer> {
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const commit = isValidRefPattern(identifier) && isSafeRevision(identifier) ? await readCommit(gitDir, identifier) : undefined;
  if (!commit) throw new NotFound(identifier);
  return rawCommitDiff(gitDir, commit.oid, commit.parents[0], patch);
}

/**
 * Gitea's UnstableGuessRefByShortName, peeled to a commit: a branch, then a tag, then a full ref
 * name, then a commit id or a prefix of one.
 */
async function guessCommit(gitDir: string, name: string): Promise<string | undefined> {
  if (!name || !isSafeRevision(name)) return undefined;
  if (isValidRefPattern(name)) {
    for (const ref of [`refs/heads/${name}`, `refs/tags/${name}`]) {
      const sha = await resolveRevision(gitDir, ref, "commit");
      if (sha) return sha;
    }
    if (name.startsWith("refs/")) {
      const sha = await resolveRevision(gitDir, name, "commit");
      if (sha) return sha;
    }
  }
  if (/^[0-9a-f]{4,64}$/.test(name)) {
    const sha = await resolveRevision(gitDir, name, "commit");
    if (sha?.startsWith(name)) return sha;
  }
  return undefined;
}

export interface Comparison {
  commits: CommitView[];
}

/**
 * Gitea's CompareDiff: `base...head` or `base..head` (both mean "from the merge base"), or a lone
 * `head` against the default branch; the commits of head since the merge base, newest first
 * (none when the histories are unrelated), each with stats. The head may name this repository as
 * `owner:branch` or `owner/repo:branch`; comparing with another repository (a fork) is not
 * supported yet and answers 404.
 */
export async function compareCommits(
  env: Env,
  rc: RepoContext,
  basehead: string,
  opts: Omit<CommitOptions, "stat">,
): Promise<Comparison> {
  if (rc.repo.isEmpty) throw new NotFound("Git Repository is empty.");
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const fullName = `${rc.owner.name}/${rc.repo.name}`;
  let infos = [rc.repo.defaultBranch, rc.repo.defaultBranch];
  if (basehead !== "") {
    const three = basehead.indexOf("...");
    const two = basehead.indexOf("..");
    if (three >= 0) infos = [basehead.slice(0, three), basehead.slice(three + 3)];
    else if (two >= 0) infos = [basehead.slice(0, two), basehead.slice(two + 2)];
    else infos = [rc.repo.defaultBranch, basehead];
  }
  const [base, headSpec] = infos as [string, string];

  const parts = headSpec.split(":");
  if (parts.length > 2) throw new NotFound(`must contain zero or one colon (:) but contains ${parts.length - 1}`);
  let head = headSpec;
  if (parts.length === 2) {
    const [where, branch] = parts as [string, string];
    const [ownerName, repoName] = where.includes("/") ? where.split("/", 2) : [where, rc.repo.name];
    const sameRepo =
      ownerName!.toLowerCase() === rc.owner.name.toLowerCase() && repoName!.toLowerCase() === rc.repo.name.toLowerCase();
    if (!sameRepo) {
      if (!users.getUserByName(env.db, ownerName!)) throw new NotFound(`the owner ${ownerName} does not exist`);
      throw new NotFound(`comparing with another repository (${where}) is not supported`);
    }
    head = branch;
  }

  const baseSha = await guessCommit(gitDir, base);
  if (!baseSha) throw new NotFound(`could not find '${base}' to be a commit, branch or tag in the base repository ${fullName}`);
  const headSha = await guessCommit(gitDir, head);
  if (!headSha) throw new NotFound(`could not find '${head}' to be a commit, branch or tag in the head repository ${fullName}`);

  const mb = await mergeBase(gitDir, baseSha, headSha);
  if (!mb) return { commits: [] };
  const query: RevListQuery = { from: [headSha], not: [mb] };
  const total = await countCommits(gitDir, query);
  const ids = await listCommitIds(gitDir, query, 0, total);
  const commits = await describe(env, gitDir, await readCommits(gitDir, ids), { ...opts, stat: true });
  return { commits };
}

/**
 * Gitea's GetNote: the note refs/notes/commits holds for the object `identifier` names, with the
 * notes-history commit that last touched it (stats always on).
 */
export async function getNote(
  env: Env,
  rc: RepoContext,
  identifier: string,
  opts: Omit<CommitOptions, "stat">,
): Promise<{ message: string; commit: CommitView }> {
  if (!isValidRefPattern(identifier)) throw new Invalid(`no valid ref or sha: ${identifier}`);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const target = isSafeRevision(identifier) ? await objectInfo(gitDir, identifier) : undefined;
  if (!target || !isObjectId(target.oid)) throw new NotFound(NOT_FOUND_MESSAGE);
  const note = await readNote(gitDir, target.oid);
  if (!note) throw new NotFound(identifier);
  const commit = await readCommit(gitDir, note.commit);
  if (!commit) throw new NotFound(identifier);
  const [view] = await describe(env, gitDir, [commit], { ...opts, stat: true });
  return { message: note.message.toString("utf8"), commit: view! };
}
