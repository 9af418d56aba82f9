import * as v from "valibot";
import { named } from "./registry.ts";
import { ActionWorkflowRun } from "./actions.ts";
import { PageQuery } from "./common.ts";

/** Gitea's api.ActionArtifact: one v4 artifact (a zip) of a workflow run. */
export const ActionArtifact = named(
  "ActionArtifact",
  v.object({
    id: v.number(),
    name: v.string(),
    size_in_bytes: v.number(),
    url: v.string(),
    archive_download_url: v.string(),
    expired: v.boolean(),
    workflow_run: v.nullable(ActionWorkflowRun),
    created_at: v.string(),
    updated_at: v.string(),
    expires_at: v.string(),
  }),
);

export const ActionArtifactsResponse = named(
  "ActionArtifactsResponse",
  v.object({
    artifacts: v.array(ActionArtifact),
    total_count: v.number(),
  }),
);

/** `{artifact_id}` is a string in Gitea's document; an id that does not parse finds nothing. */
export const ArtifactParams = v.object({ owner: v.string(), repo: v.string(), artifact_id: v.string() });

/** `name` narrows a list to the artifacts of that exact name. */
export const ArtifactListQuery = v.object({ name: v.optional(v.string()), ...PageQuery.entries });

export type APIActionArtifact = v.InferOutput<typeof ActionArtifact>;
export type APIActionArtifactsResponse = v.InferOutput<typeof ActionArtifactsResponse>;
