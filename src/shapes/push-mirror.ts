import * as v from "valibot";
import { named } from "./registry.ts";
import { opt } from "./common.ts";

/** Gitea's api.PushMirror: never the credentials. */
export const PushMirror = named(
  "PushMirror",
  v.object({
    repo_name: v.string(),
    remote_name: v.string(),
    remote_address: v.string(),
    created: v.string(),
    last_update: v.nullable(v.string()),
    last_error: v.string(),
    interval: v.string(),
    sync_on_commit: v.boolean(),
  }),
);

/** Gitea binds no field as Required: an absent interval is refused later, as Go's ParseDuration refuses "". */
export const CreatePushMirrorOption = named(
  "CreatePushMirrorOption",
  v.object({
    remote_address: opt(v.string()),
    remote_username: opt(v.string()),
    remote_password: opt(v.string()),
    interval: opt(v.string()),
    sync_on_commit: opt(v.boolean()),
  }),
);

export const PushMirrorParams = v.object({ owner: v.string(), repo: v.string(), name: v.string() });

export type APIPushMirror = v.InferOutput<typeof PushMirror>;
