import { Forbidden, NotFound, Unauthorized } from "../../lib/errors.ts";
import { ReadRefused, RepoArchived, RepoIsMirror, WriteRefused } from "./refusals.ts";
import type { Doer, RepoPermission, RepoUnit } from "./permission.ts";
import type { RepoContext } from "../repo/lookup.ts";

/** A repository and its owner, without a doer's permission: what hearth acting on its own holds. */
export type RepoRef = Pick<RepoContext, "repo" | "owner">;

/**
 * What an operation needs of the repository it works on, declared once on the operation (or asked
 * by another front door) and checked by `checkRepoAccess` alone, in Gitea's order of refusals:
 * `read`, then `notArchived: "editor"`, then `doer`, then `write`/`admin`/`owner`, then
 * `notMirror`, then `notArchived: true`. Each field is one of Gitea's repository middlewares or
 * of the checks its handlers all make first.
 */
export interface RepoAccess {
  /**
   * A unit that must be readable (Gitea's reqRepoReader: 403, a repository admin passes), or
   * `"tracker"`: the issues or the pull requests readable (mustEnableIssuesOrPulls: 404), or
   * `"pulls"`: pull requests readable (404) and the code too (403).
   */
  read?: RepoUnit | "tracker";
  /** A signed-in doer, asked after the repository was found (reqToken inside the repository group: 401). */
  doer?: true;
  /**
   * A unit the doer must be able to write (reqRepoWriter: 403, a repository admin passes), or
   * `"tracker"`: the issues or the pull requests (reqRepoWriter(issues, pulls)); implies `doer`.
   */
  write?: WritableUnit;
  /** A repository administrator (reqAdmin: 403); implies `doer`. */
  admin?: true;
  /** The repository's owner, an owner of its organization or a site admin (reqOwner: 403); implies `doer`. */
  owner?: true;
  /**
   * Refuse an archived repository (423): `true` after the other checks (mustNotBeArchived),
   * `"editor"` before sign-in, in the file editor's words (mustEnableEditor: "repo is not allowed to
   * edit"), which refuses a pull mirror too (Gitea's CanEnableEditor).
   */
  notArchived?: true | "editor";
  /**
   * Refuse a pull mirror, whose refs only its remote moves (403): `true` in the API's words (the
   * branch handlers' "Git Repository is a mirror."), `"git"` in smart HTTP's ("mirror repository
   * is read-only", asked once the pusher may write).
   */
  notMirror?: true | "git";
}

/** Whether a declaration can only be met by a signed-in doer (so the handler may count on one). */
export function repoAccessNeedsDoer(need: RepoAccess): boolean {
  return Boolean(need.doer || need.write || need.admin || need.owner);
}

/** What a declaration may ask to write: one unit, or the tracker (issues or pull requests). */
export type WritableUnit = RepoUnit | "tracker";

function canWriteUnit(perm: RepoPermission, unit: WritableUnit): boolean {
  return unit === "tracker" ? perm.canWrite("issues") || perm.canWrite("pulls") : perm.canWrite(unit);
}

/** Gitea's CanEnablePulls: a mirror or an empty repository takes no pull requests, so its pull requests are not there. */
export const canEnablePulls = (repo: { isMirror: boolean; isEmpty: boolean }) => !repo.isMirror && !repo.isEmpty;

function requireRead(perm: RepoPermission, unit: RepoUnit | "tracker", repo: { isMirror: boolean; isEmpty: boolean }): void {
  if (unit === "tracker") {
    if (!perm.canRead("issues") && !(canEnablePulls(repo) && perm.canRead("pulls"))) throw new NotFound();
    return;
  }
  if (unit === "pulls") {
    if (!canEnablePulls(repo) || !perm.canRead("pulls")) throw new NotFound();
    unit = "code";
  }
  if (!perm.canRead(unit) && !perm.isAdmin()) throw new ReadRefused();
}

/**
 * Gitea's mustNotBeArchived (423), for a change checked apart from a declaration (a service that
 * refuses after validating its input, a handler ordering its checks by hand).
 */
export function requireNotArchived(rc: Pick<RepoContext, "repo" | "owner">): void {
  if (rc.repo.isArchived) throw new RepoArchived(`${rc.owner.name}/${rc.repo.name} is archived`);
}

/**
 * The proof that a repository's access was checked, carrying what was checked (`N`, the
 * declaration's literal type). The brand exists only in types: nothing outside this module can
 * name `checked`, so a value gets it from `checkRepoAccess` (the declared access of a request),
 * `permitsRepoAccess` (a second repository a service reaches, as a merge's head) or `asSystem`
 * (hearth acting on its own), never by accident. Services that change data ask for it in their
 * signature through the requirement types below.
 */
