import * as v from "valibot";
import { named } from "./registry.ts";
import { opt, PageQuery } from "./common.ts";
import { User } from "./user.ts";
import { Repository } from "./repo.ts";

export const COMMIT_STATUS_STATE_NAMES = ["pending", "success", "error", "failure", "warning", "skipped"] as const;

export const CommitStatus = named(
  "CommitStatus",
  v.object({
    id: v.number(),
    status: v.string(),
    target_url: v.string(),
    description: v.string(),
    url: v.string(),
    context: v.string(),
    creator: v.nullable(User),
    created_at: v.string(),
    updated_at: v.string(),
  }),
);

export const CombinedStatus = named(
  "CombinedStatus",
  v.object({
    state: v.string(),
    sha: v.string(),
    total_count: v.number(),
    statuses: v.nullable(v.array(CommitStatus)),
    repository: v.nullable(Repository),
    commit_url: v.string(),
    url: v.string(),
  }),
);

export const CreateStatusOption = named(
  "CreateStatusOption",
  v.object({
    state: v.picklist(COMMIT_STATUS_STATE_NAMES, "State"),
    target_url: opt(v.string()),
    description: opt(v.string()),
    context: opt(v.string()),
  }),
);

export const StatusListQuery = v.object({
  ...PageQuery.entries,
  sort: v.optional(v.string()),
  state: v.optional(v.string()),
});

export const ShaParams = v.object({ owner: v.string(), repo: v.string(), sha: v.string() });
export const RefParams = v.object({ owner: v.string(), repo: v.string(), ref: v.string() });

export type APICommitStatus = v.InferOutput<typeof CommitStatus>;
export type APICombinedStatus = v.InferOutput<typeof CombinedStatus>;
