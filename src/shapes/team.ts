import * as v from "valibot";
import { named } from "./registry.ts";
import { maxString, opt, requiredString } from "./common.ts";
import { Organization } from "./org.ts";

export const Team = named(
  "Team",
  v.object({
    id: v.number(),
    name: v.string(),
    description: v.string(),
    // Gitea leaves it null in lists; hearth always fills it.
    organization: Organization,
    includes_all_repositories: v.boolean(),
    permission: v.picklist(["none", "read", "write", "admin", "owner"]),
    units: v.array(v.string()),
    units_map: v.record(v.string(), v.string()),
    can_create_org_repo: v.boolean(),
  }),
);

export const TeamSearchResult = named("TeamSearchResults", v.object({ ok: v.boolean(), data: v.array(Team) }));

/** Gitea binds no rule to `permission`: read, write and admin count, any other word is none. */
const permission = v.string();
const alphaDashDot = v.regex(/^[\w.-]*$/, "AlphaDashDot");

export const CreateTeamOption = named(
  "CreateTeamOption",
  v.object({
    name: v.pipe(requiredString(255), alphaDashDot),
    description: opt(maxString(255)),
    includes_all_repositories: opt(v.boolean()),
    permission: opt(permission),
    units: opt(v.array(v.string())),
    units_map: opt(v.record(v.string(), v.string())),
    can_create_org_repo: opt(v.boolean()),
  }),
);

export const EditTeamOption = named(
  "EditTeamOption",
  v.object({
    name: opt(v.pipe(maxString(255), alphaDashDot)),
    description: opt(maxString(255)),
    includes_all_repositories: opt(v.boolean()),
    permission: opt(permission),
    units: opt(v.array(v.string())),
    units_map: opt(v.record(v.string(), v.string())),
    can_create_org_repo: opt(v.boolean()),
  }),
);

export type APITeam = v.InferOutput<typeof Team>;
