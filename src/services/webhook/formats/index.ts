import type { WebhookRow } from "../../../db/schema/index.ts";
import type { HookEventType, HookType } from "../event-types.ts";
import type { FormattedDelivery, PayloadFormatter } from "../contracts.ts";
import { giteaDelivery } from "./gitea.ts";
import { formatSlack } from "./slack.ts";
import { formatDiscord } from "./discord.ts";
import { formatDingtalk } from "./dingtalk.ts";
import { formatTelegram } from "./telegram.ts";
import { formatMSTeams } from "./msteams.ts";
import { formatFeishu } from "./feishu.ts";
import { formatMatrix } from "./matrix.ts";
import { formatWechatwork } from "./wechatwork.ts";
import { formatPackagist } from "./packagist.ts";

/**
 * Each hook type's formatter. `gitea` and `gogs` have none: Gitea sends both the stored payload
 * itself (its newDefaultRequest), the gogs type differing only in name.
 */
const FORMATTERS: Partial<Record<HookType, PayloadFormatter>> = {
  slack: formatSlack,
  discord: formatDiscord,
  dingtalk: formatDingtalk,
  telegram: formatTelegram,
  msteams: formatMSTeams,
  feishu: formatFeishu,
  matrix: formatMatrix,
  wechatwork: formatWechatwork,
  packagist: formatPackagist,
};

/**
 * What a hook sends for an event: its type's format of the stored Gitea payload. Throws when the
 * type has no message for the event (UnsupportedEventError) or a Matrix body is too large; Gitea
 * fails such a delivery.
 */
export function formatDelivery(hook: WebhookRow, event: HookEventType, payload: Record<string, unknown>): FormattedDelivery {
  const formatter = FORMATTERS[hook.type as HookType];
  return formatter ? formatter(hook, event, payload) : giteaDelivery(hook, payload);
}

export { UnsupportedEventError } from "./convert.ts";
