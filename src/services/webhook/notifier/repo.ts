import type { Env } from "../../env.ts";
import type { RepoEvent } from "../../events/repo-events.ts";
import type { CreatePayload, DeletePayload, ForkPayload, PushPayload, RepositoryPayload } from "../payload-types.ts";
import { currentRepo } from "../sources.ts";
import { payloadCommits, repoJson, userJson, webhookSink, type PayloadSink } from "./common.ts";

/** `refs/heads/x` → `x`, `refs/tags/v1` → `v1` (Gitea's RefName.ShortName). */
const shortName = (ref: string) => ref.replace(/^refs\/(heads|tags)\//, "");
const refType = (ref: string): "branch" | "tag" => (ref.startsWith("refs/tags/") ? "tag" : "branch");

/**
 * Gitea's getPayloadBranch, what a hook's branch_filter is matched against: the branch of a push,
 * create or delete; nothing for a tag (the filter does not apply).
 */
const filterName = (ref: string) => (ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : undefined);

const EVENT = { push: "push", "ref-created": "create", "ref-deleted": "delete", created: "repository", deleted: "repository", forked: "fork" } as const;

/**
 * Gitea's webhook notifier for repositories and refs: PushCommits (push), CreateRef (create),
 * DeleteRef (delete), CreateRepository/DeleteRepository (repository) and ForkRepository (fork).
 */
export async function onRepoEvent(env: Env, e: RepoEvent, sink: PayloadSink = webhookSink): Promise<void> {
  const event = EVENT[e.kind];
  const about = e.kind === "forked" ? e.source : e.repo;
  const branch = "ref" in e ? filterName(e.ref) : undefined;
  if (!sink.wants(env, about, event, branch)) return;
  switch (e.kind) {
    case "push": {
      // The repository as it is after the push (a first push makes it non-empty).
      const now = currentRepo(env, e.repo.id) ?? e;
      const pusher = userJson(env, e.pusher);
      const [head] = e.head ? payloadCommits(env, now.repo, now.owner, [e.head]) : [];
      const payload: PushPayload = {
        ref: e.ref,
        before: e.old,
        after: e.new,
        compare_url: env.settings.server.rootUrl + e.compare,
        commits: payloadCommits(env, now.repo, now.owner, e.commits),
        total_commits: e.total,
        head_commit: head ?? null,
        repository: repoJson(env, now.repo, now.owner, "owner"),
        pusher,
        sender: pusher,
      };
      return sink.deliver(env, { event: "push", payload, repo: now.repo, owner: now.owner, branch: filterName(e.ref), doer: e.pusher });
    }
    case "ref-created": {
      const now = currentRepo(env, e.repo.id) ?? e;
      const payload: CreatePayload = {
        sha: e.sha,
        ref: shortName(e.ref),
        ref_type: refType(e.ref),
        repository: repoJson(env, now.repo, now.owner, "none"),
        sender: userJson(env, e.pusher),
      };
      return sink.deliver(env, { event: "create", payload, repo: now.repo, owner: now.owner, branch: filterName(e.ref), doer: e.pusher });
    }
    case "ref-deleted": {
      const now = currentRepo(env, e.repo.id) ?? e;
      const payload: DeletePayload = {
        ref: shortName(e.ref),
        ref_type: refType(e.ref),
        pusher_type: "user",
        repository: repoJson(env, now.repo, now.owner, "owner"),
        sender: userJson(env, e.pusher),
      };
      return sink.deliver(env, { event: "delete", payload, repo: now.repo, owner: now.owner, branch: filterName(e.ref), doer: e.pusher });
    }
    case "created":
    case "deleted": {
      // A new repository as it is now that its creation is complete (the event was recorded with
      // its first row; one whose creation was undone is not announced); a deleted one as it was.
      const now = e.kind === "created" ? currentRepo(env, e.repo.id) : e;
      if (!now) return;
      const { repo, owner } = now;
      const payload: RepositoryPayload = {
        action: e.kind,
        repository: repoJson(env, repo, owner, "owner"),
        organization: userJson(env, owner),
        sender: userJson(env, e.doer),
      };
      return sink.deliver(env, { event: "repository", payload, repo, owner, doer: e.doer });
    }
    case "forked": {
      const now = currentRepo(env, e.repo.id) ?? e;
      const payload: ForkPayload = {
        forkee: repoJson(env, e.source, e.sourceOwner, { doer: e.doer }),
        repository: repoJson(env, now.repo, now.owner, { doer: e.doer }),
        sender: userJson(env, e.doer),
      };
      return sink.deliver(env, { event: "fork", payload, repo: e.source, owner: e.sourceOwner, doer: e.doer });
    }
  }
}
