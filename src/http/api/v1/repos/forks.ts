import * as v from "valibot";
import { operation, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { RepoParams, Repository } from "../../../../shapes/repo.ts";
import { CreateForkOption } from "../../../../shapes/repo-social.ts";
import { forkRepo, listForks } from "../../../../services/repo/fork.ts";
import { withContext } from "../../../../services/repo/list.ts";
import { resolveRepoById } from "../../../../services/repo/lookup.ts";
import { repoJson, reposJson } from "./context.ts";
import { requireCodeReader } from "../../../../services/access/permission.ts";
import { totalOnly } from "./collaborators.ts";

export const forkOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/forks",
    operationId: "listForks",
    tag: "repository",
    summary: "List a repository's forks",
    access: { scope: "repository", signIn: false, repo: {} },
    params: RepoParams,
    query: PageQuery,
    responses: { 200: v.array(Repository) },
    handler: (ctx) => {
      const { rows, total } = listForks(ctx.env, ctx.doer, ctx.repo.repo, ctx.page());
      const items = reposJson(ctx.env, withContext(ctx.env, ctx.doer, rows));
      return totalOnly(items, total);
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/forks",
    operationId: "createFork",
    tag: "repository",
    summary: "Fork a repository",
    // Gitea's reqToken, then reqRepoReader(Code): a declared `read` would be checked before the
    // doer, so the code reader is asked here, after the doer and before the body is bound.
    access: { scope: "repository", signIn: false, repo: { doer: true } },
    params: RepoParams,
    body: CreateForkOption,
    responses: { 202: Repository },
    handler: async (ctx) => {
      const { env, repo: rc, doer } = ctx;
      requireCodeReader(rc);
      const body = ctx.body;
      const fork = await forkRepo(env, {
        doer,
        source: rc,
        name: body.name ?? undefined,
        organization: body.organization ?? undefined,
      });
      return new Reply(202, repoJson(env, resolveRepoById(env, doer, fork.id), doer));
    },
  }),
];
