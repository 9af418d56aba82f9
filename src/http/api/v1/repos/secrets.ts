import * as v from "valibot";
import { operation, type AnyOperation, type OpContext } from "../../../route.ts";
import { PageQuery } from "../../../schemas/common.ts";
import { Secret } from "../../../schemas/secret.ts";
import { Forbidden, Unauthorized } from "../../../../lib/errors.ts";
import { listSecrets, type SecretLevel } from "../../../../services/secrets/secrets.ts";
import { toAPISecret } from "../../../../convert/secret.ts";
import { repoFromPath } from "./context.ts";
import { secretWriteOperations, type SecretRouteLevel } from "../secret-routes.ts";

/**
 * Gitea 1.25 registers the repository's Actions routes with reqToken and reqOwner: the owner, an
 * owner of the owning organization (or a member of one of its admin teams), or a site admin;
 * a collaborator with admin access is refused, as in Gitea.
 */
export function ownedRepo({ env, principal, url, params }: OpContext<Record<string, string>, unknown, unknown>): SecretLevel {
  const rc = repoFromPath(env, principal, url, params as { owner: string; repo: string });
  if (!principal) throw new Unauthorized("token is required");
  if (!rc.perm.isOwner()) throw new Forbidden("user should be the owner of the repo");
  return { repoId: rc.repo.id };
}

const level: SecretRouteLevel = {
  name: "Repo",
  path: "/repos/:owner/:repo/actions/secrets",
  tag: "repository",
  where: "in a repository",
  access: { scope: "repository", signIn: true },
  params: { owner: v.string(), repo: v.string() },
  level: ownedRepo,
};

export const repoSecretOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: level.path,
    operationId: "repoListActionsSecrets",
    tag: level.tag,
    summary: "List an repo's actions secrets",
    access: level.access,
    params: v.object({ owner: v.string(), repo: v.string() }),
    query: PageQuery,
    responses: { 200: v.array(Secret) },
    handler: (ctx) => {
      const repo = level.level(ctx);
      const page = ctx.page();
      const { items, total } = listSecrets(ctx.env, repo, page);
      return ctx.list(items.map(toAPISecret), total, page);
    },
  }),
  ...secretWriteOperations(level),
];
