import type { Settings } from "../config/settings.ts";
import type { AttachmentRow } from "../db/schema/index.ts";
import { toRFC3339 } from "../lib/time.ts";
import type { APIAttachment } from "../shapes/issue.ts";

/** `browser_download_url` is Gitea's `{ROOT_URL}attachments/{uuid}`. */
export function toAPIAttachment(settings: Settings, a: AttachmentRow): APIAttachment {
  return {
    id: a.id,
    name: a.name,
    size: a.size,
    download_count: a.downloadCount,
    created_at: toRFC3339(a.createdUnix),
    uuid: a.uuid,
    browser_download_url: `${settings.server.rootUrl}attachments/${a.uuid}`,
  };
}
