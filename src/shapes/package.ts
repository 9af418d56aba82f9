import * as v from "valibot";
import { named } from "./registry.ts";
import { PageQuery } from "./common.ts";
import { User } from "./user.ts";
import { Repository } from "./repo.ts";

/** Schemas of the package management API (`/packages/{owner}`, Gitea's modules/structs/package.go). */

export const PackageOwnerParams = v.object({ owner: v.string() });
export const PackageNameParams = v.object({ owner: v.string(), type: v.string(), name: v.string() });
export const PackageVersionParams = v.object({ owner: v.string(), type: v.string(), name: v.string(), version: v.string() });
export const PackageLinkParams = v.object({ owner: v.string(), type: v.string(), name: v.string(), repo_name: v.string() });

/**
 * `type` and `q` are read with FormTrim and never refused: an unknown type lists nothing, as
 * Gitea's SearchVersions finds nothing for it.
 */
export const PackageListQuery = v.object({
  ...PageQuery.entries,
  type: v.optional(v.string()),
  q: v.optional(v.string()),
});

/** One version of a package: Gitea's api.Package carries the version's id and creation. */
export const Package = named(
  "Package",
  v.object({
    id: v.number(),
    owner: User,
    /** The linked repository when the viewer may see it, else null (Gitea's nil pointer). */
    repository: v.nullable(Repository),
    creator: User,
    type: v.string(),
    name: v.string(),
    version: v.string(),
    html_url: v.string(),
    created_at: v.string(),
  }),
);

export const PackageFile = named(
  "PackageFile",
  v.object({
    id: v.number(),
    size: v.number(),
    name: v.string(),
    md5: v.string(),
    sha1: v.string(),
    sha256: v.string(),
    sha512: v.string(),
  }),
);

export type APIPackage = v.InferOutput<typeof Package>;
export type APIPackageFile = v.InferOutput<typeof PackageFile>;
