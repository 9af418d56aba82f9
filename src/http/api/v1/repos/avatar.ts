import { operation, reply, type AnyOperation } from "../../../route.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import { UpdateRepoAvatarOption } from "../../../../shapes/repo-avatar.ts";
import { deleteRepoAvatar, setRepoAvatar } from "../../../../services/repo/avatar.ts";

/**
 * A repository's avatar is its administrators' to change (Gitea's reqAdmin; the sign-in is asked
 * first, before the repository is looked up), and not while it is archived (423).
 */
const admin = { scope: "repository", signIn: true, repo: { admin: true, notArchived: true } } as const;

export const repoAvatarOperations: AnyOperation[] = [
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/avatar",
    operationId: "repoUpdateAvatar",
    tag: "repository",
    summary: "Update avatar",
    access: admin,
    params: RepoParams,
    body: UpdateRepoAvatarOption,
    responses: { 204: null },
    handler: (ctx) => {
      setRepoAvatar(ctx.env, ctx.repo.repo, ctx.body.image ?? "");
      return reply.noContent();
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/avatar",
    operationId: "repoDeleteAvatar",
    tag: "repository",
    summary: "Delete avatar",
    access: admin,
    params: RepoParams,
    responses: { 204: null },
    handler: (ctx) => {
      deleteRepoAvatar(ctx.env, ctx.repo.repo);
      return reply.noContent();
    },
  }),
];
