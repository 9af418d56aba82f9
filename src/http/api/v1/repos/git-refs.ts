import * as v from "valibot";
import { operation } from "../../../route.ts";
import { RepoParams } from "../../../schemas/repo.ts";
import { Reference, RepoWildcardParams } from "../../../schemas/branch.ts";
import { listGitRefs } from "../../../../services/repo/branches.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import type { Env } from "../../../../services/env.ts";
import { NotFound } from "../../../../lib/errors.ts";
import { toAPIReference } from "../../../../convert/tag.ts";
import { codeRepo, wildcard } from "./context.ts";

/**
 * Gitea 1.25 answers a list even for a single exact match (its "one ref → object" check compares
 * the prefixed name with the unprefixed filter and never matches); nothing matching is a 404.
 */
async function refs(env: Env, rc: RepoContext, filter: string) {
  const found = await listGitRefs(env, rc, filter);
  if (found.length === 0) throw new NotFound("The target couldn't be found.");
  return found.map((r) => toAPIReference(env.settings, rc, r));
}

export const gitRefOperations = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/git/refs",
    operationId: "repoListAllGitRefs",
    tag: "repository",
    summary: "Get specified ref or filtered repository's refs",
    access: { scope: "repository", signIn: false },
    params: RepoParams,
    responses: { 200: v.array(Reference) },
    handler: async ({ env, principal, params, url }) => refs(env, codeRepo(env, principal, url, params), ""),
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/git/refs/*",
    wildcard: "ref",
    operationId: "repoListGitRefs",
    tag: "repository",
    summary: "Get specified ref or filtered repository's refs",
    access: { scope: "repository", signIn: false },
    params: RepoWildcardParams,
    responses: { 200: v.array(Reference) },
    handler: async ({ env, principal, params, url }) => {
      const rc = codeRepo(env, principal, url, params);
      return refs(env, rc, wildcard(params));
    },
  }),
];
