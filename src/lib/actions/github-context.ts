/**
 * The `github` (also `gitea`) context Gitea 1.25 builds for a run (services/actions/context.go
 * GenerateGiteaContext, without the token): what workflow expressions read on the server (run-name, job
 * names, runs-on, matrices, concurrency) and what the runner receives with a task. Pure: the caller passes
 * the run's fields and the instance's URLs.
 */

export interface GiteaContextInput {
  runId: number;
  /** The run's number within the repository (`run_number`). */
  runIndex: number;
  /** The run's ref (`refs/heads/main`, `refs/pull/3/head`, `refs/tags/v1`). */
  ref: string;
  commitSha: string;
  /** The workflow event that matched (`push`, `pull_request_target`, ...). */
  triggerEvent: string;
  /** The workflow file's id (`ci.yml`). */
  workflowId: string;
  /** The event payload as stored with the run (JSON text) or already parsed. */
  eventPayload: string | Record<string, unknown>;
  /** The triggering user's name. */
  actor: string;
  repoOwner: string;
  repoName: string;
  repoHtmlUrl: string;
  /** `[server] ROOT_URL`, ending in a slash as Gitea's AppURL does. */
  appUrl: string;
  /** `[actions] DEFAULT_ACTIONS_URL` resolved to a URL (https://github.com, or the instance's own). */
  defaultActionsUrl: string;
  /** Set when the context is for one job (its id and attempt); absent for workflow-level expressions. */
  job?: { jobId: string; attempt: number };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Gitea's RefName.ShortName: the branch, tag, remote, pull request number or `refs/for/` branch. */
export function refShortName(ref: string): string {
  for (const prefix of ["refs/heads/", "refs/tags/", "refs/remotes/"]) {
    if (ref.startsWith(prefix)) return ref.slice(prefix.length);
  }
  if (ref.startsWith("refs/pull/")) {
    const rest = ref.slice("refs/pull/".length);
    const slash = rest.indexOf("/");
    if (slash > -1) return rest.slice(0, slash);
  }
  if (ref.startsWith("refs/for/")) return ref.slice("refs/for/".length);
  return ref;
}

/** Gitea's RefName.RefType: branch, tag, commit (a bare hex id) or "". */
export function refType(ref: string): string {
  if (ref.startsWith("refs/heads/")) return "branch";
  if (ref.startsWith("refs/tags/")) return "tag";
  if (/^[0-9a-f]{6,64}$/.test(ref)) return "commit";
  return "";
}

export function giteaContext(input: GiteaContextInput): Record<string, unknown> {
  let event: Record<string, unknown> = {};
  if (typeof input.eventPayload === "string") {
    try {
      const parsed: unknown = JSON.parse(input.eventPayload);
      if (isRecord(parsed)) event = parsed;
    } catch {
      // Gitea ignores a payload it cannot read and leaves the event empty
    }
  } else {
    event = input.eventPayload;
  }

  let baseRef = "";
  let headRef = "";
  let ref = input.ref;
  let sha = input.commitSha;
  const pr = event["pull_request"];
  if (isRecord(pr) && isRecord(pr["base"]) && isRecord(pr["head"])) {
    baseRef = typeof pr["base"]["ref"] === "string" ? pr["base"]["ref"] : "";
    headRef = typeof pr["head"]["ref"] === "string" ? pr["head"]["ref"] : "";
    // pull_request_target runs on the base branch: ref and sha are the base's
    if (input.triggerEvent === "pull_request_target") {
      ref = `refs/heads/${typeof pr["base"]["label"] === "string" ? pr["base"]["label"] : baseRef}`;
      sha = typeof pr["base"]["sha"] === "string" ? pr["base"]["sha"] : "";
    }
  }

  return {
    action: "",
    action_path: "",
    action_ref: "",
    action_repository: "",
    action_status: "",
    actor: input.actor,
    api_url: `${input.appUrl}api/v1`,
    base_ref: baseRef,
    env: "",
    event,
    event_name: input.triggerEvent,
    event_path: "",
    graphql_url: "",
    head_ref: headRef,
    job: input.job?.jobId ?? "",
    ref,
    ref_name: refShortName(ref),
    ref_protected: false,
    ref_type: refType(ref),
    path: "",
    repository: `${input.repoOwner}/${input.repoName}`,
    repository_owner: input.repoOwner,
    repositoryUrl: input.repoHtmlUrl,
    retention_days: "",
    run_id: String(input.runId),
    run_number: String(input.runIndex),
    run_attempt: input.job ? String(input.job.attempt) : "",
    secret_source: "Actions",
    server_url: input.appUrl,
    sha,
    triggering_actor: "",
    workflow: input.workflowId,
    workspace: "",
    gitea_default_actions_url: input.defaultActionsUrl,
  };
}
