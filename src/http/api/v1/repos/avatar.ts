import { operation, reply, type AnyOperation, type OpContext } from "../../../route.ts";
import { RepoParams } from "../../../schemas/repo.ts";
import { UpdateRepoAvatarOption } from "../../../schemas/repo-avatar.ts";
import { deleteRepoAvatar, setRepoAvatar } from "../../../../services/repo/avatar.ts";
import { repoFromPath } from "./context.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import { requireRepoAdmin } from "./repo.ts";
import { requireNotArchived } from "../issues/issues.ts";

/** A repository's avatar is its administrators' to change (Gitea's reqAdmin), and not while it is archived (423). */
function adminOfWritableRepo({ env, principal, url, params }: OpContext<{ owner: string; repo: string }, unknown, unknown>): RepoContext {
  const rc = repoFromPath(env, principal, url, params);
  requireRepoAdmin(principal, rc.perm.isAdmin());
  requireNotArchived(rc);
  return rc;
}

export const repoAvatarOperations: AnyOperation[] = [
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/avatar",
    operationId: "repoUpdateAvatar",
    tag: "repository",
    summary: "Update avatar",
    access: { scope: "repository", signIn: true },
    params: RepoParams,
    body: UpdateRepoAvatarOption,
    responses: { 204: null },
    handler: (ctx) => {
      const rc = adminOfWritableRepo(ctx);
      setRepoAvatar(ctx.env, rc.repo, ctx.body.image ?? "");
      return reply.noContent();
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/avatar",
    operationId: "repoDeleteAvatar",
    tag: "repository",
    summary: "Delete avatar",
    access: { scope: "repository", signIn: true },
    params: RepoParams,
    responses: { 204: null },
    handler: (ctx) => {
      deleteRepoAvatar(ctx.env, adminOfWritableRepo(ctx).repo);
      return reply.noContent();
    },
  }),
];
