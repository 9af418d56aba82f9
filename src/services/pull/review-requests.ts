import type { Env } from "../env.ts";
import { writeTx, type Tx } from "../../db/client.ts";
import { AccessMode, CommentType, ReviewType, UnitType, UserType, type ReviewRow, type TeamRow, type UserRow } from "../../db/schema/index.ts";
import * as reviewModel from "../../models/review.ts";
import * as users from "../../models/user.ts";
import { getCollaboration } from "../../models/collaboration.ts";
import { getTeamByName, hasTeamRepo, listTeamMembers, unitsOfTeams, userTeamsWithRepo } from "../../models/team.ts";
import { Forbidden, Invalid, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { repoPermission } from "../access/permission.ts";
import { recordActivity } from "../issue/touch.ts";
import type { PullContext } from "./lookup.ts";
import { isOfficialReviewerOf, isOfficialReviewerTeamOf } from "./review-official.ts";
import { pullEvents } from "../events/pull-events.ts";

const teamMembers = (tx: Tx, teamId: number) => listTeamMembers(tx, teamId, 0, Number.MAX_SAFE_INTEGER).rows;

/** Gitea's ErrNotValidReviewRequest, answered 422 with its text. */
function notValid(reason: string, doer: UserRow, pc: PullContext): Invalid {
  return new Invalid(`${reason} [user_id: ${doer.id}, repo_id: ${pc.repo.id}]`);
}

/**
 * Gitea's CanDoerChangeReviewRequests: on a repository that is not archived, the request's poster,
 * the repository's owner, its collaborators, and members of the owning organization's teams that
 * read its pull requests.
 */
function canChangeReviewRequests(env: Env, doer: UserRow, pc: PullContext): boolean {
  if (pc.repo.isArchived) return false;
  if (doer.id === pc.issue.posterId || doer.id === pc.repo.ownerId) return true;
  if (getCollaboration(env.db, pc.repo.id, doer.id)) return true;
  if (pc.owner.type !== UserType.Organization) return false;
  const teams = userTeamsWithRepo(env.db, pc.owner.id, doer.id, pc.repo.id);
  const units = unitsOfTeams(env.db, teams.map((t) => t.id));
  return teams.some(
    (t) => t.authorize >= AccessMode.Admin || (units.get(t.id) ?? []).some((u) => u.type === UnitType.PullRequests && u.accessMode >= AccessMode.Read),
  );
}

/** Gitea's isValidReviewRequest for a user. */
function checkUserRequest(env: Env, doer: UserRow, pc: PullContext, reviewer: UserRow, add: boolean): void {
  if (reviewer.type === UserType.Organization) throw notValid("Organization can't be added as reviewer", doer, pc);
  if (doer.type === UserType.Organization) throw notValid("Organization can't be doer to add reviewer", doer, pc);
  const last = reviewModel.latestUserReview(env.db, pc.issue.id, reviewer.id);
  const canChange = canChangeReviewRequests(env, doer, pc);
  const ownIssue = (id: number) => id === pc.issue.posterId && pc.issue.originalAuthorId === 0;
  if (add) {
    if (!repoPermission(env, reviewer, pc.repo, pc.owner).canRead("pulls")) throw notValid("Reviewer can't read", doer, pc);
    if (ownIssue(reviewer.id)) throw notValid("poster of pr can't be reviewer", doer, pc);
    if (canChange) return;
    // The poster may ask again someone who already reviewed.
    if (ownIssue(doer.id) && last && last.type !== ReviewType.Request) return;
    throw notValid("Doer can't choose reviewer", doer, pc);
  }
  if (canChange) return;
  // A reviewer may decline their own request.
  if (last && last.type === ReviewType.Request && last.reviewerId === doer.id) return;
  throw notValid("Doer can't remove reviewer", doer, pc);
}

/** Gitea's isValidTeamReviewRequest: a team must have a private repository to be asked. */
function checkTeamRequest(env: Env, doer: UserRow, pc: PullContext, team: TeamRow, add: boolean): void {
  if (doer.type === UserType.Organization) throw notValid("Organization can't be doer to add reviewer", doer, pc);
  if (add && pc.repo.isPrivate && !hasTeamRepo(env.db, team.id, pc.repo.id)) throw notValid("Reviewing team can't read repo", doer, pc);
  if (canChangeReviewRequests(env, doer, pc)) return;
  throw notValid(add ? "Doer can't choose reviewer" : "Doer can't remove reviewer", doer, pc);
}

/**
 * Gitea's AddReviewRequest: nothing when the user's latest review is already a request; a new
 * request after a review of a closed or merged request is refused (403). An official reviewer's
 * request takes the official flag from their earlier reviews. Records a review-request event.
 */
function addUserRequest(tx: Tx, env: Env, doer: UserRow, pc: PullContext, reviewer: UserRow): ReviewRow | undefined {
  const last = reviewModel.latestUserReview(tx, pc.issue.id, reviewer.id);
  if (last?.type === ReviewType.Request) return undefined;
  if (last && (pc.issue.isClosed || pc.pull.hasMerged)) throw new Forbidden("cannot request a re-review on a closed or merged PR");
  const official = isOfficialReviewerOf(env, pc, reviewer);
  if (official) reviewModel.clearOfficial(tx, pc.issue.id, { reviewerId: reviewer.id });
  const now = nowUnix();
  const review = reviewModel.insertReview(tx, {
    type: ReviewType.Request,
    issueId: pc.issue.id,
    reviewerId: reviewer.id,
    official,
    createdUnix: now,
    updatedUnix: now,
  });
  recordActivity(tx, pc.issue, doer, CommentType.ReviewRequest, { assigneeId: reviewer.id, removedAssignee: false, reviewId: review.id });
  return review;
}

/** Gitea's RemoveReviewRequest: withdraws an open request; an official reviewer's latest review is official again. */
function removeUserRequest(tx: Tx, env: Env, doer: UserRow, pc: PullContext, reviewer: UserRow): boolean {
  const last = reviewModel.latestUserReview(tx, pc.issue.id, reviewer.id);
  if (!last || last.type !== ReviewType.Request) return false;
  reviewModel.deleteReviewRow(tx, last.id);
  if (isOfficialReviewerOf(env, pc, reviewer)) {
    const latest = reviewModel.latestUserReview(tx, pc.issue.id, reviewer.id);
    if (latest) reviewModel.updateReview(tx, latest.id, { official: true });
  }
  recordActivity(tx, pc.issue, doer, CommentType.ReviewRequest, { assigneeId: reviewer.id, removedAssignee: true });
  return true;
}

/**
 * Gitea's AddTeamReviewRequest: once per team; official when the team's approvals count, or the
 * doer's do. The event names the team and the request's review.
 */
function addTeamRequest(tx: Tx, env: Env, doer: UserRow, pc: PullContext, team: TeamRow): ReviewRow | undefined {
  if (reviewModel.latestTeamReview(tx, pc.issue.id, team.id)) return undefined;
  const official = isOfficialReviewerTeamOf(env, pc, team) || isOfficialReviewerOf(env, pc, doer);
  // Cleared before the new request is written: Gitea clears after, taking the flag off the new one too.
  if (official) reviewModel.clearOfficial(tx, pc.issue.id, { teamId: team.id });
  const now = nowUnix();
  const review = reviewModel.insertReview(tx, {
    type: ReviewType.Request,
    issueId: pc.issue.id,
    reviewerTeamId: team.id,
    official,
    createdUnix: now,
    updatedUnix: now,
  });
  recordActivity(tx, pc.issue, doer, CommentType.ReviewRequest, { assigneeTeamId: team.id, removedAssignee: false, reviewId: review.id });
  return review;
}

function removeTeamRequest(tx: Tx, doer: UserRow, pc: PullContext, team: TeamRow): boolean {
  const last = reviewModel.latestTeamReview(tx, pc.issue.id, team.id);
  if (!last) return false;
  reviewModel.deleteReviewRow(tx, last.id);
  recordActivity(tx, pc.issue, doer, CommentType.ReviewRequest, { assigneeTeamId: team.id, removedAssignee: true });
  return true;
}

/** Gitea's parseReviewersByNames: users by name (or e-mail, with `@`), teams of the owning organization; 404 for unknown ones. */
function resolveNames(env: Env, pc: PullContext, names: string[], teamNames: string[]): { reviewers: UserRow[]; teams: TeamRow[] } {
  const reviewers = names.map((name) => {
    const id = name.includes("@") ? users.emailOwner(env.db, name) : undefined;
    const user = id !== undefined ? users.getUserById(env.db, id) : name.includes("@") ? undefined : users.getUserByName(env.db, name);
    if (!user) throw new NotFound(`User '${name}' not exist`);
    return user;
  });
  const teams: TeamRow[] = [];
  if (pc.owner.type === UserType.Organization) {
    for (const name of teamNames) {
      const team = getTeamByName(env.db, pc.owner.id, name);
      if (!team) throw new NotFound(`Team '${name}' not exist`);
      teams.push(team);
    }
  }
  return { reviewers, teams };
}

/**
 * Gitea's apiReviewRequest: asks users and teams for a review (`add`) or withdraws the requests,
 * one after another as Gitea does (a refusal stops there, the earlier ones stay). Returns the
 * requests made.
 */
export function changeReviewRequests(env: Env, doer: UserRow, pc: PullContext, names: string[], teamNames: string[], add: boolean): ReviewRow[] {
  const { reviewers, teams } = resolveNames(env, pc, names, teamNames);
  const made: ReviewRow[] = [];
  const kind = add ? "review-requested" : "review-request-removed";
  const announce = (tx: Tx, reviewer: UserRow) => pullEvents.emit(tx, env, { kind, pull: pc.pull, issue: pc.issue, repo: pc.repo, doer, reviewer });
  /** Adds (remembering the request) or removes in `tx`; whether anything changed. */
  const apply = (tx: Tx, addOne: () => ReviewRow | undefined, removeOne: () => boolean): boolean => {
    if (!add) return removeOne();
    const review = addOne();
    if (review) made.push(review);
    return review !== undefined;
  };
  for (const reviewer of reviewers) {
    checkUserRequest(env, doer, pc, reviewer, add);
    writeTx(env.db, (tx) => {
      const changed = apply(tx, () => addUserRequest(tx, env, doer, pc, reviewer), () => removeUserRequest(tx, env, doer, pc, reviewer));
      if (changed) announce(tx, reviewer);
    });
  }
  for (const team of teams) {
    checkTeamRequest(env, doer, pc, team, add);
    writeTx(env.db, (tx) => {
      const changed = apply(tx, () => addTeamRequest(tx, env, doer, pc, team), () => removeTeamRequest(tx, doer, pc, team));
      // Gitea tells each member of the team but the poster.
      if (changed) for (const member of teamMembers(tx, team.id)) if (member.id !== pc.issue.posterId) announce(tx, member);
    });
  }
  return made;
}
