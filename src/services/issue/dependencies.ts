import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { CommentType, type IssueRow, type RepoRow, type UserRow } from "../../db/schema/index.ts";
import * as issues from "../../models/issue.ts";
import * as deps from "../../models/dependency.ts";
import { Conflict, Invalid, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { resolveRepo, type RepoContext } from "../repo/lookup.ts";
import { issueAccess, type IssueAccess } from "./access.ts";
import { unitOf, type IssueContext } from "./lookup.ts";
import { recordActivity } from "./touch.ts";
import type { IssueView } from "./view.ts";
import { ghostUser } from "../user/profile.ts";
import type { SignedIn } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";

/** Gitea's IsDependenciesEnabled: the issues unit's setting (its default, on, when the unit is off). */
export function dependenciesEnabled(repo: RepoRow): boolean {
  return !repo.hasIssues || repo.enableIssueDependencies;
}

/** An issue and the repository it lives in, as the doer may see it. */
export type IssueInRepo = IssueContext;

/** `IssueMeta` of a request body: an issue by owner, repository name and number. */
export interface IssueRef {
  owner: string;
  repo: string;
  index: number;
}

/**
 * Gitea's getFormIssue: the issue named by the body, in this repository when owner and name are
 * exactly its own, else in the repository they name (cross-repository dependencies are allowed,
 * Gitea's default). A repository or issue that does not exist, or that the doer cannot see, is 404.
 */
export function issueOfRef(env: Env, doer: UserRow, here: RepoContext, ref: IssueRef): IssueInRepo {
  let rc = here;
  if (ref.owner !== here.repo.ownerName || ref.repo !== here.repo.name) {
    try {
      rc = resolveRepo(env, doer, ref.owner, ref.repo);
    } catch {
      // Gitea looks the repository up by its current name only: a former name finds nothing.
      throw new NotFound();
    }
  }
  const issue = Number.isSafeInteger(ref.index) ? issues.getIssueByIndex(env.db, rc.repo.id, ref.index) : undefined;
  if (!issue) throw new NotFound();
  return { ...rc, issue };
}

/**
 * Gitea's createIssueDependency checks, all answered 404: dependencies enabled on the blocked
 * issue's (not archived) repository, the doer writes the blocked issue's unit, reads the blocker's.
 * Gitea checks the blocker against the blocked issue's repository; we check its own.
 */
function requireChangeable(blocked: IssueInRepo, blocker: IssueInRepo): void {
  if (blocked.repo.isArchived || !dependenciesEnabled(blocked.repo)) throw new NotFound();
  if (!blocked.perm.canWrite(unitOf(blocked.issue))) throw new NotFound();
  if (!blocker.perm.canRead(unitOf(blocker.issue))) throw new NotFound();
}

/** Both issues of a dependency after a change (their update times moved). */
export interface DependencyPair {
  blocked: IssueRow;
  blocker: IssueRow;
}

/**
 * Makes `blocked` depend on `blocker`, with an "add_dependency" event on each. Gitea answers an
 * existing or circular dependency with a 500; we answer 409 with its message. An issue depending on
 * itself (which Gitea's API would store, leaving the issue impossible to close) is refused with the
 * web interface's message. One of the two is the request's checked issue (the path's: the blocked
 * one on `/dependencies`, the blocker on `/blocks`); the other, named by the body and perhaps in
 * another repository, is held to the rules here (requireChangeable).
 */
export function addDependency(env: Env, doer: Doer, blocked: SignedIn<IssueInRepo>, blocker: IssueInRepo): DependencyPair;
export function addDependency(env: Env, doer: Doer, blocked: IssueInRepo, blocker: SignedIn<IssueInRepo>): DependencyPair;
export function addDependency(env: Env, doer: Doer, blocked: IssueInRepo, blocker: IssueInRepo): DependencyPair {
  requireChangeable(blocked, blocker);
  const a = blocked.issue;
  const b = blocker.issue;
  if (a.id === b.id) throw new Invalid("You cannot make an issue depend on itself.");
  return writeTx(env.db, (tx) => {
    if (deps.dependencyExists(tx, a.id, b.id)) {
      throw new Conflict(`issue dependency does already exist [issue id: ${a.id}, dependency id: ${b.id}]`);
    }
    if (deps.dependencyExists(tx, b.id, a.id)) {
      throw new Conflict(`circular dependencies exists (two issues blocking each other) [issue id: ${a.id}, dependency id: ${b.id}]`);
    }
    deps.insertDependency(tx, { userId: doer.id, issueId: a.id, dependencyId: b.id, unix: nowUnix() });
    recordActivity(tx, a, doer, CommentType.AddDependency, { dependentIssueId: b.id });
    recordActivity(tx, b, doer, CommentType.AddDependency, { dependentIssueId: a.id });
    return { blocked: issues.getIssueById(tx, a.id)!, blocker: issues.getIssueById(tx, b.id)! };
  });
}

/** Removes the dependency, with a "remove_dependency" event on each; a missing one is 404 (Gitea: 500). */
export function removeDependency(env: Env, doer: Doer, blocked: SignedIn<IssueInRepo>, blocker: IssueInRepo): DependencyPair;
export function removeDependency(env: Env, doer: Doer, blocked: IssueInRepo, blocker: SignedIn<IssueInRepo>): DependencyPair;
export function removeDependency(env: Env, doer: Doer, blocked: IssueInRepo, blocker: IssueInRepo): DependencyPair {
  requireChangeable(blocked, blocker);
  const a = blocked.issue;
  const b = blocker.issue;
  return writeTx(env.db, (tx) => {
    if (!deps.deleteDependency(tx, a.id, b.id)) {
      throw new NotFound(`issue dependency does not exist [issue id: ${a.id}, dependency id: ${b.id}]`);
    }
    recordActivity(tx, a, doer, CommentType.RemoveDependency, { dependentIssueId: b.id });
    recordActivity(tx, b, doer, CommentType.RemoveDependency, { dependentIssueId: a.id });
    return { blocked: issues.getIssueById(tx, a.id)!, blocker: issues.getIssueById(tx, b.id)! };
  });
}

/**
 * A blocker as the doer may see it: in full when they read it; otherwise, for writers of the
 * blocked issue, an issue with only its number, title, state and repository ("confidential"), and
 * for everyone else one titled HIDDEN — Gitea's three cases.
 */
export type BlockerView = { kind: "full" | "confidential"; view: IssueView } | { kind: "hidden"; poster: UserRow };

/** What of an unreadable blocker a writer of the blocked issue is shown (Gitea's confidentialBlocker). */
function confidential(issue: IssueRow, rc: RepoContext): IssueView {
  const redacted: IssueRow = {
    ...issue,
    id: 0,
    posterId: 0,
    originalAuthor: "",
    originalAuthorId: 0,
    content: "",
    contentVersion: 0,
    milestoneId: 0,
    priority: 0,
    numComments: 0,
    ref: "",
    pinOrder: 0,
    deadlineUnix: 0,
    isLocked: false,
    timeEstimate: 0,
    createdUnix: 0,
    updatedUnix: 0,
    closedUnix: 0,
  };
  return { issue: redacted, repo: rc.repo, owner: rc.owner, poster: ghostUser(), labels: [], milestone: undefined, assignees: [], attachments: [] };
}

/** Gitea's GetIssueDependencies: the issues blocking this one, a page at a time; 404 when dependencies are off. */
export function listBlockers(
  env: Env,
  doer: UserRow | undefined,
  ic: IssueContext,
  page: { offset: number; limit: number },
): BlockerView[] {
  if (!dependenciesEnabled(ic.repo)) throw new NotFound();
  const access = issueAccess(env, doer, [ic]);
  const writer = ic.perm.canWrite(unitOf(ic.issue));
  const rows = deps.blockersOf(env.db, ic.issue, page).filter((i) => access.repo(i.repoId));
  const full = new Map(access.views(rows.filter((i) => access.canRead(i))).map((v) => [v.issue.id, v]));
  return rows.map((issue): BlockerView => {
    const view = full.get(issue.id);
    if (view) return { kind: "full", view };
    return writer ? { kind: "confidential", view: confidential(issue, access.repo(issue.repoId)!) } : { kind: "hidden", poster: ghostUser() };
  });
}

/** Gitea's GetIssueBlocks: the issues this one blocks that the doer reads, a page of all of them. */
export function listBlocked(
  env: Env,
  doer: UserRow | undefined,
  ic: IssueContext,
  page: { offset: number; limit: number },
): IssueView[] {
  const access: IssueAccess = issueAccess(env, doer, [ic]);
  // Gitea pages over every dependent issue and then drops the unreadable ones, so a page may be short.
  const rows = deps.blockedBy(env.db, ic.issue).slice(page.offset, page.offset + page.limit);
  return access.views(rows.filter((i) => access.canRead(i)));
}
