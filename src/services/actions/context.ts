import type { Env } from "../env.ts";
import type { RepoRow, UserRow } from "../../db/schema/index.ts";
import { giteaContext as buildContext } from "../../lib/actions/github-context.ts";

export interface ContextInput {
  repo: RepoRow;
  owner: UserRow;
  triggerUser: Pick<UserRow, "name">;
  /** GitHub's event name the run is for (`push`, `pull_request_target`...). */
  event: string;
  ref: string;
  sha: string;
  payload: Record<string, unknown>;
  workflowId: string;
  runId: number;
  runIndex: number;
  /** The job's key and attempt, for a task's context. */
  job?: { jobId: string; attempt: number };
}

/**
 * The `github` context of a run on this instance (lib/actions/github-context.ts, Gitea's
 * GenerateGiteaContext), with the instance's URLs; a task adds its `token` and runtime token.
 */
export function giteaContext(env: Env, c: ContextInput): Record<string, unknown> {
  const root = env.settings.server.rootUrl;
  return buildContext({
    runId: c.runId,
    runIndex: c.runIndex,
    ref: c.ref,
    commitSha: c.sha,
    triggerEvent: c.event,
    workflowId: c.workflowId,
    eventPayload: c.payload,
    actor: c.triggerUser.name,
    repoOwner: c.owner.name,
    repoName: c.repo.name,
    repoHtmlUrl: `${root}${encodeURIComponent(c.owner.name)}/${encodeURIComponent(c.repo.name)}`,
    appUrl: root,
    defaultActionsUrl: env.settings.actions.defaultActionsUrl === "self" ? root.replace(/\/$/, "") : "https://github.com",
    ...(c.job ? { job: c.job } : {}),
  });
}
