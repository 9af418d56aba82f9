import * as v from "valibot";
import { named } from "./registry.ts";
import { opt } from "./common.ts";

/** Gitea's MergeUpstreamRequest: the fork's branch to bring up to date, and whether only a fast-forward will do. */
export const MergeUpstreamRequest = named(
  "MergeUpstreamRequest",
  v.object({
    branch: opt(v.string()),
    ff_only: opt(v.boolean()),
  }),
);
export type APIMergeUpstreamRequest = v.InferOutput<typeof MergeUpstreamRequest>;

/** Gitea's MergeUpstreamResponse: "fast-forward", "merge" or "up-to-date". */
export const MergeUpstreamResponse = named("MergeUpstreamResponse", v.object({ merge_type: v.string() }));
export type APIMergeUpstreamResponse = v.InferOutput<typeof MergeUpstreamResponse>;
