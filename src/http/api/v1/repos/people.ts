import * as v from "valibot";
import { operation, type AnyOperation } from "../../../route.ts";
import { RepoParams } from "../../../schemas/repo.ts";
import { User } from "../../../schemas/user.ts";
import { toAPIUser } from "../../../../convert/user.ts";
import { repoAssignees, repoReviewers } from "../../../../services/repo/people.ts";
import { NotFound } from "../../../../lib/errors.ts";
import type { Principal } from "../../../../auth/principal.ts";
import type { Env } from "../../../../services/env.ts";
import { repoFromPath } from "./context.ts";
import { requireToken } from "./collaborators.ts";

type Ctx = { env: Env; principal: Principal | undefined; url: URL; params: { owner: string; repo: string } };

/** Gitea's reqToken + reqAnyRepoReader of the people pickers. */
function pickerRepo({ env, principal, url, params }: Ctx) {
  requireToken(principal);
  const rc = repoFromPath(env, principal, url, params);
  if (!rc.perm.hasAccess()) throw new NotFound();
  return { rc, doer: principal.user };
}

export const peopleOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/assignees",
    operationId: "repoGetAssignees",
    tag: "repository",
    summary: "Return all users that have write access and can be assigned to issues",
    access: { scope: "repository", signIn: false },
    params: RepoParams,
    responses: { 200: v.array(User) },
    handler: (ctx) => {
      const { rc, doer } = pickerRepo(ctx);
      return repoAssignees(ctx.env, rc).map((u) => toAPIUser(ctx.env.settings, u, doer));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/reviewers",
    operationId: "repoGetReviewers",
    tag: "repository",
    summary: "Return all users that can be requested to review in this repo",
    access: { scope: "repository", signIn: false },
    params: RepoParams,
    responses: { 200: v.array(User) },
    handler: (ctx) => {
      const { rc, doer } = pickerRepo(ctx);
      return repoReviewers(ctx.env, rc).map((u) => toAPIUser(ctx.env.settings, u, doer));
    },
  }),
];
