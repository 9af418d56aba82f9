import type { Env } from "../env.ts";
import type { WebhookRow } from "../../db/schema/index.ts";

/**
 * A webhook's `Authorization` header value is kept sealed (AES-GCM under a key derived from
 * SECRET_KEY), bound to the hook's id so a sealed value copied onto another hook does not open.
 */
const context = (hookId: number) => `webhook:${hookId}`;

export function sealAuthorization(env: Env, hookId: number, value: string): string {
  return value ? env.webhookBox.seal(value, context(hookId)) : "";
}

/** The clear value; "" when none is set. Throws when the sealed value does not open (another SECRET_KEY). */
export function openAuthorization(env: Env, hook: Pick<WebhookRow, "id" | "headerAuthorizationEncrypted">): string {
  return hook.headerAuthorizationEncrypted ? env.webhookBox.open(hook.headerAuthorizationEncrypted, context(hook.id)) : "";
}
