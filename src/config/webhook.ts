import { ConfigError, type ConfigReader } from "./reader.ts";

/** `[webhook]`: Gitea's keys (modules/setting/webhook.go) plus hearth's retry policy. */
export interface WebhookSettings {
  /** Deliveries waiting in the queue at most; beyond it new ones wait in the database (never dropped). */
  queueLength: number;
  /** Seconds one delivery attempt may take, redirects included. */
  deliverTimeout: number;
  skipTlsVerify: boolean;
  /** Gitea's host match list: `external`, `private`, `loopback`, `*`, CIDRs, host globs. */
  allowedHostList: string;
  /** Hook tasks per page in listings. */
  pagingNum: number;
  /** "" for none. */
  proxyUrl: string;
  /** Globs of `host[:port]` whose deliveries go through PROXY_URL (Gitea: none when empty, `**` for all). */
  proxyHosts: string[];
  /** Attempts of one delivery (the first one included) before it is given up; hearth's own. */
  maxAttempts: number;
  /** Wait before the first retry, doubled for each further one (up to an hour), in ms; hearth's own. */
  retryBackoffMs: number;
}

/** A Go-style duration: `500ms`, `10s`, `1m30s`, `2h`. */
export function parseDuration(value: string): number | undefined {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let pos = 0;
  for (let m = re.exec(value); m; m = re.exec(value)) {
    total += Number(m[1]) * units[m[2]!]!;
    pos = re.lastIndex;
  }
  return pos === value.length && pos > 0 ? Math.round(total) : undefined;
}

export function readWebhook(r: ConfigReader): WebhookSettings {
  const proxyHosts = r
    .string("webhook", "PROXY_HOSTS", "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const backoff = r.string("webhook", "RETRY_BACKOFF", "10s");
  const retryBackoffMs = parseDuration(backoff);
  if (retryBackoffMs === undefined) {
    throw new ConfigError("webhook", "RETRY_BACKOFF", backoff, "expected a duration such as 10s, 500ms or 1m");
  }
  return {
    queueLength: r.int("webhook", "QUEUE_LENGTH", 1000, { min: 1 }),
    deliverTimeout: r.int("webhook", "DELIVER_TIMEOUT", 5, { min: 1 }),
    skipTlsVerify: r.bool("webhook", "SKIP_TLS_VERIFY", false),
    allowedHostList: r.string("webhook", "ALLOWED_HOST_LIST", "external"),
    pagingNum: r.int("webhook", "PAGING_NUM", 10, { min: 1 }),
    proxyUrl: r.url("webhook", "PROXY_URL", ""),
    proxyHosts,
    maxAttempts: r.int("webhook", "MAX_ATTEMPTS", 5, { min: 1 }),
    retryBackoffMs,
  };
}
