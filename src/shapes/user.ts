import * as v from "valibot";
import { named } from "./registry.ts";
import { dateTime, maxString, opt, requiredString } from "./common.ts";

export const User = named(
  "User",
  v.object({
    id: v.number(),
    login: v.string(),
    login_name: v.string(),
    source_id: v.number(),
    full_name: v.string(),
    email: v.string(),
    avatar_url: v.string(),
    html_url: v.string(),
    language: v.string(),
    is_admin: v.boolean(),
    last_login: v.string(),
    created: v.string(),
    restricted: v.boolean(),
    active: v.boolean(),
    prohibit_login: v.boolean(),
    location: v.string(),
    website: v.string(),
    description: v.string(),
    visibility: v.string(),
    followers_count: v.number(),
    following_count: v.number(),
    starred_repos_count: v.number(),
    username: v.string(),
  }),
);

export const UserList = v.array(User);

export const UserSearchResult = named(
  "UserSearchResult",
  v.object({ ok: v.boolean(), data: v.array(User) }),
);

const visibility = v.picklist(["", "public", "limited", "private"], "In");

export const CreateUserOption = named(
  "CreateUserOption",
  v.object({
    username: requiredString(40),
    email: requiredString(254),
    password: opt(maxString(255)),
    full_name: opt(maxString(100)),
    login_name: opt(v.string()),
    source_id: opt(v.number()),
    must_change_password: opt(v.boolean()),
    send_notify: opt(v.boolean()),
    restricted: opt(v.boolean()),
    visibility: opt(visibility),
    created_at: opt(dateTime),
  }),
);

export const EditUserOption = named(
  "EditUserOption",
  v.object({
    login_name: requiredString(),
    source_id: opt(v.number()),
    email: opt(maxString(254)),
    full_name: opt(maxString(100)),
    password: opt(maxString(255)),
    must_change_password: opt(v.boolean()),
    website: opt(maxString(255)),
    location: opt(maxString(50)),
    description: opt(maxString(255)),
    active: opt(v.boolean()),
    admin: opt(v.boolean()),
    allow_git_hook: opt(v.boolean()),
    allow_import_local: opt(v.boolean()),
    max_repo_creation: opt(v.pipe(v.number(), v.integer())),
    prohibit_login: opt(v.boolean()),
    allow_create_organization: opt(v.boolean()),
    restricted: opt(v.boolean()),
    visibility: opt(visibility),
  }),
);

export const Email = named(
  "Email",
  v.object({
    email: v.string(),
    verified: v.boolean(),
    primary: v.boolean(),
    user_id: v.number(),
    username: v.string(),
  }),
);

export const CreateEmailOption = named("CreateEmailOption", v.object({ emails: opt(v.array(v.string())) }));
export const DeleteEmailOption = named("DeleteEmailOption", v.object({ emails: opt(v.array(v.string())) }));

export const UserSettings = named(
  "UserSettings",
  v.object({
    full_name: v.string(),
    website: v.string(),
    description: v.string(),
    location: v.string(),
    language: v.string(),
    theme: v.string(),
    diff_view_style: v.string(),
    hide_email: v.boolean(),
    hide_activity: v.boolean(),
  }),
);

const webUrl = v.union([v.literal(""), v.pipe(v.string(), v.url("Url"), v.maxLength(255, "MaxSize"))], "Url");

export const UserSettingsOptions = named(
  "UserSettingsOptions",
  v.object({
    full_name: opt(maxString(100)),
    website: opt(webUrl),
    description: opt(maxString(255)),
    location: opt(maxString(50)),
    language: opt(v.string()),
    theme: opt(v.string()),
    diff_view_style: opt(v.string()),
    hide_email: opt(v.boolean()),
    hide_activity: opt(v.boolean()),
  }),
);

export const AccessToken = named(
  "AccessToken",
  v.object({
    id: v.number(),
    name: v.string(),
    sha1: v.string(),
    token_last_eight: v.string(),
    scopes: v.array(v.string()),
    created_at: v.string(),
    last_used_at: v.string(),
  }),
);

export const CreateAccessTokenOption = named(
  "CreateAccessTokenOption",
  v.object({
    name: requiredString(),
    scopes: opt(v.array(v.string())),
  }),
);

/** The JSON types convert/ builds, derived from the schemas above: one definition per shape. */
export type APIUser = v.InferOutput<typeof User>;
export type APIEmail = v.InferOutput<typeof Email>;
export type APIUserSettings = v.InferOutput<typeof UserSettings>;
export type APIAccessToken = v.InferOutput<typeof AccessToken>;
