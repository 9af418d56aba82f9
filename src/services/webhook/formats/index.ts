import type { WebhookRow } from "../../../db/schema/index.ts";
import type { HookEventType } from "../event-types.ts";
import type { FormattedDelivery, PayloadFormatter } from "../contracts.ts";
import { giteaDelivery } from "./gitea.ts";

/** Each hook type's formatter; a type without its own sends Gitea's payload. */
const FORMATTERS: Partial<Record<string, PayloadFormatter>> = {};

/** What a hook sends for an event: its type's format of the stored Gitea payload. */
export function formatDelivery(hook: WebhookRow, event: HookEventType, payload: Record<string, unknown>): FormattedDelivery {
  const formatter = FORMATTERS[hook.type];
  return formatter ? formatter(hook, event, payload) : giteaDelivery(hook, payload);
}
