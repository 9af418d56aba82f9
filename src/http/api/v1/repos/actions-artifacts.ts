import * as v from "valibot";
import { operation, reply, Reply, type AnyOperation } from "../../../route.ts";
import { ActionArtifact, ActionArtifactsResponse, ArtifactListQuery, ArtifactParams } from "../../../../shapes/actions-artifact.ts";
import { toAPIActionArtifact } from "../../../../convert/actions-artifact.ts";
import {
  ArtifactStatus,
  isV4Artifact,
  listRepoArtifacts,
  repoArtifact,
  requestArtifactDeletion,
  signedRawUrl,
} from "../../../../services/actions/artifacts.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import type { Env } from "../../../../services/env.ts";
import type { ActionArtifactRow } from "../../../../db/schema/index.ts";
import { NotFound } from "../../../../lib/errors.ts";
import { nowUnix } from "../../../../lib/time.ts";

/**
 * A repository's Actions artifacts (Gitea 1.25's GetArtifacts, GetArtifactsOfRun, GetArtifact,
 * DeleteArtifact, DownloadArtifact): in the `/actions` group that needs the Actions unit readable
 * (no token needed for a public repository); deleting needs write on Actions. Only v4 artifacts
 * (one zip each) have an id the API can name. `/zip` redirects to a signed `/zip/raw` URL good for
 * an hour, which http/runner/artifacts.ts serves.
 */
const reader = { scope: "repository", signIn: false, repo: { read: "actions" } } as const;
const writer = { scope: "repository", signIn: false, repo: { read: "actions", write: "actions" } } as const;

/** Gitea's PathParamInt64: what does not parse is 0, which finds nothing. */
const idOf = (s: string): number => (/^\d{1,15}$/.test(s) ? Number(s) : 0);

const json = (env: Env, rc: RepoContext) => (a: ActionArtifactRow) => toAPIActionArtifact(env.settings, { owner: rc.owner.name, name: rc.repo.name }, a);

export const repoActionsArtifactOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/actions/artifacts",
    operationId: "getArtifacts",
    tag: "repository",
    summary: "Lists all artifacts for a repository",
    access: reader,
    params: v.object({ owner: v.string(), repo: v.string() }),
    query: ArtifactListQuery,
    responses: { 200: ActionArtifactsResponse },
    // Gitea pages the list but answers without X-Total-Count or Link.
    handler: ({ env, repo: rc, query, page }) => {
      const { rows, total } = listRepoArtifacts(env, rc.repo.id, { name: query.name }, page());
      return { artifacts: rows.map(json(env, rc)), total_count: total };
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/actions/runs/:run/artifacts",
    operationId: "getArtifactsOfRun",
    tag: "repository",
    summary: "Lists all artifacts for a repository run",
    access: reader,
    params: v.object({ owner: v.string(), repo: v.string(), run: v.string() }),
    query: ArtifactListQuery,
    responses: { 200: ActionArtifactsResponse },
    // The run is its id; Gitea filters by it without looking the run up (0 filters nothing).
    handler: ({ env, repo: rc, params, query, page }) => {
      const { rows, total } = listRepoArtifacts(env, rc.repo.id, { runId: idOf(params.run), name: query.name }, page());
      return { artifacts: rows.map(json(env, rc)), total_count: total };
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/actions/artifacts/:artifact_id",
    operationId: "getArtifact",
    tag: "repository",
    summary: "Gets a specific artifact for a workflow run",
    access: reader,
    params: ArtifactParams,
    responses: { 200: ActionArtifact },
    handler: ({ env, repo: rc, params }) => {
      const a = repoArtifact(env, rc.repo.id, idOf(params.artifact_id));
      if (!isV4Artifact(a)) throw new NotFound("Artifact not found");
      return json(env, rc)(a);
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/actions/artifacts/:artifact_id",
    operationId: "deleteArtifact",
    tag: "repository",
    summary: "Deletes a specific artifact for a workflow run",
    access: writer,
    params: ArtifactParams,
    responses: { 204: null },
    handler: ({ env, repo: rc, params }) => {
      requestArtifactDeletion(env, rc, repoArtifact(env, rc.repo.id, idOf(params.artifact_id)), nowUnix());
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/actions/artifacts/:artifact_id/zip",
    operationId: "downloadArtifact",
    tag: "repository",
    summary: "Downloads a specific artifact for a workflow run redirects to blob url",
    access: reader,
    params: ArtifactParams,
    responses: { 302: null },
    handler: ({ env, repo: rc, params }) => {
      const a = repoArtifact(env, rc.repo.id, idOf(params.artifact_id));
      if (a.status === ArtifactStatus.Expired) throw new NotFound("Artifact has expired");
      if (!isV4Artifact(a)) throw new NotFound("Artifact not found");
      return new Reply(302, undefined, {
        Location: signedRawUrl(env, rc.owner.name, rc.repo.name, a.id, nowUnix()),
        "Content-Disposition": `attachment; filename=${encodeURIComponent(a.artifactName)}.zip; filename*=UTF-8''${encodeURIComponent(a.artifactName)}.zip`,
      });
    },
  }),
];
