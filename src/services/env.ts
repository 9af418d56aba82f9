import type { Settings } from "../config/settings.ts";
import type { DB } from "../db/client.ts";
import type { Logger } from "../lib/log.ts";
import { SecretBox } from "../crypto/secretbox.ts";
import { Housekeeper } from "./repo/housekeeping.ts";
import { WorkQueue } from "../queue/work-queue.ts";
import { EventBus } from "./events/bus.ts";

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
  /** Who hears of the events on the events queue (in-app notifications, webhooks, mail, automerge). */
  bus: EventBus;
}

/**
 * The bare environment: no queue handler registered, nobody subscribed. Use the composition root
 * (src/compose.ts), which builds this and wires the background work to it; only a test that needs
 * to come between the two calls this directly.
 */
export function createEnv(settings: Settings, db: DB, log: Logger): Env {
  return {
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
    bus: new EventBus(),
  };
}
