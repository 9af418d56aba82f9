import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { AccessMode, UserType, Visibility, type RepoRow, type TeamRow, type UserRow } from "../../db/schema/index.ts";
import * as orgs from "../../models/org.ts";
import * as teamModel from "../../models/team.ts";
import * as labelModel from "../../models/label.ts";
import { canCreateOrgRepo } from "./create.ts";
import * as repos from "../../models/repo.ts";
import * as users from "../../models/user.ts";
import * as collab from "../../models/collaboration.ts";
import * as transfers from "../../models/transfer.ts";
import * as watchModel from "../../models/watch.ts";
import { Conflict, Forbidden, Invalid, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { moveRepo } from "../../git/repo-init.ts";
import { repoDirExists } from "../../git/fork.ts";
import { repoPermission, RepoPermission } from "../access/permission.ts";
import { gitDirOf, type RepoContext } from "./lookup.ts";
import type { Owns, SignedIn } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";

/** A pending transfer as the Repository JSON shows it (`repo_transfer`). */
export interface PendingTransfer {
  doer: UserRow;
  recipient: UserRow;
}

export function pendingTransferOf(env: Env, repoId: number): PendingTransfer | undefined {
  const t = transfers.getPendingTransfer(env.db, repoId);
  if (!t) return undefined;
  const doer = users.getUserById(env.db, t.doerId);
  const recipient = users.getUserById(env.db, t.recipientId);
  return doer && recipient ? { doer, recipient } : undefined;
}

/** Pending transfers of many repositories at once, for listings. */
export function pendingTransfersOf(env: Env, repoIds: number[]): Map<number, PendingTransfer> {
  const out = new Map<number, PendingTransfer>();
  const rows = transfers.pendingTransfersOf(env.db, repoIds);
  if (rows.length === 0) return out;
  const people = new Map(
    users.getUsersByIds(env.db, [...new Set(rows.flatMap((r) => [r.doerId, r.recipientId]))]).map((u) => [u.id, u]),
  );
  for (const r of rows) {
    const doer = people.get(r.doerId);
    const recipient = people.get(r.recipientId);
    if (doer && recipient) out.set(r.repoId, { doer, recipient });
  }
  return out;
}

/** Gitea's CanCreateRepoIn (`forFork`: CanForkRepoIn), from the doer's side. */
function withinLimit(env: Env, doer: UserRow, owner: UserRow, forFork: boolean): boolean {
  if (forFork && env.settings.repository.allowForkWithoutMaximumLimit) return true;
  if (doer.isAdmin) return true;
  const limit = owner.maxRepoCreation >= 0 ? owner.maxRepoCreation : env.settings.repository.maxCreationLimit;
  return limit < 0 || repos.countOwnedRepos(env.db, owner.id) < limit;
}

/** Gitea renders a transfer's answer with a hard-coded admin permission. */
export function transferAnswerPermission(repo: RepoRow): RepoPermission {
  return new RepoPermission(AccessMode.Admin, repo);
}

export interface TransferOutcome {
  repo: RepoRow;
  owner: UserRow;
  /** True when the recipient still has to accept (201); false when the repository moved (202). */
  pending: boolean;
}

/**
 * POST /repos/{o}/{r}/transfer. A site admin, or an owner giving the repository to themself, moves
 * it at once; anyone else leaves a pending transfer for the recipient, who gets read access
 * meanwhile if they had none.
 */
export function startTransfer(
  env: Env,
  doer: Doer,
  rc: Owns,
  newOwnerName: string,
  teamIds: number[] | undefined,
): TransferOutcome {
  const newOwner = newOwnerName ? users.getUserByName(env.db, newOwnerName) : undefined;
  if (!newOwner) throw new NotFound("The new owner does not exist or cannot be found");
  const isOrg = newOwner.type === UserType.Organization;
  // A private organization is not revealed to someone outside it.
  if (isOrg && !doer.isAdmin && newOwner.visibility === Visibility.Private && !orgs.isOrgMember(env.db, newOwner.id, doer.id)) {
    throw new NotFound("The new owner does not exist or cannot be found");
  }
  const teams: TeamRow[] = [];
  if (teamIds !== undefined) {
    if (!isOrg) throw new Invalid("Teams can only be added to organization-owned repositories");
    for (const id of teamIds) {
      const team = teamModel.getTeamById(env.db, id);
      if (!team) throw new Invalid(`team ${id} not found`);
      if (team.orgId !== newOwner.id) throw new Forbidden(`team ${id} belongs not to org ${newOwner.id}`);
      teams.push(team);
    }
  }
  if (transfers.getPendingTransfer(env.db, rc.repo.id)) {
    throw new Conflict("repository is already being transferred [uname: , name: ]");
  }
  if (!withinLimit(env, doer, newOwner, true)) throw new Forbidden("Repository limit has been reached");

  // Admins move it at once, as does an owner taking it back or anyone who may create repositories in the organization.
  if (doer.isAdmin || doer.id === newOwner.id || (isOrg && canCreateOrgRepo(env, newOwner, doer))) {
    const repo = transferOwnership(env, doer, newOwner, rc, teams);
    return { repo, owner: newOwner, pending: false };
  }
  writeTx(env.db, (tx) => {
    if (!repoPermission(env, newOwner, rc.repo, rc.owner).hasAccess()) {
      collab.putCollaboration(tx, rc.repo.id, newOwner.id, AccessMode.Read);
    }
    if (repos.getRepoByOwner(tx, newOwner.id, rc.repo.name)) {
      throw new Invalid(`repository already exists [uname: ${newOwner.lowerName}, name: ${rc.repo.name}]`);
    }
    transfers.insertTransfer(tx, {
      repoId: rc.repo.id,
      doerId: doer.id,
      recipientId: newOwner.id,
      teamIds: teams.map((t) => t.id),
      createdUnix: nowUnix(),
    });
  });
  return { repo: rc.repo, owner: rc.owner, pending: true };
}

/**
 * Gitea's CanUserAcceptOrRejectTransfer: the recipient, or for an organization recipient anyone
 * who may create repositories in it.
 */
function requireRecipient(env: Env, doer: UserRow, rc: RepoContext) {
  const t = transfers.getPendingTransfer(env.db, rc.repo.id);
  if (!t) throw new NotFound(`repository doesn't have a pending transfer [repo_id: ${rc.repo.id}]`);
  const recipient = users.getUserById(env.db, t.recipientId);
  const initiator = users.getUserById(env.db, t.doerId);
  if (!recipient || !initiator) throw new NotFound(`repository doesn't have a pending transfer [repo_id: ${rc.repo.id}]`);
  const allowed =
    recipient.type === UserType.Organization ? canCreateOrgRepo(env, recipient, doer) : recipient.id === doer.id;
  const teams = t.teamIds
    .split(",")
    .filter(Boolean)
    .map((id) => teamModel.getTeamById(env.db, Number(id)))
    .filter((team): team is TeamRow => team !== undefined && team.orgId === recipient.id);
  return { t, recipient, initiator, allowed, teams };
}

/** POST …/transfer/accept: the recipient takes the repository (202). */
export function acceptTransfer(env: Env, doer: Doer, rc: SignedIn): TransferOutcome {
  const { recipient, initiator, allowed, teams } = requireRecipient(env, doer, rc);
  // Gitea checks the recipient's repository limit before who is asking.
  if (!withinLimit(env, doer, recipient, false)) throw new Forbidden("Repository limit has been reached");
  if (!allowed) throw new Forbidden("permission denied");
  const repo = transferOwnership(env, initiator, recipient, rc, teams);
  return { repo, owner: recipient, pending: false };
}

/** POST …/transfer/reject: the recipient declines; the repository stays where it is (200). */
export function rejectTransfer(env: Env, doer: Doer, rc: SignedIn): TransferOutcome {
  const { allowed } = requireRecipient(env, doer, rc);
  if (!allowed) throw new Forbidden("permission denied");
  writeTx(env.db, (tx) => transfers.deleteTransfer(tx, rc.repo.id));
  return { repo: rc.repo, owner: rc.owner, pending: false };
}

/**
 * Gitea's transferOwnership: the row changes owner, the new owner (and, for an organization, its
 * members) stop being collaborators, the repository leaves the old organization's teams and joins
 * the new one's all-repositories teams and the teams asked for, the transferring user watches it,
 * the old owner/name redirects to it, and the git directory moves, all or nothing.
 */
function transferOwnership(env: Env, doer: UserRow, newOwner: UserRow, rc: RepoContext, teams: TeamRow[] = []): RepoRow {
  const { repo, owner: oldOwner } = rc;
  const from = gitDirOf(env, oldOwner, repo);
  const to = gitDirOf(env, newOwner, repo);
  let moved = false;
  try {
    return writeTx(env.db, (tx) => {
      if (repos.getRepoByOwner(tx, newOwner.id, repo.name) || repoDirExists(to)) {
        throw new Invalid(`repository already exists [uname: ${newOwner.name}, name: ${repo.name}]`);
      }
      const updated = repos.updateRepo(tx, repo.id, { ownerId: newOwner.id, ownerName: newOwner.name })!;
      collab.deleteCollaboration(tx, repo.id, newOwner.id);
      teamModel.removeRepoFromTeams(tx, repo.id);
      if (oldOwner.type === UserType.Organization && oldOwner.id !== newOwner.id) {
        labelModel.recountLabels(tx, labelModel.removeOrgLabelsFromRepoIssues(tx, repo.id, oldOwner.id));
      }
      if (newOwner.type === UserType.Organization) {
        collab.deleteOrgMemberCollaborations(tx, repo.id, newOwner.id);
        teamModel.addRepoToAllRepoTeams(tx, newOwner.id, repo.id);
        for (const team of teams) teamModel.addTeamRepo(tx, team, repo.id);
      }
      watchModel.addWatch(tx, doer.id, repo.id, nowUnix());
      transfers.deleteTransfer(tx, repo.id);
      repos.dropRedirect(tx, newOwner.id, repo.name);
      repos.putRedirect(tx, oldOwner.id, repo.name, repo.id);
      if (repoDirExists(from)) {
        moveRepo(from, to);
        moved = true;
      }
      return updated;
    });
  } catch (err) {
    if (moved) moveRepo(to, from);
    throw err;
  }
}
