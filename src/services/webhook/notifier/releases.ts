import type { Env } from "../../env.ts";
import type { ReleaseEvent } from "../../events/release-events.ts";
import type { ReleasePayload } from "../payload-types.ts";
import { currentRepo, releaseView } from "../sources.ts";
import { toAPIRelease } from "../../../convert/release.ts";
import { repoJson, userJson, webhookSink, type PayloadSink } from "./common.ts";

/** Gitea's sendReleaseHook (NewRelease, UpdateRelease, DeleteRelease): the repository with the doer's access. */
export async function onReleaseEvent(env: Env, e: ReleaseEvent, sink: PayloadSink = webhookSink): Promise<void> {
  const { repo, owner } = currentRepo(env, e.repo.id) ?? e;
  if (!sink.wants(env, repo, "release")) return;
  const payload: ReleasePayload = {
    action: e.kind,
    release: { ...toAPIRelease(env.settings, { repo, owner }, releaseView(env, e.release)) },
    repository: repoJson(env, repo, owner, { doer: e.doer }),
    sender: userJson(env, e.doer),
  };
  return sink.deliver(env, { event: "release", payload, repo, owner, doer: e.doer });
}
