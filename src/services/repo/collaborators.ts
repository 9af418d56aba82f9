import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { AccessMode, type AccessModeValue, type RepoRow, type UserRow } from "../../db/schema/index.ts";
import * as collab from "../../models/collaboration.ts";
import * as watchModel from "../../models/watch.ts";
import * as users from "../../models/user.ts";
import { Forbidden, Invalid, NotFound } from "../../lib/errors.ts";
import { repoPermission } from "../access/permission.ts";
import type { RepoContext } from "./lookup.ts";
import type { Paging } from "./list.ts";
import type { Administers } from "../access/repo-access.ts";

const MODE_NAMES = ["none", "read", "write", "admin", "owner"] as const;

/** Gitea's AccessMode.ToString. */
export function accessModeName(mode: number): string {
  return MODE_NAMES[mode] ?? "none";
}

/** The user named in a collaborator route, or Gitea's 422 (ErrUserNotExist). */
function collaboratorByName(env: Env, name: string): UserRow {
  const u = users.getUserByName(env.db, name);
  if (!u) throw new Invalid(`user does not exist [uid: 0, name: ${name}]`);
  return u;
}

export function listCollaborators(env: Env, repo: RepoRow, page: Paging): { rows: UserRow[]; total: number } {
  const { rows, total } = collab.listCollaborators(env.db, repo.id, page.offset, page.limit);
  return { rows: rows.map((r) => r.user), total };
}

export function isCollaborator(env: Env, repo: RepoRow, name: string): boolean {
  const u = collaboratorByName(env, name);
  return collab.getCollaboration(env.db, repo.id, u.id) !== undefined;
}

/**
 * Adds or updates a collaborator: `permission` read/write/admin, write when not given (Gitea's
 * ParseAccessMode: anything else is no valid mode, which Gitea refuses).
 */
export function putCollaborator(env: Env, { repo }: Administers, name: string, permission: string | undefined): void {
  const u = collaboratorByName(env, name);
  if (!u.isActive) throw new Invalid("collaborator's account is inactive");
  const mode =
    permission === undefined ? AccessMode.Write : ({ read: AccessMode.Read, write: AccessMode.Write, admin: AccessMode.Admin } as const)[permission];
  if (mode === undefined) throw new Invalid("Invalid access mode");
  writeTx(env.db, (tx) => collab.putCollaboration(tx, repo.id, u.id, mode));
}

/** Removes a collaborator (a no-op when the user was none) and, as Gitea does, their watch. */
export function removeCollaborator(env: Env, { repo }: Administers, name: string): void {
  const u = collaboratorByName(env, name);
  writeTx(env.db, (tx) => {
    if (collab.deleteCollaboration(tx, repo.id, u.id)) watchModel.removeWatch(tx, u.id, repo.id);
  });
}

export interface CollaboratorPermission {
  user: UserRow;
  mode: AccessModeValue;
}

/**
 * GET …/collaborators/{u}/permission: site admins, repository admins and the user themself may
 * ask; the answer is the user's whole permission on the repository (owner for its owner and site
 * admins, read for anyone on a public repository).
 */
export function collaboratorPermission(env: Env, rc: RepoContext, doer: UserRow, name: string): CollaboratorPermission {
  if (!doer.isAdmin && doer.lowerName !== name.toLowerCase() && !rc.perm.isAdmin()) {
    throw new Forbidden(
      "Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own",
    );
  }
  const u = users.getUserByName(env.db, name);
  if (!u) throw new NotFound(`user does not exist [uid: 0, name: ${name}]`);
  return { user: u, mode: repoPermission(env, u, rc.repo, rc.owner).mode };
}
