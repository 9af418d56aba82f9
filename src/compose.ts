/**
 * The composition root: the one place that builds a process's environment and wires its
 * background work, used alike by `hearth web`, by every admin command and by the tests.
 *
 * - the Env (settings, database, logger, sealing boxes, the persistent work queue, the event bus);
 * - the work queue's handlers: the event bus's worker, push announcements, webhook deliveries,
 *   mail, push and pull mirror syncs;
 * - the event bus's subscribers, in the order they hear of each event: in-app notifications, the
 *   webhook notifier, automerge, mail, Actions (workflow runs and their commit statuses).
 *
 * What a handler or subscriber does is imported the first time it has work (the modules named
 * here hold only the queue's options and the subscriptions), so a server starts without the
 * webhook, mail, merge and git code its background work may never need.
 *
 * Registering is not running: the queue's workers start only with `env.queue.start()`, which the
 * server calls. An admin command's events and mail wait in the database, where the server picks
 * them up (bus.ts FOREIGN_EVENTS_POLL_MS). Services never import this module; they reach one
 * another's work through the bus, so nothing here is imported back.
 */
import type { Settings } from "./config/settings.ts";
import type { DB } from "./db/client.ts";
import type { Logger } from "./lib/log.ts";
import { createEnv, type Env } from "./services/env.ts";
import { registerEventBus } from "./services/events/bus.ts";
import { registerPushAnnouncements } from "./services/repo/push-announce-queue.ts";
import { registerWebhookDelivery } from "./services/webhook/delivery-queue.ts";
import { registerMailDelivery } from "./services/mail/deliver.ts";
import { registerPushMirrorSync } from "./services/mirror/sync-queue.ts";
import { registerPullMirrorSync } from "./services/mirror/pull-sync-queue.ts";
import { registerActionsPeriodic } from "./services/actions/periodic.ts";
import { registerArtifactSweep } from "./services/actions/artifact-sweep-queue.ts";
import { subscribeNotifications } from "./services/notification/subscriber.ts";
import { subscribeWebhookNotifier } from "./services/webhook/notifier/index.ts";
import { subscribeAutoMerge } from "./services/pull/automerge-subscriber.ts";
import { subscribeMailNotifier } from "./services/mail/subscriber.ts";
import { subscribeActions } from "./services/actions/notifier.ts";

/** The environment of this process, with its queue handlers and event subscribers. */
export function composeEnv(settings: Settings, db: DB, log: Logger): Env {
  return wireEnv(createEnv(settings, db, log));
}

/**
 * Wires a bare Env (services/env.ts createEnv): once per Env. Apart from composeEnv only for a
 * test that must subscribe ahead of everyone else.
 */
export function wireEnv(env: Env): Env {
  registerEventBus(env);
  registerPushAnnouncements(env);
  registerWebhookDelivery(env);
  registerMailDelivery(env);
  registerPushMirrorSync(env);
  registerPullMirrorSync(env);
  registerActionsPeriodic(env);
  registerArtifactSweep(env);

  subscribeNotifications(env);
  subscribeWebhookNotifier(env);
  subscribeAutoMerge(env);
  subscribeMailNotifier(env);
  subscribeActions(env);
  return env;
}
