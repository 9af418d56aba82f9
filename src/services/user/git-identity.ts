import type { Env } from "../env.ts";
import type { UserRow } from "../../db/schema/index.ts";

/** What git strips from both ends of an identity name ("crud"): a name of nothing else it refuses. */
// eslint-disable-next-line no-control-regex
const GIT_CRUD = /^[\x00-\x20.,:;<>"\\']+|[\x00-\x20.,:;<>"\\']+$/g;

/**
 * `name` with what cannot stand in a git identity removed (control characters, line breaks, `<`,
 * `>`), or undefined when git would strip it to nothing (`..`, `" "`) and refuse it.
 */
export function usableGitName(name: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  const safe = name.replace(/[\x00-\x1f\x7f<>]/g, "").trim();
  return safe.replace(GIT_CRUD, "") ? safe : undefined;
}

/**
 * Gitea's User.GitName: the full name, else the username, else `user-{id}`, made git-safe. Beyond
 * Gitea, a name git would strip to nothing (a full name of `..`) counts as no name: commit-tree
 * refuses it, which made every commit hearth wrote for that user fail.
 */
export function gitNameOf(user: Pick<UserRow, "id" | "name" | "fullName">): string {
  return usableGitName(user.fullName) ?? usableGitName(user.name) ?? `user-${user.id}`;
}

/**
 * The name and address hearth writes into commits it makes for a user (Gitea's NewGitSig): the
 * git name (above), and the no-reply placeholder when the user keeps their address private.
 */
export function gitIdentityOf(
  env: Env,
  user: Pick<UserRow, "id" | "name" | "fullName" | "lowerName" | "email" | "keepEmailPrivate">,
): { name: string; email: string } {
  return {
    name: gitNameOf(user),
    email: user.keepEmailPrivate ? `${user.lowerName}@${env.settings.service.noReplyAddress}` : user.email,
  };
}
