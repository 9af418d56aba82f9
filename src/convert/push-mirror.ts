import type { PushMirrorRow } from "../db/schema/index.ts";
import { toRFC3339 } from "../lib/time.ts";
import { formatGoDuration } from "../config/go-duration.ts";
import type { APIPushMirror } from "../shapes/push-mirror.ts";

/**
 * Gitea's ToPushMirror: the stored (credential-free) address, the interval as Go prints it
 * (`8h0m0s`), `last_update` null until the first sync. The credentials are never part of it.
 */
export function toAPIPushMirror(m: PushMirrorRow, repoName: string): APIPushMirror {
  return {
    repo_name: repoName,
    remote_name: m.remoteName,
    remote_address: m.remoteAddress,
    created: toRFC3339(m.createdUnix),
    last_update: m.lastUpdateUnix ? toRFC3339(m.lastUpdateUnix) : null,
    last_error: m.lastError,
    interval: formatGoDuration(m.intervalNs),
    sync_on_commit: m.syncOnCommit,
  };
}
