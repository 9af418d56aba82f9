import { ConfigError, type ConfigReader } from "./reader.ts";
import { DurationError, parseGoDuration } from "./go-duration.ts";

/** `[mirror]`: Gitea's keys (modules/setting/mirror.go) for pull and push mirrors. */
export interface MirrorSettings {
  /** Off: the mirror APIs answer 400 and nothing is synced (Gitea's `ENABLED`). */
  enabled: boolean;
  /** No new push mirrors (always so when `enabled` is off). */
  disableNewPush: boolean;
  /** No new pull mirrors (always so when `enabled` is off). */
  disableNewPull: boolean;
  /** Shortest interval a mirror may have, in nanoseconds (0 still disables the periodic sync). */
  minIntervalNs: number;
  /** A new pull mirror's interval when the request names none, in nanoseconds (at least `minIntervalNs`). */
  defaultIntervalNs: number;
}

/** `[migrations]`: which remote hosts migrations and mirrors may reach, and how hard they try. */
export interface MigrationsSettings {
  /** Host patterns (`*`, `?` wildcards) remote addresses must match; empty means external hosts. */
  allowedDomains: string;
  /** Host patterns refused, whatever the allow list says. */
  blockedDomains: string;
  /** Also allow private and loopback addresses. */
  allowLocalNetworks: boolean;
  /** Accept any TLS certificate from the source (Gitea's SKIP_TLS_VERIFY). */
  skipTlsVerify: boolean;
  /** Attempts of one request to a source's API, the first included (Gitea's MAX_ATTEMPTS). */
  maxAttempts: number;
  /** Seconds to wait between attempts (Gitea's RETRY_BACKOFF). */
  retryBackoffSeconds: number;
}

function duration(r: ConfigReader, key: string, fallback: string): { raw: string; ns: number } {
  const raw = r.string("mirror", key, fallback);
  try {
    return { raw, ns: parseGoDuration(raw) };
  } catch (err) {
    if (err instanceof DurationError) throw new ConfigError("mirror", key, raw, "expected a duration such as 10m or 1h30m");
    throw err;
  }
}

export function readMirror(r: ConfigReader): MirrorSettings {
  const enabled = r.bool("mirror", "ENABLED", true);
  const min = duration(r, "MIN_INTERVAL", "10m");
  // Gitea raises anything shorter to one minute; a setting it would not honour is refused here.
  if (min.ns < 60e9) throw new ConfigError("mirror", "MIN_INTERVAL", min.raw, "must be at least 1m");
  const def = duration(r, "DEFAULT_INTERVAL", "8h");
  if (def.ns < min.ns) throw new ConfigError("mirror", "DEFAULT_INTERVAL", def.raw, "must be at least MIN_INTERVAL");
  const disableNewPush = r.bool("mirror", "DISABLE_NEW_PUSH", false);
  const disableNewPull = r.bool("mirror", "DISABLE_NEW_PULL", false);
  return {
    enabled,
    disableNewPush: disableNewPush || !enabled,
    disableNewPull: disableNewPull || !enabled,
    minIntervalNs: min.ns,
    defaultIntervalNs: def.ns,
  };
}

export function readMigrations(r: ConfigReader): MigrationsSettings {
  return {
    allowedDomains: r.string("migrations", "ALLOWED_DOMAINS", ""),
    blockedDomains: r.string("migrations", "BLOCKED_DOMAINS", ""),
    allowLocalNetworks: r.bool("migrations", "ALLOW_LOCALNETWORKS", false),
    skipTlsVerify: r.bool("migrations", "SKIP_TLS_VERIFY", false),
    maxAttempts: r.int("migrations", "MAX_ATTEMPTS", 3, { min: 1, max: 100 }),
    retryBackoffSeconds: r.int("migrations", "RETRY_BACKOFF", 3, { min: 0, max: 3600 }),
  };
}
