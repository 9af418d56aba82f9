/**
 * release.yml has no schema among Gitea's (modules/migration/schemas has none for releases), so it is
 * checked against Gitea's Release and ReleaseAsset structs (modules/migration/release.go), field by
 * field, under their yaml names. The fields a restore cannot do without are required: the tag, the
 * publisher and the time of a release; the name, size and download count of an asset (Gitea's
 * uploader dereferences the last two unchecked).
 */

const dateTime = { type: "string", format: "date-time" };
const orNull = (schema: object) => ({ anyOf: [schema, { type: "null" }] });

const assetSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    id: { type: "integer" },
    name: { type: "string", minLength: 1 },
    content_type: orNull({ type: "string" }),
    size: { type: "integer", minimum: 0 },
    download_count: { type: "integer", minimum: 0 },
    created: dateTime,
    updated: dateTime,
    download_url: orNull({ type: "string" }),
    originalurl: { type: "string" },
  },
  required: ["name", "size", "download_count"],
};

export const releaseFileSchema = {
  $schema: "http://json-schema.org/draft-04/schema#",
  type: "array",
  items: {
    type: "object",
    additionalProperties: false,
    properties: {
      tag_name: { type: "string", minLength: 1 },
      target_commitish: { type: "string" },
      name: { type: "string" },
      body: { type: "string" },
      draft: { type: "boolean" },
      prerelease: { type: "boolean" },
      publisher_id: { type: "integer" },
      publisher_name: { type: "string" },
      publisher_email: { type: "string" },
      assets: { type: "array", items: assetSchema },
      created: dateTime,
      published: dateTime,
    },
    required: ["tag_name", "publisher_id", "publisher_name", "created"],
  },
};
