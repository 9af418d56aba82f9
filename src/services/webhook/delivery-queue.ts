import type { Env } from "../env.ts";
import { WEBHOOK_QUEUE, requeueDeferred, type DeliveryItem } from "./enqueue.ts";

/**
 * The webhook queue's worker, registered by the composition root. The sending code (deliver.ts,
 * its formats and the outbound HTTP client) is imported by the first delivery, so a server whose
 * hooks never fire never loads it.
 */

/** How many deliveries run at once. */
const CONCURRENCY = 8;

/** The longest wait between two attempts of one delivery. */
export const MAX_BACKOFF_MS = 60 * 60_000;

/** Declares the webhook queue's handler on this process's queue; called once when the Env is made. */
export function registerWebhookDelivery(env: Env): void {
  env.queue.register<DeliveryItem>(WEBHOOK_QUEUE, async (item, job) => (await import("./deliver.ts")).runDelivery(env, item, job), {
    concurrency: CONCURRENCY,
    // Longer than an attempt can last (DELIVER_TIMEOUT covers it, redirects included), with room to record it.
    leaseMs: env.settings.webhook.deliverTimeout * 1000 + 30_000,
    maxAttempts: env.settings.webhook.maxAttempts,
    backoffMs: (n) => Math.min(env.settings.webhook.retryBackoffMs * 2 ** (n - 1), MAX_BACKOFF_MS),
    // Tasks recorded while the queue was full (and the process then stopped) are queued at start.
    onStart: () => requeueDeferred(env, true),
  });
}
