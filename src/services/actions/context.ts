import type { Env } from "../env.ts";
import type { RepoRow, UserRow } from "../../db/schema/index.ts";

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

const rec = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/**
 * Gitea's GenerateGiteaContext: the `github` context every job of a run sees (without the task's
 * `token` and `gitea_runtime_token`, which the task adds). A `pull_request_target` run works on
 * the base branch, so its ref and sha are the base's.
 */
export function giteaContext(env: Env, c: ContextInput): Record<string, unknown> {
  const root = env.settings.server.rootUrl;
  let ref = c.ref;
  let sha = c.sha;
  let baseRef = "";
  let headRef = "";
  const pr = rec(c.payload.pull_request);
  if (Object.keys(pr).length > 0 && Object.keys(rec(pr.base)).length > 0 && Object.keys(rec(pr.head)).length > 0) {
    baseRef = str(rec(pr.base).ref);
    headRef = str(rec(pr.head).ref);
    if (c.event === "pull_request_target") {
      ref = `refs/heads/${baseRef}`;
      sha = str(rec(pr.base).sha) || sha;
    }
  }
  const refType = ref.startsWith("refs/tags/") ? "tag" : ref.startsWith("refs/heads/") ? "branch" : "";
  const refName = ref.replace(/^refs\/(heads|tags)\//, "");
  const full = `${c.owner.name}/${c.repo.name}`;
  return {
    action: "",
    action_path: "",
    action_ref: "",
    action_repository: "",
    action_status: "",
    actor: c.triggerUser.name,
    api_url: `${root}api/v1`,
    base_ref: baseRef,
    env: "",
    event: c.payload,
    event_name: c.event,
    event_path: "",
    graphql_url: "",
    head_ref: headRef,
    job: c.job?.jobId ?? "",
    ref,
    ref_name: refName,
    ref_protected: false,
    ref_type: refType,
    path: "",
    repository: full,
    repository_owner: c.owner.name,
    repositoryUrl: `${root}${full}`,
    retention_days: "",
    run_id: String(c.runId),
    run_number: String(c.runIndex),
    run_attempt: String(c.job?.attempt ?? 1),
    secret_source: "Actions",
    server_url: root.replace(/\/$/, ""),
    sha,
    triggering_actor: "",
    workflow: c.workflowId,
    workspace: "",
    gitea_default_actions_url: env.settings.actions.defaultActionsUrl === "self" ? root.replace(/\/$/, "") : "https://github.com",
  };
}
