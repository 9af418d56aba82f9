import type { Env } from "../env.ts";
import { deleteOwnerWebhooks } from "../../models/webhook.ts";
import { deleteOwnerSecrets } from "../../models/secret.ts";
import { deleteOwnerVariables } from "../../models/action-variable.ts";
import { writeTx, type Tx } from "../../db/client.ts";
import { deleteAllTokens } from "../../models/token.ts";
import { deleteAllOwnedRepos, ownsRepos } from "../repo/delete.ts";
import { UserType, type NewUserRow, type UserRow } from "../../db/schema/index.ts";
import * as users from "../../models/user.ts";
import * as emails from "../../models/email.ts";
import { clearUserStars } from "../../models/star.ts";
import { clearUserWatches } from "../../models/watch.ts";
import { hashPassword, PASSWORD_ALGO } from "../../crypto/password.ts";
import { BadRequest, Invalid, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { emailProblem, usernameProblem } from "./names.ts";
import { parseVisibility } from "./visibility.ts";
import { orgIdsOfMember, orgsSolelyOwnedBy } from "../../models/org.ts";
import { deleteOrg } from "../org/org.ts";
import { removeMember } from "../org/members.ts";
import { removeOwnerRunnersInTx } from "../actions/removal.ts";
import { clearFollows } from "../../models/follow.ts";

export interface CreateUserInput {
  username: string;
  email: string;
  password?: string;
  fullName?: string;
  loginName?: string;
  sourceId?: number;
  mustChangePassword: boolean;
  restricted?: boolean;
  visibility?: string;
  isAdmin?: boolean;
  /** Unix seconds; the account's created (and updated) time instead of now. */
  createdUnix?: number;
}

function passwordProblem(env: Env, password: string | undefined): string | undefined {
  if (!password || password.length < env.settings.security.minPasswordLength) return "PasswordIsRequired";
  return undefined;
}

/** Gitea's admin create-user: validation in Gitea's order, then the user and its primary email in one transaction. */
export async function createUser(env: Env, input: CreateUserInput): Promise<UserRow> {
  if (input.sourceId) throw new Invalid(`login source does not exist [id: ${input.sourceId}]`);
  const pw = passwordProblem(env, input.password);
  if (pw) throw new BadRequest(pw);
  const nameErr = usernameProblem(input.username);
  if (nameErr) throw new Invalid(nameErr);
  let visibility: number | undefined;
  if (input.visibility) {
    visibility = parseVisibility(input.visibility);
    if (visibility === undefined) throw new Invalid(`[Visibility]: In`);
  }
  const email = input.email.trim();
  const emailErr = emailProblem(email);
  if (emailErr) throw new Invalid(emailErr);

  const passwd = await hashPassword(input.password!);
  const created = input.createdUnix ?? nowUnix();
  return writeTx(env.db, (tx) => {
    if (users.getUserByName(tx, input.username)) throw new Invalid(`user already exists [name: ${input.username}]`);
    users.dropUserRedirect(tx, input.username);
    if (users.emailOwner(tx, email) !== undefined) throw new Invalid(`e-mail already in use [email: ${email}]`);
    const row: NewUserRow = {
      name: input.username,
      lowerName: input.username.toLowerCase(),
      fullName: input.fullName ?? "",
      email: email.toLowerCase(),
      passwd,
      passwdHashAlgo: PASSWORD_ALGO,
      mustChangePassword: input.mustChangePassword,
      loginName: input.loginName ?? "",
      isActive: true,
      isAdmin: input.isAdmin ?? false,
      isRestricted: input.restricted ?? false,
      visibility: visibility ?? 0,
      keepEmailPrivate: env.settings.service.defaultKeepEmailPrivate,
      allowCreateOrganization: env.settings.service.defaultAllowCreateOrganization,
      createdUnix: created,
      updatedUnix: created,
      type: UserType.Individual,
    };
    const user = users.insertUser(tx, row);
    emails.insertEmail(tx, user.id, email, true);
    return user;
  });
}

export interface EditUserInput {
  loginName: string;
  sourceId?: number;
  email?: string;
  fullName?: string;
  password?: string;
  mustChangePassword?: boolean;
  website?: string;
  location?: string;
  description?: string;
  active?: boolean;
  admin?: boolean;
  allowGitHook?: boolean;
  allowImportLocal?: boolean;
  maxRepoCreation?: number;
  prohibitLogin?: boolean;
  allowCreateOrganization?: boolean;
  restricted?: boolean;
  visibility?: string;
}

/**
 * Gitea's admin edit-user. Unlike Gitea, every change lands in one transaction: a request that
 * fails half-way (a taken email, the last admin) changes nothing.
 */
export async function editUser(env: Env, target: UserRow, input: EditUserInput): Promise<UserRow> {
  if (input.sourceId) throw new Invalid(`login source does not exist [id: ${input.sourceId}]`);
  let passwd: string | undefined;
  if (input.password) {
    if (input.password.length < env.settings.security.minPasswordLength) {
      throw new BadRequest(`password must be at least ${env.settings.security.minPasswordLength} characters`);
    }
    passwd = await hashPassword(input.password);
  }
  let visibility: number | undefined;
  if (input.visibility) {
    visibility = parseVisibility(input.visibility);
    if (visibility === undefined) throw new Invalid(`[Visibility]: In`);
  }
  const truncate = (s: string | undefined) => (s === undefined ? undefined : [...s].slice(0, 255).join(""));

  return writeTx(env.db, (tx) => {
    const patch: Partial<NewUserRow> = { loginName: input.loginName, updatedUnix: nowUnix() };
    if (passwd) {
      patch.passwd = passwd;
      patch.passwdHashAlgo = PASSWORD_ALGO;
    }
    if (input.mustChangePassword !== undefined) patch.mustChangePassword = input.mustChangePassword;
    if (input.prohibitLogin !== undefined) patch.prohibitLogin = input.prohibitLogin;

    if (input.email !== undefined && input.email.toLowerCase() !== target.email.toLowerCase()) {
      const email = input.email.trim();
      const problem = emailProblem(email);
      if (problem) throw new BadRequest(problem);
      const owner = users.emailOwner(tx, email);
      if (owner !== undefined && owner !== target.id) throw new BadRequest(`e-mail already in use [email: ${email}]`);
      if (owner === undefined) {
        emails.deleteEmails(tx, target.id, [target.email.toLowerCase()]);
        emails.insertEmail(tx, target.id, email, false);
      }
      emails.setPrimaryEmail(tx, target.id, email);
      patch.email = email.toLowerCase();
    }

    if (input.fullName !== undefined) patch.fullName = input.fullName;
    if (input.website !== undefined) patch.website = truncate(input.website);
    if (input.location !== undefined) patch.location = truncate(input.location);
    if (input.description !== undefined) patch.description = truncate(input.description);
    if (input.active !== undefined) patch.isActive = input.active;
    if (input.allowGitHook !== undefined) patch.allowGitHook = input.allowGitHook;
    if (input.allowImportLocal !== undefined) patch.allowImportLocal = input.allowImportLocal;
    if (input.maxRepoCreation !== undefined) patch.maxRepoCreation = input.maxRepoCreation;
    if (input.allowCreateOrganization !== undefined) patch.allowCreateOrganization = input.allowCreateOrganization;
    if (input.restricted !== undefined) patch.isRestricted = input.restricted;
    if (visibility !== undefined) patch.visibility = visibility;
    if (input.admin !== undefined) {
      if (!input.admin && target.isAdmin && users.countAdmins(tx) <= 1) {
        throw new BadRequest(`can not delete the last admin user [uid: ${target.id}]`);
      }
      patch.isAdmin = input.admin;
    }
    const updated = users.updateUser(tx, target.id, patch);
    if (!updated) throw new NotFound();
    if (passwd) revokeTokensOnPasswordChange(tx, target.id);
    return updated;
  });
}

/** Gitea deletes a user's access tokens when an admin sets a new password. */
function revokeTokensOnPasswordChange(tx: Tx, uid: number) {
  deleteAllTokens(tx, uid);
}

/**
 * Deletes an account, as Gitea's DeleteUser. Without `purge` an account that still owns
 * repositories or belongs to an organization is refused (422). With `purge` its repositories go
 * first, then it leaves every organization; an organization it is the last owner of is deleted
 * with all of its repositories. Emails, tokens, two-factor, collaborations, team memberships and
 * stars go with the user row (foreign-key cascades, one transaction).
 */
export function deleteUser(env: Env, doer: UserRow | undefined, target: UserRow, purge: boolean): void {
  if (target.type !== UserType.Individual) throw new Invalid(`${target.name} is an organization not a user`);
  if (doer && doer.id === target.id) throw new Invalid("you cannot delete yourself");
  if (target.isAdmin && target.isActive && users.countAdmins(env.db) <= 1) {
    throw new Invalid(`can not delete the last admin user [uid: ${target.id}]`);
  }
  if (purge) {
    deleteAllOwnedRepos(env, target);
    leaveAllOrgs(env, target);
  } else {
    if (ownsRepos(env, target)) throw new Invalid(`user still has ownership of repositories [uid: ${target.id}]`);
    if (orgIdsOfMember(env.db, target.id).length > 0) {
      throw new Invalid(`user still has membership of organizations [uid: ${target.id}]`);
    }
  }
  writeTx(env.db, (tx) => {
    if (target.isAdmin && target.isActive && users.countAdmins(tx) <= 1) {
      throw new Invalid(`can not delete the last admin user [uid: ${target.id}]`);
    }
    clearUserStars(tx, target.id);
    clearFollows(tx, target.id);
    clearUserWatches(tx, target.id);
    deleteOwnerWebhooks(tx, target.id);
    deleteOwnerSecrets(tx, target.id);
    deleteOwnerVariables(tx, target.id);
    removeOwnerRunnersInTx(tx, target.id);
    users.deleteUserRow(tx, target.id);
  });
}

/** Purge: out of every organization; one left without an owner is deleted with its repositories. */
function leaveAllOrgs(env: Env, target: UserRow): void {
  for (const org of orgsSolelyOwnedBy(env.db, target.id)) deleteOrg(env, org, true);
  for (const orgId of orgIdsOfMember(env.db, target.id)) {
    const org = users.getUserById(env.db, orgId);
    if (org) removeMember(env, org, target);
  }
}

/** Changes a password (CLI `admin user change-password`). */
export async function setPassword(env: Env, target: UserRow, password: string, mustChange: boolean): Promise<void> {
  if (password.length < env.settings.security.minPasswordLength) {
    throw new BadRequest(`password must be at least ${env.settings.security.minPasswordLength} characters`);
  }
  const passwd = await hashPassword(password);
  writeTx(env.db, (tx) => {
    users.updateUser(tx, target.id, {
      passwd,
      passwdHashAlgo: PASSWORD_ALGO,
      mustChangePassword: mustChange,
      updatedUnix: nowUnix(),
    });
  });
}
