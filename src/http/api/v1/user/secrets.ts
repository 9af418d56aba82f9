import type { AnyOperation } from "../../../route.ts";
import { secretWriteOperations } from "../secret-routes.ts";

/**
 * The signed-in user's own Actions secrets (Gitea has no list for them). The delete acts on the
 * user's level only (Gitea 1.21 routed it to the repository's handler by mistake).
 */
export const userSecretOperations: AnyOperation[] = secretWriteOperations({
  name: "User",
  path: "/user/actions/secrets",
  tag: "user",
  where: "in a user scope",
  access: { scope: "user", signIn: true },
  params: {},
  level: ({ principal }) => ({ ownerId: principal!.user.id }),
});
