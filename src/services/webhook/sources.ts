/**
 * What the webhook notifier (notifier/) reads to build Gitea's payloads: the current rows
 * behind an event and the views the converters take, kept apart from the payload building so
 * that the notifier holds no queries. Payloads show things as they are once the change committed, as
 * Gitea's notifier (which reloads before converting) does.
 */
import { getPullMirrorByRepo } from "../../models/pull-mirror.ts";
import type { Env } from "../env.ts";
import { AccessMode, CommentType, ReviewType, type CommentRow, type ReviewRow, type IssueRow, type PullMirrorRow, type ReleaseRow, type RepoRow, type UserRow } from "../../db/schema/index.ts";
import * as repos from "../../models/repo.ts";
import * as users from "../../models/user.ts";
import * as issues from "../../models/issue.ts";
import { getPullByIssueId } from "../../models/pull.ts";
import { RepoPermission, repoPermission } from "../access/permission.ts";
import { readCommits } from "../../git/objects.ts";
import { fileStatuses } from "../../git/diff.ts";
import { gitDirOf, repoTopics } from "../repo/lookup.ts";
import { issueView, type IssueView } from "../issue/view.ts";
import { commentViews, type CommentView } from "../issue/comments.ts";
import { pullView, type PullView } from "../pull/view.ts";
import { viewOf, type ReleaseView } from "../release/releases.ts";
import type { PushedCommit } from "../events/repo-events.ts";
import type { HookEventType } from "./event-types.ts";
import { anyActiveHookMayApply, hooksForOwner, hooksForRepo } from "../../models/webhook.ts";
import { hookWants } from "./hook-events.ts";
import { findUserByEmail } from "../user/lookup.ts";
import { eventPackageView, type PackageView } from "../packages/api.ts";
import type { PackageRow, PackageVersionRow } from "../../db/schema/index.ts";

/** A repository as a payload shows it: Gitea renders it with a given access (owner, none, or the doer's). */
export interface PayloadRepo {
  repo: RepoRow;
  owner: UserRow;
  perm: RepoPermission;
  topics: string[];
  /** A pull mirror's row, for the JSON's mirror_interval and mirror_updated. */
  mirror?: PullMirrorRow;
  /** A fork's parent, with the same access (Gitea's innerToRepo). */
  parent?: PayloadRepo;
}

export type PayloadAccess = "owner" | "none" | { doer: UserRow | undefined };

/** The repository's row and owner as they are now; undefined once it is gone. */
export function currentRepo(env: Env, repoId: number): { repo: RepoRow; owner: UserRow } | undefined {
  const repo = repos.getRepoById(env.db, repoId);
  const owner = repo && users.getUserById(env.db, repo.ownerId);
  return repo && owner ? { repo, owner } : undefined;
}

export function payloadRepo(env: Env, repo: RepoRow, owner: UserRow, access: PayloadAccess, withParent = true): PayloadRepo {
  const perm =
    access === "owner"
      ? new RepoPermission(AccessMode.Owner, repo)
      : access === "none"
        ? new RepoPermission(AccessMode.None, repo)
        : repoPermission(env, access.doer, repo, owner);
  const view: PayloadRepo = { repo, owner, perm, topics: repoTopics(env, repo.id), mirror: repo.isMirror ? getPullMirrorByRepo(env.db, repo.id) : undefined };
  if (withParent && repo.isFork && repo.forkId) {
    const parent = currentRepo(env, repo.forkId);
    if (parent) view.parent = { ...payloadRepo(env, parent.repo, parent.owner, access, false), perm: perm.withRepo(parent.repo) };
  }
  return view;
}

export function userById(env: Env, id: number): UserRow | undefined {
  return users.getUserById(env.db, id);
}

/** The issue as it is now (a deleted one as it was last seen). */
export function currentIssueView(env: Env, repo: RepoRow, owner: UserRow, issue: IssueRow): IssueView {
  return issueView(env, repo, owner, issues.getIssueById(env.db, issue.id) ?? issue);
}

/** The pull request of an issue, as its JSON shows it to `doer`; undefined when it is gone. */
export async function currentPullView(env: Env, repo: RepoRow, owner: UserRow, issue: IssueRow, doer: UserRow | undefined): Promise<PullView | undefined> {
  const pull = getPullByIssueId(env.db, issue.id);
  if (!pull) return undefined;
  return pullView(env, doer, { repo, owner }, pull, issues.getIssueById(env.db, issue.id) ?? issue);
}

/** Gitea's CreateIssueComment notification is for plain comments only (reviews announce themselves). */
export function isPlainComment(comment: CommentRow): boolean {
  return comment.type === CommentType.Comment;
}

export function commentView(env: Env, repo: RepoRow, owner: UserRow, comment: CommentRow, issue: IssueRow): CommentView {
  return commentViews(env, { repo, owner }, [comment], [issue])[0]!;
}

export function releaseView(env: Env, release: ReleaseRow): ReleaseView {
  return viewOf(env, release);
}

/** A commit with the files it changes, for the status payload; undefined when it cannot be read. */
export async function commitWithFiles(env: Env, repo: RepoRow, owner: UserRow, sha: string): Promise<PushedCommit | undefined> {
  const gitDir = gitDirOf(env, owner, repo);
  const [commit] = await readCommits(gitDir, [sha]);
  if (!commit) return undefined;
  const f = (await fileStatuses(gitDir, [sha])).get(sha) ?? { added: [], removed: [], modified: [] };
  return { commit, added: f.added, removed: f.removed, modified: f.modified };
}

/** The account names behind commit emails (Gitea's GetUserByEmail for `username`); "" when none. */
export function usernamesByEmail(env: Env, emails: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const email of new Set(emails)) {
    const user = findUserByEmail(env, email);
    out.set(email, user ? user.name : "");
  }
  return out;
}

/** Gitea's PullRequestReview notifier: the hook event of a submitted review; none for other types. */
export function reviewHookEvent(review: ReviewRow): HookEventType | undefined {
  if (review.type === ReviewType.Approve) return "pull_request_review_approved";
  if (review.type === ReviewType.Reject) return "pull_request_review_rejected";
  if (review.type === ReviewType.Comment) return "pull_request_review_comment";
  return undefined;
}

/**
 * Whether any active hook could hear of the repository's events at all, before its row and owner
 * are looked up (whatever owns it now): false on a site with no hooks for it, owners' and the
 * site's included.
 */
export function mayHaveHooks(env: Env, repoId: number): boolean {
  return anyActiveHookMayApply(env.db, repoId);
}

/**
 * Whether some active hook of the repository, its owner or the site wants the event: payloads
 * (which may read git) are built only then. fireEvent makes the final choice per hook.
 */
export function anyHookWants(env: Env, repo: Pick<RepoRow, "id" | "ownerId">, event: HookEventType, branch?: string): boolean {
  return hooksForRepo(env.db, repo.id, repo.ownerId).some((h) => hookWants(h, event, branch));
}

/**
 * Whether some active hook of the owner or the site wants an event that has no repository (a
 * package not linked to one).
 */
export function anyOwnerHookWants(env: Env, ownerId: number, event: HookEventType): boolean {
  return hooksForOwner(env.db, ownerId).some((h) => hookWants(h, event));
}

/** A package version of an event as `viewer` sees it (a removed one from the event's rows). */
export function packageEventView(env: Env, viewer: UserRow, owner: UserRow, pkg: PackageRow, version: PackageVersionRow): PackageView {
  return eventPackageView(env, viewer, owner, pkg, version);
}