declare const checked: unique symbol;
export type Checked<N extends RepoAccess = RepoAccess> = { readonly [checked]: N };
export type CheckedRepo<N extends RepoAccess = RepoAccess> = RepoContext & Checked<N>;

/**
 * The check a context carries, for a context derived from it (the issue, pull request or comment
 * of a checked repository carries that repository's check); nothing for an unchecked one.
 */
export type CheckOf<R> = R extends Checked<infer N> ? Checked<N> : unknown;

/**
 * What a writer service needs: a context checked for writing `unit`, or for a repository
 * administrator or owner (reqAdmin and reqOwner pass every reqRepoWriter). A richer declaration
 * (`{ read: "code", write: "code", notArchived: true }`) satisfies `Writes<"code">`, since an
 * object type with more properties is assignable; `{ read: "code" }` does not.
 */
export type Writes<U extends WritableUnit, C extends RepoRef = RepoContext> = C & Checked<{ write: U } | { admin: true } | { owner: true }>;
/** A context checked for a repository administrator (reqAdmin, or reqOwner which implies it). */
export type Administers<C extends RepoRef = RepoContext> = C & Checked<{ admin: true } | { owner: true }>;
/** A context checked for the repository's owner (reqOwner). */
export type Owns<C extends RepoRef = RepoContext> = C & Checked<{ owner: true }>;
/** A context checked for a signed-in doer at least (the service applies its own rule, as a comment's poster). */
export type SignedIn<C extends RepoRef = RepoContext> = C & Checked<{ doer: true } | { write: WritableUnit } | { admin: true } | { owner: true }>;

/**
 * Applies a declaration to a repository the doer has found (the lookup already answered 404 for
 * one it may not see) and returns the context branded with what was checked.
 */
export function checkRepoAccess<R extends RepoContext, const N extends RepoAccess>(rc: R, doer: Doer | undefined, need: N): R & Checked<N> {
  const { perm } = rc;
  if (need.read) requireRead(perm, need.read, rc.repo);
  if (need.notArchived === "editor" && (rc.repo.isArchived || rc.repo.isMirror)) throw new RepoArchived("repo is not allowed to edit");
  if (repoAccessNeedsDoer(need) && !doer) throw new Unauthorized("token is required");
  if (need.write && !canWriteUnit(perm, need.write) && !perm.isAdmin()) throw new WriteRefused();
  if (need.admin && !perm.isAdmin()) throw new Forbidden("user should be an owner or a collaborator with admin write of a repository");
  if (need.owner && !perm.isOwner()) throw new Forbidden("user should be the owner of the repo");
  if (need.notMirror && rc.repo.isMirror) {
    throw new RepoIsMirror(need.notMirror === "git" ? "mirror repository is read-only" : "Git Repository is a mirror.");
  }
  if (need.notArchived === true) requireNotArchived(rc);
  return rc as R & Checked<N>;
}

/**
 * The same check as a question, for a repository a service reaches beyond the declared one (the
 * head of a pull request it merges): narrows `rc` to a checked context when the doer passes.
 */
export function permitsRepoAccess<R extends RepoContext, const N extends RepoAccess>(
  rc: R,
  doer: Doer | undefined,
  need: N,
): rc is R & Checked<N> {
  try {
    checkRepoAccess(rc, doer, need);
    return true;
  } catch {
    return false;
  }
}

/**
 * The same check as a statement, for a handler that asks part of its access by hand because Gitea
 * orders it differently than a declaration can (an archived repository refused before sign-in):
 * throws as `checkRepoAccess` does, and from there on `rc` is checked.
 */
export function assertRepoAccess<R extends RepoContext, const N extends RepoAccess>(
  rc: R,
  doer: Doer | undefined,
  need: N,
): asserts rc is R & Checked<N> {
  checkRepoAccess(rc, doer, need);
}

/**
 * The escape hatch for hearth acting on its own, not for a request: the git hooks' post-receive
 * (git's door checked the push), restoring a dump, the scheduler acting for a user whose access
 * was checked when the work was scheduled (automerge). `need` names what the caller acts as; no
 * check is made. Never called from `http/` handlers, which get their contexts from their
 * declarations (test/architecture.test.ts).
 */
export function asSystem<R extends RepoRef, const N extends RepoAccess>(rc: R, need: N): R & Checked<N> {
  void need;
  return rc as R & Checked<N>;
}
