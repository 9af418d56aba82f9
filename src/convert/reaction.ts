import type { Settings } from "../config/settings.ts";
import type { UserRow } from "../db/schema/index.ts";
import type { ReactionView } from "../services/issue/reactions.ts";
import { toRFC3339 } from "../lib/time.ts";
import { toAPIUser } from "./user.ts";
import type { APIReaction } from "../shapes/comment.ts";

/** The reacting user is rendered for the doer, as Gitea's ToUser(r.User, ctx.Doer). */
export function toAPIReaction(settings: Settings, v: ReactionView, doer: UserRow | undefined): APIReaction {
  return { user: toAPIUser(settings, v.user, doer), content: v.reaction.type, created_at: toRFC3339(v.reaction.createdUnix) };
}
