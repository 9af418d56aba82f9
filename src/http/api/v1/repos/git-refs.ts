import * as v from "valibot";
import { operation } from "../../../route.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import { Reference, RepoWildcardParams } from "../../../../shapes/branch.ts";
import { listGitRefs } from "../../../../services/repo/branches.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import type { Env } from "../../../../services/env.ts";
import { NotFound } from "../../../../lib/errors.ts";
import { toAPIReference } from "../../../../convert/tag.ts";
import { wildcard } from "./context.ts";

/**
 * Gitea 1.25 answers a list even for a single exact match (its "one ref → object" check compares
 * the prefixed name with the unprefixed filter and never matches); nothing matching is a 404.
 */
async function refs(env: Env, rc: RepoContext, filter: string) {
  const found = await listGitRefs(env, rc, filter);
  if (found.length === 0) throw new NotFound("The target couldn't be found.");
  return found.map((r) => toAPIReference(env.settings, rc, r));
}

/** Refs are code: Gitea's reqRepoReader(Code) over the /git group. */
const read = { scope: "repository", signIn: false, repo: { read: "code" } } as const;

export const gitRefOperations = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/git/refs",
    operationId: "repoListAllGitRefs",
    tag: "repository",
    summary: "Get specified ref or filtered repository's refs",
    access: read,
    params: RepoParams,
    responses: { 200: v.array(Reference) },
    handler: async ({ env, repo: rc }) => refs(env, rc, ""),
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/git/refs/*",
    wildcard: "ref",
    operationId: "repoListGitRefs",
    tag: "repository",
    summary: "Get specified ref or filtered repository's refs",
    access: read,
    params: RepoWildcardParams,
    responses: { 200: v.array(Reference) },
    handler: async ({ env, repo: rc, params }) => refs(env, rc, wildcard(params)),
  }),
];
