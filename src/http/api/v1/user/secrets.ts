import type { AnyOperation, Granted, OpContext } from "../../../route.ts";
import { secretWriteOperations } from "../secret-routes.ts";

const access = { scope: "user", signIn: true } as const;

/**
 * The signed-in user's own Actions secrets (Gitea has no list for them). The delete acts on the
 * user's level only (Gitea 1.21 routed it to the repository's handler by mistake).
 */
export const userSecretOperations: AnyOperation[] = secretWriteOperations({
  name: "User",
  path: "/user/actions/secrets",
  tag: "user",
  where: "in a user scope",
  access,
  params: {},
  // The builder hands the runner's context through; the declaration guarantees the doer.
  level: ({ doer }: OpContext<Record<string, string>, unknown, unknown> & Granted<typeof access>) => ({ ownerId: doer.id }),
});
