import { HookContentType, type WebhookRow } from "../../../db/schema/index.ts";
import type { FormattedDelivery } from "../contracts.ts";

/**
 * The `gitea` (and `gogs`) hook types send Gitea's payload itself: as JSON, or with content type
 * `form` as `payload=<the JSON>` url-encoded (Gitea's form delivery).
 */
export function giteaDelivery(hook: Pick<WebhookRow, "contentType">, payload: Record<string, unknown>): FormattedDelivery {
  const json = JSON.stringify(payload, null, 2);
  if (hook.contentType === HookContentType.Form) {
    return { body: new URLSearchParams({ payload: json }).toString(), contentType: "application/x-www-form-urlencoded" };
  }
  return { body: json, contentType: "application/json" };
}
