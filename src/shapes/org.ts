import * as v from "valibot";
import { named } from "./registry.ts";
import { maxString, opt, requiredString } from "./common.ts";
import { isValidUsername } from "../lib/username.ts";

export const Organization = named(
  "Organization",
  v.object({
    id: v.number(),
    name: v.string(),
    full_name: v.string(),
    email: v.string(),
    avatar_url: v.string(),
    description: v.string(),
    website: v.string(),
    location: v.string(),
    visibility: v.string(),
    repo_admin_change_team_access: v.boolean(),
    username: v.string(),
  }),
);

export const OrganizationPermissions = named(
  "OrganizationPermissions",
  v.object({
    is_owner: v.boolean(),
    is_admin: v.boolean(),
    can_write: v.boolean(),
    can_read: v.boolean(),
    can_create_repository: v.boolean(),
  }),
);

const visibility = v.picklist(["", "public", "limited", "private"], "In");
const webUrl = v.union([v.literal(""), v.pipe(v.string(), v.url("Url"), v.maxLength(255, "MaxSize"))], "Url");

export const CreateOrgOption = named(
  "CreateOrgOption",
  v.object({
    username: v.pipe(requiredString(40), v.check(isValidUsername, "invalid username")),
    full_name: opt(maxString(100)),
    email: opt(maxString(255)),
    description: opt(maxString(255)),
    website: opt(webUrl),
    location: opt(maxString(50)),
    visibility: opt(visibility),
    repo_admin_change_team_access: opt(v.boolean()),
  }),
);

export const EditOrgOption = named(
  "EditOrgOption",
  v.object({
    full_name: opt(maxString(100)),
    email: opt(maxString(255)),
    description: opt(maxString(255)),
    website: opt(webUrl),
    location: opt(maxString(50)),
    visibility: opt(visibility),
    repo_admin_change_team_access: opt(v.boolean()),
  }),
);

export const UpdateUserAvatarOption = named("UpdateUserAvatarOption", v.object({ image: opt(v.string()) }));

export const OrgParams = v.object({ org: v.string() });
export const OrgUserParams = v.object({ org: v.string(), username: v.string() });

export const RenameOrgOption = named("RenameOrgOption", v.object({ new_name: requiredString(40) }));
export const RenameUserOption = named("RenameUserOption", v.object({ new_username: requiredString(40) }));

export type APIOrganization = v.InferOutput<typeof Organization>;
export type APIOrganizationPermissions = v.InferOutput<typeof OrganizationPermissions>;
