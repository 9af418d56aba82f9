import type { Env } from "../services/env.ts";
import type { Principal } from "../auth/principal.ts";
import type { AccessModeValue, UserRow } from "../db/schema/index.ts";
import { requirePackageAccess } from "../services/packages/access.ts";
import { requireOwnerInReach, type Doer } from "../services/access/permission.ts";
import { checkRepoAccess, type CheckedRepo, type Checked } from "../services/access/repo-access.ts";
import type { ScopeLevel } from "../services/access/scopes.ts";
import { RepoMoved, resolveRepo, resolveRepoById, type RepoContext } from "../services/repo/lookup.ts";
import { issueFromPath, type IssueContext } from "../services/issue/lookup.ts";
import { pullFromPath, type PullContext } from "../services/pull/lookup.ts";
import { requireAccount, requireUser } from "../services/user/lookup.ts";
import { requireViewableAccount } from "../services/user/profile.ts";
import { Forbidden, Unauthorized, type Redirect } from "../lib/errors.ts";
import { requireOrgMember, requireOrgOwner } from "../services/org/lookup.ts";
import { scopeCategories, type Access, type OrgAccess, type UserAccess } from "./route.ts";
import type { Moved } from "./door.ts";
import { orgFromPath } from "./api/v1/orgs/context.ts";

/** The resources an operation's declaration asked for, resolved and checked. */
export interface Resources {
  doer: Doer | undefined;
  repo?: CheckedRepo;
  issue?: IssueContext & Checked;
  pull?: PullContext & Checked;
  org?: UserRow;
  user?: UserRow;
  packageOwner?: UserRow;
  packageMode?: AccessModeValue;
}

/** Where a door sends a caller who named a renamed resource (each door has its own URLs). */
export type RedirectTo = (moved: Moved) => Redirect;

/** The token scope and sign-in a declaration asks for, in Gitea's order: scope, then sign-in. */
export function enforceAccess(access: Access, level: ScopeLevel, principal: Principal | undefined): void {
  const categories = scopeCategories(access);
  if (categories.length && principal?.scope) {
    const tokenScope = principal.scope;
    if (!categories.every((c) => tokenScope.has(c, level))) {
      const required = categories.map((c) => `${level}:${c}`).join(" ");
      throw new Forbidden(
        `token does not have at least one of required scope(s), required=[${required}], token scope=${principal.rawScope}`,
      );
    }
  }
  const { signIn } = access;
  if (!signIn) return;
  if (!principal) throw new Unauthorized("token is required");
  if (signIn === "admin" && !principal.user.isAdmin) throw new Forbidden("user should be the site admin");
}

/**
 * The repository named `{owner}/{repo}` as the doer may see it: 404 when it does not exist or is
 * not visible, 403 for a public-only token out of its reach, and for a renamed or transferred one
 * the door's redirect (the lookup decides which, the door only words where to).
 */
export function repoByPath(
  env: Env,
  doer: Doer | undefined,
  names: { owner: string; repo: string },
  redirect: RedirectTo,
): RepoContext {
  try {
    return resolveRepo(env, doer, names.owner, names.repo);
  } catch (err) {
    if (!(err instanceof RepoMoved)) throw err;
    const target = resolveRepoById(env, doer, err.repoId);
    throw redirect({
      kind: "repo",
      from: names,
      to: { owner: target.owner.name, repo: target.repo.name },
      permanent: !err.ownerRenamed,
    });
  }
}

/**
 * Resolves and checks the resources a declaration asks for, once, in Gitea's order (the token
 * scope and sign-in were checked before, by every door but git): the repository of `:owner/:repo`
 * (404, a renamed owner or repository answered with the door's `redirect`, public-only refusals,
 * then the declared access), the organization of `:org`, the account of `:username`. Every front
 * door calls it through runDeclared (http/door.ts); the handler gets the resources from its
 * context and asks nothing again.
 */
export function resolveResources(
  env: Env,
  access: Access,
  principal: Principal | undefined,
  params: Record<string, unknown> | undefined,
  redirect: RedirectTo,
): Resources {
  const doer = principal?.user;
  const out: Resources = { doer };
  // test/architecture.test.ts proves every declaration names parameters its path has.
  const param = (name: string) => String(params?.[name] ?? "");
  if (access.repo) {
    const rc = checkRepoAccess(repoByPath(env, doer, { owner: param("owner"), repo: param("repo") }, redirect), doer, access.repo);
    out.repo = rc;
    // The issue and the pull request carry the repository's check (they extend its context).
    if (access.issue) out.issue = issueFromPath(env, rc, param("index"));
    if (access.pull) out.pull = pullFromPath(env, rc, param("index"));
  }
  if (access.org) out.org = resolveOrg(env, principal, param("org"), access.org);
  if (access.user) out.user = resolveUser(env, principal, param("username"), access.user);
  if (access.package) {
    out.packageOwner = requireAccount(env, param("owner"));
    out.packageMode = requirePackageAccess(env, doer, out.packageOwner, access.package);
  }
  return out;
}

function resolveOrg(env: Env, principal: Principal | undefined, name: string, need: OrgAccess): UserRow {
  if (need === "exists") return orgFromPath.get(env, principal, name);
  const org = orgFromPath.visible(env, principal, name);
  if (need === "visible") return org;
  // Found first, then signed in (Gitea's orgAssignment, then reqToken), then the role.
  if (!principal) throw new Unauthorized("token is required");
  if (need === "member") requireOrgMember(env, org, principal.user);
  else requireOrgOwner(env, org, principal.user);
  return org;
}

function resolveUser(env: Env, principal: Principal | undefined, name: string, need: UserAccess): UserRow {
  const account = need.kind === "user" ? requireUser(env, name) : requireAccount(env, name);
  // Gitea's checkTokenPublicOnly holds for every route naming an account, visibility declared or not.
  if (need.visible) requireViewableAccount(env, account, principal?.user);
  else requireOwnerInReach(env, account, principal?.user);
  if (need.selfOrAdmin && (!principal || (!principal.user.isAdmin && principal.user.id !== account.id))) {
    throw new Forbidden("doer should be the site admin or be same as the contextUser");
  }
  return account;
}
