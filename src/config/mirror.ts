import { ConfigError, type ConfigReader } from "./reader.ts";
import { DurationError, parseGoDuration } from "./go-duration.ts";

/** `[mirror]`: Gitea's keys (modules/setting/mirror.go) that push mirrors honour. */
export interface MirrorSettings {
  /** Off: the mirror API answers 400 and nothing is synced (Gitea's `ENABLED`). */
  enabled: boolean;
  /** No new push mirrors (always so when `enabled` is off). */
  disableNewPush: boolean;
  /** Shortest interval a mirror may have, in nanoseconds (0 still disables the periodic sync). */
  minIntervalNs: number;
}

/** `[migrations]`: which remote hosts a mirror may push to (Gitea's migration allow/block lists). */
export interface MigrationsSettings {
  /** Host patterns (`*`, `?` wildcards) remote addresses must match; empty means external hosts. */
  allowedDomains: string;
  /** Host patterns refused, whatever the allow list says. */
  blockedDomains: string;
  /** Also allow private and loopback addresses. */
  allowLocalNetworks: boolean;
}

export function readMirror(r: ConfigReader): MirrorSettings {
  const enabled = r.bool("mirror", "ENABLED", true);
  const raw = r.string("mirror", "MIN_INTERVAL", "10m");
  let minIntervalNs: number;
  try {
    minIntervalNs = parseGoDuration(raw);
  } catch (err) {
    if (err instanceof DurationError) throw new ConfigError("mirror", "MIN_INTERVAL", raw, "expected a duration such as 10m or 1h30m");
    throw err;
  }
  // Gitea raises anything shorter to one minute; a setting it would not honour is refused here.
  if (minIntervalNs < 60e9) throw new ConfigError("mirror", "MIN_INTERVAL", raw, "must be at least 1m");
  const disableNewPush = r.bool("mirror", "DISABLE_NEW_PUSH", false);
  return { enabled, disableNewPush: disableNewPush || !enabled, minIntervalNs };
}

export function readMigrations(r: ConfigReader): MigrationsSettings {
  return {
    allowedDomains: r.string("migrations", "ALLOWED_DOMAINS", ""),
    blockedDomains: r.string("migrations", "BLOCKED_DOMAINS", ""),
    allowLocalNetworks: r.bool("migrations", "ALLOW_LOCALNETWORKS", false),
  };
}
