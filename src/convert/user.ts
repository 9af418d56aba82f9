import { createHash } from "node:crypto";
import type { Settings } from "../config/settings.ts";
import type { EmailRow, UserRow } from "../db/schema/index.ts";
import { toRFC3339 } from "../lib/time.ts";
import { visibilityName } from "../services/user/visibility.ts";
import type { APIEmail, APIUser, APIUserSettings } from "../shapes/user.ts";

export function avatarUrl(settings: Settings, user: Pick<UserRow, "email" | "avatar" | "id">): string {
  if (user.avatar) return `${settings.server.rootUrl}avatars/${encodeURIComponent(user.avatar)}`;
  if (settings.server.offlineMode || !user.email) return `${settings.server.rootUrl}assets/img/avatar_default.png`;
  const hash = createHash("md5").update(user.email.trim().toLowerCase()).digest("hex");
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon`;
}

/**
 * Gitea's convert.ToUser: a signed-in caller sees the real email unless the user keeps it
 * private; the user and site admins also see the account fields (admin flag, login source,
 * last login, language, active, prohibit_login).
 */
export function toAPIUser(settings: Settings, user: UserRow, doer: UserRow | undefined): APIUser {
  const signed = doer !== undefined;
  return userJson(settings, user, signed, signed && (doer.isAdmin || doer.id === user.id));
}

/**
 * Gitea's ToUserWithAccessMode, used for repository owners: "signed" means the viewer has some
 * access to the repository (anonymous readers of a public repository included), and the
 * account-only fields are never shown.
 */
export function toAPIUserWithAccess(settings: Settings, user: UserRow, hasAccess: boolean): APIUser {
  return userJson(settings, user, hasAccess, false);
}

function userJson(settings: Settings, user: UserRow, signed: boolean, authed: boolean): APIUser {
  const placeholder = `${user.lowerName}@${settings.service.noReplyAddress}`;
  return {
    id: user.id,
    login: user.name,
    login_name: authed ? user.loginName : "",
    source_id: authed ? user.loginSource : 0,
    full_name: user.fullName,
    email: signed && (!user.keepEmailPrivate || authed) ? user.email : placeholder,
    avatar_url: avatarUrl(settings, user),
    html_url: `${settings.server.rootUrl}${encodeURIComponent(user.name)}`,
    language: authed ? user.language : "",
    is_admin: authed ? user.isAdmin : false,
    // Gitea leaves the field at Go's zero time for callers who may not see it.
    last_login: authed ? toRFC3339(user.lastLoginUnix) : "0001-01-01T00:00:00Z",
    created: toRFC3339(user.createdUnix),
    restricted: user.isRestricted,
    active: authed ? user.isActive : false,
    prohibit_login: authed ? user.prohibitLogin : false,
    location: user.location,
    website: user.website,
    description: user.description,
    visibility: visibilityName(user.visibility),
    followers_count: user.numFollowers,
    following_count: user.numFollowing,
    starred_repos_count: user.numStars,
    username: user.name,
  };
}

export function toAPIEmail(email: EmailRow, owner: Pick<UserRow, "id" | "name">): APIEmail {
  return {
    email: email.email,
    verified: email.isActivated,
    primary: email.isPrimary,
    user_id: owner.id,
    username: owner.name,
  };
}

export function toAPIUserSettings(user: UserRow, defaultTheme: string): APIUserSettings {
  return {
    full_name: user.fullName,
    website: user.website,
    description: user.description,
    location: user.location,
    language: user.language,
    theme: user.theme || defaultTheme,
    diff_view_style: user.diffViewStyle,
    hide_email: user.keepEmailPrivate,
    hide_activity: user.hideActivity,
  };
}
