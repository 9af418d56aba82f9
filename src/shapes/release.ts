import * as v from "valibot";
import { named } from "./registry.ts";
import { PageQuery, opt, requiredString } from "./common.ts";
import { User } from "./user.ts";
import { Attachment } from "./issue.ts";

/** Schemas of releases and their assets. */

export const ReleaseParams = v.object({ owner: v.string(), repo: v.string(), id: v.string() });
export const ReleaseAssetParams = v.object({ owner: v.string(), repo: v.string(), id: v.string(), attachment_id: v.string() });

/** Gitea reads these with FormOptionalBool: absent or empty means no filter. */
const boolQuery = v.pipe(v.string(), v.metadata({ format: "boolean" }));

export const ReleaseListQuery = v.object({
  draft: v.optional(boolQuery),
  "pre-release": v.optional(boolQuery),
  ...PageQuery.entries,
});

export const Release = named(
  "Release",
  v.object({
    id: v.number(),
    tag_name: v.string(),
    target_commitish: v.string(),
    name: v.string(),
    body: v.string(),
    url: v.string(),
    html_url: v.string(),
    tarball_url: v.string(),
    zipball_url: v.string(),
    upload_url: v.string(),
    draft: v.boolean(),
    prerelease: v.boolean(),
    created_at: v.string(),
    published_at: v.string(),
    author: User,
    assets: v.array(Attachment),
  }),
);

export const CreateReleaseOption = named(
  "CreateReleaseOption",
  v.object({
    tag_name: requiredString(),
    target_commitish: opt(v.string()),
    name: opt(v.string()),
    body: opt(v.string()),
    draft: opt(v.boolean()),
    prerelease: opt(v.boolean()),
    tag_message: opt(v.string()),
  }),
);

export const EditReleaseOption = named(
  "EditReleaseOption",
  v.object({
    tag_name: opt(v.string()),
    target_commitish: opt(v.string()),
    name: opt(v.string()),
    body: opt(v.string()),
    draft: opt(v.boolean()),
    prerelease: opt(v.boolean()),
  }),
);

export type APIRelease = v.InferOutput<typeof Release>;
