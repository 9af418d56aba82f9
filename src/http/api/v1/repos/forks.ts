import * as v from "valibot";
import { operation, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../schemas/common.ts";
import { RepoParams, Repository } from "../../../schemas/repo.ts";
import { CreateForkOption } from "../../../schemas/repo-social.ts";
import { toAPIRepo } from "../../../../convert/repo.ts";
import { forkRepo, listForks } from "../../../../services/repo/fork.ts";
import { withContext } from "../../../../services/repo/list.ts";
import { resolveRepoById } from "../../../../services/repo/lookup.ts";
import { topicsOfRepos } from "../../../../services/repo/topics.ts";
import { repoFromPath, repoJson } from "./context.ts";
import { requireCodeReader } from "../../../../services/access/permission.ts";
import { requireToken, totalOnly } from "./collaborators.ts";

export const forkOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/forks",
    operationId: "listForks",
    tag: "repository",
    summary: "List a repository's forks",
    access: { scope: "repository", signIn: false },
    params: RepoParams,
    query: PageQuery,
    responses: { 200: v.array(Repository) },
    handler: (ctx) => {
      const rc = repoFromPath(ctx.env, ctx.principal, ctx.url, ctx.params);
      const viewer = ctx.principal?.user;
      const { rows, total } = listForks(ctx.env, viewer, rc.repo, ctx.page());
      const topics = topicsOfRepos(ctx.env, rows.map((r) => r.id));
      const items = withContext(ctx.env, viewer, rows).map((f) =>
        toAPIRepo(ctx.env.settings, { ...f, topics: topics.get(f.repo.id) ?? [] }),
      );
      return totalOnly(items, total);
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/forks",
    operationId: "createFork",
    tag: "repository",
    summary: "Fork a repository",
    access: { scope: "repository", signIn: false },
    params: RepoParams,
    body: CreateForkOption,
    responses: { 202: Repository },
    handler: async (ctx) => {
      const { env, principal } = ctx;
      const rc = repoFromPath(env, principal, ctx.url, ctx.params);
      requireToken(principal);
      requireCodeReader(rc);
      const body = ctx.body;
      const fork = await forkRepo(env, {
        doer: principal.user,
        source: rc,
        name: body.name ?? undefined,
        organization: body.organization ?? undefined,
      });
      return new Reply(202, repoJson(env, resolveRepoById(env, principal.user, fork.id), principal));
    },
  }),
];
