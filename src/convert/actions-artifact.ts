import type { Settings } from "../config/settings.ts";
import type { ActionArtifactRow } from "../db/schema/index.ts";
import { ArtifactStatus } from "../services/actions/artifacts.ts";
import { toRFC3339 } from "../lib/time.ts";
import { goPathEscape } from "./content.ts";
import type { APIActionArtifact } from "../shapes/actions-artifact.ts";
import type { APIActionWorkflowRun } from "../shapes/actions.ts";

/** Go's zero time.Time, as Gitea writes the run times it leaves unset. */
const GO_ZERO_TIME = "0001-01-01T00:00:00Z";

/**
 * The workflow run of an artifact as Gitea's ToActionArtifact gives it: only its id, repository
 * and commit, every other field at its zero value (the full run is at `/actions/runs/{id}`).
 */
function artifactRun(a: ActionArtifactRow): APIActionWorkflowRun {
  return {
    id: a.runId,
    url: "",
    html_url: "",
    display_title: "",
    path: "",
    event: "",
    run_attempt: 0,
    run_number: 0,
    ...(a.repoId ? { repository_id: a.repoId } : {}),
    head_sha: a.commitSha,
    status: "",
    started_at: GO_ZERO_TIME,
    completed_at: GO_ZERO_TIME,
  };
}

/** Gitea's convert.ToActionArtifact (times in the server's zone, as AsLocalTime writes them). */
export function toAPIActionArtifact(settings: Settings, repo: { owner: string; name: string }, a: ActionArtifactRow): APIActionArtifact {
  const url = `${settings.server.rootUrl}api/v1/repos/${goPathEscape(repo.owner)}/${goPathEscape(repo.name)}/actions/artifacts/${a.id}`;
  return {
    id: a.id,
    name: a.artifactName,
    size_in_bytes: a.fileSize,
    url,
    archive_download_url: `${url}/zip`,
    expired: a.status === ArtifactStatus.Expired,
    workflow_run: artifactRun(a),
    created_at: toRFC3339(a.createdUnix),
    updated_at: toRFC3339(a.updatedUnix),
    expires_at: toRFC3339(a.expiredUnix),
  };
}
