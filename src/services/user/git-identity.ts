import type { Env } from "../env.ts";
import type { UserRow } from "../../db/schema/index.ts";

/**
 * The name and address hearth writes into commits it makes for a user (Gitea's NewGitSig): the
 * full name when set, and the no-reply placeholder when the user keeps their address private.
 */
export function gitIdentityOf(env: Env, user: Pick<UserRow, "name" | "fullName" | "lowerName" | "email" | "keepEmailPrivate">): { name: string; email: string } {
  return {
    name: user.fullName || user.name,
    email: user.keepEmailPrivate ? `${user.lowerName}@${env.settings.service.noReplyAddress}` : user.email,
  };
}
