import * as v from "valibot";
import { operation, reply, Reply, type Access, type AnyOperation, type Granted, type OpContext } from "../../route.ts";
import { CreateOrUpdateSecretOption, SecretNameParam } from "../../../shapes/secret.ts";
import { createOrUpdateSecret, deleteSecretByName, type SecretTarget } from "../../../services/secrets/secrets.ts";

/**
 * The Actions secret operations every level shares (organization, repository, user): create or
 * update (one PUT, 201 when created, 204 when updated) and delete by name. A level says where its
 * secrets live and who may touch them: `access` declares what the runner resolves and checks (404,
 * then 403, as Gitea orders them; a level not yet declaring its resource runs those checks in
 * `level`), and `level` names the level the operation acts on, from what was resolved, so each
 * level's delete reaches only its own secrets; the repository's level hands on its checked context.
 */
export interface SecretRouteLevel<A extends Access = Access> {
  /** `Org`, `Repo` or `User`: Gitea's operationIds are `update{Name}Secret` and `delete{Name}Secret`. */
  name: string;
  /** The secrets collection, e.g. `/orgs/:org/actions/secrets`. */
  path: string;
  tag: string;
  /** Gitea's summary wording: "in an organization", "in a repository", "in a user scope". */
  where: string;
  access: A;
  /** The collection path's own parameters (none for /user). */
  params: v.ObjectEntries;
  level(ctx: SecretLevelContext<A>): SecretTarget;
}

/** What a level's `level` is handed: the request, and what its declaration resolved. */
export type SecretLevelContext<A extends Access = Access> = OpContext<Record<string, string>, unknown, unknown> & Granted<A>;

export function secretWriteOperations<const A extends Access>(l: SecretRouteLevel<A>): AnyOperation[] {
  const params = v.object({ ...l.params, ...SecretNameParam });
  const base = { tag: l.tag, access: l.access, params };
  return [
    operation({
      ...base,
      method: "PUT",
      path: `${l.path}/:secretname`,
      operationId: `update${l.name}Secret`,
      summary: `Create or Update a secret value ${l.where}`,
      body: CreateOrUpdateSecretOption,
      responses: { 201: null, 204: null },
      handler: (ctx) => {
        const target = l.level(ctx as SecretLevelContext<A>);
        // Gitea binds the body (422) before its handler checks the name (400).
        const body = ctx.body;
        const { created } = createOrUpdateSecret(ctx.env, target, ctx.params.secretname, body.data, body.description ?? "");
        return created ? new Reply(201) : reply.noContent();
      },
    }),
    operation({
      ...base,
      method: "DELETE",
      path: `${l.path}/:secretname`,
      operationId: `delete${l.name}Secret`,
      summary: `Delete a secret ${l.where}`,
      responses: { 204: null },
      handler: (ctx) => {
        deleteSecretByName(ctx.env, l.level(ctx as SecretLevelContext<A>), ctx.params.secretname);
        return reply.noContent();
      },
    }),
  ];
}
