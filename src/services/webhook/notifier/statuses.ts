import type { Env } from "../../env.ts";
import type { CommitStatusEvent } from "../../status/events.ts";
import type { CommitStatusPayload } from "../payload-types.ts";
import { anyHookWants, commitWithFiles, currentRepo, userById } from "../sources.ts";
import { fire, payloadCommits, repoJson, userJson } from "./common.ts";

/** Go's time.Time of a Unix time in UTC, as Gitea's CommitStatusPayload renders it (`...T...Z`). */
const utc = (unix: number) => new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");

/**
 * Gitea's CreateCommitStatus notifier (`status` event): the status with its row id, the commit as
 * a PayloadCommit, times in UTC, a relative target URL made absolute, the repository with owner
 * access and the status's creator as sender.
 */
export async function onCommitStatus(env: Env, e: CommitStatusEvent): Promise<void> {
  const { status } = e;
  const where = currentRepo(env, e.repoId);
  const creator = userById(env, status.creatorId);
  if (!where || !creator) return;
  const { repo, owner } = where;
  if (!anyHookWants(env, repo, "status")) return;
  const commit = await commitWithFiles(env, repo, owner, e.sha);
  const target = status.targetUrl.startsWith("/") ? env.settings.server.rootUrl.replace(/\/$/, "") + status.targetUrl : status.targetUrl;
  const payload: CommitStatusPayload = {
    commit: commit ? payloadCommits(env, repo, owner, [commit])[0]! : null,
    context: status.context,
    created_at: utc(status.createdUnix),
    description: status.description,
    id: status.id,
    repository: repoJson(env, repo, owner, "owner"),
    sender: userJson(env, creator),
    sha: e.sha,
    state: status.state,
    target_url: target,
    updated_at: status.updatedUnix ? utc(status.updatedUnix) : null,
  };
  return fire(env, "status", payload, repo, owner);
}
