import * as v from "valibot";
import { operation, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { Secret } from "../../../../shapes/secret.ts";
import { listSecrets, type SecretLevel } from "../../../../services/secrets/secrets.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import type { Owns } from "../../../../services/access/repo-access.ts";
import { toAPISecret } from "../../../../convert/secret.ts";
import { secretWriteOperations, type SecretRouteLevel } from "../secret-routes.ts";

/**
 * Gitea 1.25 registers the repository's Actions routes with reqToken and reqOwner: the owner, an
 * owner of the owning organization (or a member of one of its admin teams), or a site admin;
 * a collaborator with admin access is refused, as in Gitea. hearth asks for the sign-in first.
 */
export const repoOwner = { scope: "repository", signIn: true, repo: { owner: true } } as const;

/** The repository's level of Actions secrets and variables. */
export const repoLevel = ({ repo: rc }: { repo: RepoContext }): SecretLevel => ({ repoId: rc.repo.id });
/** The repository's level for a change: its context, checked for the owner by `repoOwner`. */
export const repoTarget = ({ repo }: { repo: Owns }): { repo: Owns } => ({ repo });

const level: SecretRouteLevel<typeof repoOwner> = {
  name: "Repo",
  path: "/repos/:owner/:repo/actions/secrets",
  tag: "repository",
  where: "in a repository",
  access: repoOwner,
  params: { owner: v.string(), repo: v.string() },
  level: repoTarget,
};

export const repoSecretOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: level.path,
    operationId: "repoListActionsSecrets",
    tag: level.tag,
    summary: "List an repo's actions secrets",
    access: repoOwner,
    params: v.object({ owner: v.string(), repo: v.string() }),
    query: PageQuery,
    responses: { 200: v.array(Secret) },
    handler: ({ env, repo: rc, page: pageOf, list }) => {
      const page = pageOf();
      const { items, total } = listSecrets(env, repoLevel({ repo: rc }), page);
      return list(items.map(toAPISecret), total, page);
    },
  }),
  ...secretWriteOperations(level),
];
