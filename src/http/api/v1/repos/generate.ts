import * as v from "valibot";
import { operation, Reply, type AnyOperation } from "../../../route.ts";
import { named } from "../../../../shapes/registry.ts";
import { opt } from "../../../../shapes/common.ts";
import { RepoParams, Repository } from "../../../../shapes/repo.ts";
import { generateRepo } from "../../../../services/repo/generate.ts";
import { resolveRepoById } from "../../../../services/repo/lookup.ts";
import { requireCodeReader } from "../../../../services/access/permission.ts";
import { repoJson } from "./context.ts";

/** Gitea's GenerateRepoOption: `owner` and `name` required (binding's 422), every part of the template opt-in. */
export const GenerateRepoOption = named(
  "GenerateRepoOption",
  v.object({
    owner: v.string(),
    name: v.string(),
    description: opt(v.string()),
    private: opt(v.boolean()),
    default_branch: opt(v.string()),
    git_content: opt(v.boolean()),
    topics: opt(v.boolean()),
    git_hooks: opt(v.boolean()),
    webhooks: opt(v.boolean()),
    avatar: opt(v.boolean()),
    labels: opt(v.boolean()),
    protected_branch: opt(v.boolean()),
  }),
);

export const generateOperations: AnyOperation[] = [
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/generate",
    operationId: "generateRepo",
    tag: "repository",
    summary: "Create a repository using a template",
    // Gitea's reqToken, then reqRepoReader(Code), as for a fork: the code reader is asked here,
    // after the doer and before the body is bound.
    access: { scope: "repository", signIn: false, repo: { doer: true } },
    params: RepoParams,
    body: GenerateRepoOption,
    responses: { 201: Repository },
    handler: async (ctx) => {
      const { env, repo: rc, doer } = ctx;
      requireCodeReader(rc);
      const b = ctx.body;
      const repo = await generateRepo(env, {
        doer,
        template: rc,
        owner: b.owner,
        name: b.name,
        description: b.description ?? undefined,
        isPrivate: b.private ?? undefined,
        defaultBranch: b.default_branch ?? undefined,
        gitContent: b.git_content ?? false,
        topics: b.topics ?? false,
        gitHooks: b.git_hooks ?? false,
        webhooks: b.webhooks ?? false,
        avatar: b.avatar ?? false,
        labels: b.labels ?? false,
        protectedBranch: b.protected_branch ?? false,
      });
      return new Reply(201, repoJson(env, resolveRepoById(env, doer, repo.id), doer));
    },
  }),
];
