import * as v from "valibot";
import { named } from "./registry.ts";
import { opt } from "./common.ts";

const names = v.array(v.string());

export const TagProtection = named(
  "TagProtection",
  v.object({
    id: v.number(),
    name_pattern: v.string(),
    whitelist_usernames: names,
    whitelist_teams: names,
    created_at: v.string(),
    updated_at: v.string(),
  }),
);

const optionEntries = {
  name_pattern: opt(v.string()),
  whitelist_usernames: opt(names),
  whitelist_teams: opt(names),
};

export const CreateTagProtectionOption = named("CreateTagProtectionOption", v.object(optionEntries));
export const EditTagProtectionOption = named("EditTagProtectionOption", v.object(optionEntries));

export const TagProtectionParams = v.object({ owner: v.string(), repo: v.string(), id: v.string() });

export type APITagProtection = v.InferOutput<typeof TagProtection>;
