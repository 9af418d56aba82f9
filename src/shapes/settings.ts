import * as v from "valibot";
import { named } from "./registry.ts";

export const ServerVersion = named("ServerVersion", v.object({ version: v.string() }));

export const GeneralAPISettings = named(
  "GeneralAPISettings",
  v.object({
    max_response_items: v.number(),
    default_paging_num: v.number(),
    default_git_trees_per_page: v.number(),
    default_max_blob_size: v.number(),
    default_max_response_size: v.number(),
  }),
);

export const GeneralAttachmentSettings = named(
  "GeneralAttachmentSettings",
  v.object({ enabled: v.boolean(), allowed_types: v.string(), max_size: v.number(), max_files: v.number() }),
);

export const GeneralRepoSettings = named(
  "GeneralRepoSettings",
  v.object({
    mirrors_disabled: v.boolean(),
    http_git_disabled: v.boolean(),
    migrations_disabled: v.boolean(),
    stars_disabled: v.boolean(),
    time_tracking_disabled: v.boolean(),
    lfs_disabled: v.boolean(),
  }),
);

export const GeneralUISettings = named(
  "GeneralUISettings",
  v.object({ default_theme: v.string(), allowed_reactions: v.array(v.string()), custom_emojis: v.array(v.string()) }),
);
