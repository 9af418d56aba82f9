import type { Env } from "../services/env.ts";
import type { Principal } from "../auth/principal.ts";
import type { UserRow } from "../db/schema/index.ts";
import { requireOwnerInReach, type Doer } from "../services/access/permission.ts";
import { checkRepoAccess } from "../services/access/repo-access.ts";
import type { RepoContext } from "../services/repo/lookup.ts";
import { issueFromPath, type IssueContext } from "../services/issue/lookup.ts";
import { pullFromPath, type PullContext } from "../services/pull/lookup.ts";
import { requireAccount, requireUser } from "../services/user/account.ts";
import { requireViewableAccount } from "../services/user/profile.ts";
import { Forbidden, Unauthorized } from "../lib/errors.ts";
import { requireOrgMember, requireOrgOwner } from "../services/org/lookup.ts";
import type { Access, OrgAccess, UserAccess } from "./route.ts";
import { repoFromPath } from "./api/v1/repos/context.ts";
import { orgFromPath } from "./api/v1/orgs/context.ts";

/** The resources an operation's declaration asked for, resolved and checked. */
export interface Resources {
  doer: Doer | undefined;
  repo?: RepoContext;
  issue?: IssueContext;
  pull?: PullContext;
  org?: UserRow;
  user?: UserRow;
}

/**
 * Resolves and checks the resources an operation declares, once, in Gitea's order (the token
 * scope and sign-in were checked before): the repository of `:owner/:repo` (404, redirects of
 * renamed owners and repositories, public-only refusals, then the declared access), the
 * organization of `:org`, the account of `:username`. The handler gets them from its context and
 * asks nothing again.
 */
export function resolveResources(
  env: Env,
  access: Access,
  principal: Principal | undefined,
  url: URL,
  params: Record<string, unknown> | undefined,
): Resources {
  const doer = principal?.user;
  const out: Resources = { doer };
  // test/architecture.test.ts proves every declaration names parameters its path has.
  const param = (name: string) => String(params?.[name] ?? "");
  if (access.repo) {
    const rc = repoFromPath(env, principal, url, { owner: param("owner"), repo: param("repo") });
    checkRepoAccess(rc, doer, access.repo);
    out.repo = rc;
    if (access.issue) out.issue = issueFromPath(env, rc, param("index"));
    if (access.pull) out.pull = pullFromPath(env, rc, param("index"));
  }
  if (access.org) out.org = resolveOrg(env, principal, param("org"), access.org);
  if (access.user) out.user = resolveUser(env, principal, param("username"), access.user);
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
