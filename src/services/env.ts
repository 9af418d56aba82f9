import type { Settings } from "../config/settings.ts";
import type { DB } from "../db/client.ts";
import type { Logger } from "../lib/log.ts";
import { SecretBox } from "../crypto/secretbox.ts";
import { Housekeeper } from "./repo/housekeeping.ts";
import { WorkQueue } from "../queue/work-queue.ts";
import { registerWebhookDelivery } from "./webhook/deliver.ts";
import { registerMailDelivery } from "./mail/deliver.ts";
import { registerPushMirrorSync } from "./mirror/sync.ts";
import { registerEventBus } from "./events/bus.ts";
import { registerPushAnnouncements } from "./repo/push-events.ts";

/** What every service call runs against: settings, the database and the logger of this process. */
export interface Env {
  settings: Settings;
  db: DB;
  log: Logger;
  /** Seals two-factor secrets. */
  twoFactorBox: SecretBox;
  /** Seals webhooks' Authorization header values. */
  webhookBox: SecretBox;
  /** Seals Actions secrets' values. */
  secretBox: SecretBox;
  /** Seals push mirrors' remote credentials. */
  mirrorBox: SecretBox;
  /** When each access token's last use was last written (Unix seconds), to throttle those writes. */
  tokenTouches: Map<number, number>;
  /** Repacks repositories in the background after pushes. */
  housekeeper: Housekeeper;
  /**
   * Persistent background work (the event bus, webhook deliveries, mail): started by the server
   * (`queue.start()`), not by admin commands, whose items wait in the database for the server.
   */
  queue: WorkQueue;
}

export function createEnv(settings: Settings, db: DB, log: Logger): Env {
  const env: Env = {
    settings,
    db,
    log,
    twoFactorBox: new SecretBox(settings.security.secretKey, "two_factor"),
    webhookBox: new SecretBox(settings.security.secretKey, "webhook_authorization"),
    secretBox: new SecretBox(settings.security.secretKey, "actions_secret"),
    mirrorBox: new SecretBox(settings.security.secretKey, "push_mirror"),
    tokenTouches: new Map(),
    housekeeper: new Housekeeper(log),
    queue: new WorkQueue(db, log),
  };
  registerEventBus(env);
  registerPushAnnouncements(env);
  registerWebhookDelivery(env);
  registerMailDelivery(env);
  registerPushMirrorSync(env);
  return env;
}
