import * as v from "valibot";
import { operation, Reply, type AnyOperation, type Granted, type OpContext } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { Secret } from "../../../../shapes/secret.ts";
import { listSecrets } from "../../../../services/secrets/secrets.ts";
import { toAPISecret } from "../../../../convert/secret.ts";
import { secretWriteOperations, type SecretRouteLevel } from "../secret-routes.ts";

/** An organization's Actions secrets: its owners only (Gitea's reqToken, orgAssignment, reqOrgOwnership; an org the caller cannot see is 404). */
const access = { scope: "organization", signIn: true, org: "owner" } as const;

const level: SecretRouteLevel = {
  name: "Org",
  path: "/orgs/:org/actions/secrets",
  tag: "organization",
  where: "in an organization",
  access,
  params: { org: v.string() },
  // The builder hands the runner's context through, resolved by the declaration above.
  level: ({ org }: OpContext<Record<string, string>, unknown, unknown> & Granted<typeof access>) => ({ ownerId: org.id }),
};

export const orgSecretOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: level.path,
    operationId: "orgListActionsSecrets",
    tag: level.tag,
    summary: "List an organization's actions secrets",
    access,
    params: v.object({ org: v.string() }),
    query: PageQuery,
    responses: { 200: v.array(Secret) },
    handler: (ctx) => {
      const page = ctx.page();
      const { items, total } = listSecrets(ctx.env, { ownerId: ctx.org.id }, page);
      // Gitea's org list sets X-Total-Count only (no Link header, unlike the repository's).
      return new Reply(200, items.map(toAPISecret), {
        "X-Total-Count": String(total),
        "Access-Control-Expose-Headers": "X-Total-Count",
      });
    },
  }),
  ...secretWriteOperations(level),
];
