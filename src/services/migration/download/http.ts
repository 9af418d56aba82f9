import type { Env } from "../../env.ts";
import { HostMatchList } from "../../../outbound/host-matcher.ts";
import { OutboundRefused, OutboundTooLarge, OutboundUnusable, outboundFetch, type OutboundPolicy, type OutboundResponse } from "../../../outbound/request.ts";
import { RateLimited, SourceError } from "./source.ts";

/**
 * The one HTTP client of migrations: every request to a source's API goes through `outbound/`
 * under the `[migrations]` host rules (checked before connecting, at each redirect, for every
 * address a name resolves to), bounded in time and size, retried `MAX_ATTEMPTS` times
 * `RETRY_BACKOFF` seconds apart when the network or the server fails, and waiting out a rate limit
 * the source announces (GitHub's and GitLab's headers, Retry-After) when the wait is short.
 */

/** Gitea's words when an address is refused. */
export const DISALLOWED_HOST = "You can not import from disallowed hosts.";

const REQUEST_TIMEOUT_MS = 120_000;
/** An API page larger than this is not an API page. */
const MAX_JSON_BYTES = 32 * 1024 * 1024;
/** The longest a rate limit is waited out; a longer one fails the migration (422). */
const MAX_RATE_LIMIT_WAIT_MS = 60_000;

export function migrationPolicy(env: Env, maxResponseBytes = MAX_JSON_BYTES): OutboundPolicy {
  const m = env.settings.migrations;
  const allow = [m.allowedDomains.trim() || "external", ...(m.allowLocalNetworks ? ["private", "loopback"] : [])];
  return {
    allow: new HostMatchList("migrations.ALLOWED_DOMAINS/ALLOW_LOCALNETWORKS", allow.join(",")),
    block: new HostMatchList("migrations.BLOCKED_DOMAINS", m.blockedDomains),
    usage: "migration",
    timeoutMs: REQUEST_TIMEOUT_MS,
    skipTlsVerify: m.skipTlsVerify,
    maxResponseBytes,
  };
}

export interface JsonAnswer<T> {
  data: T;
  /** Header names as Go writes them (Link, X-Total-Count, X-Next-Page...). */
  headers: Record<string, string>;
}

/** Unix seconds or a delay in seconds → milliseconds to wait from now; undefined when the headers say nothing. */
function rateLimitWait(res: OutboundResponse): number | undefined {
  const h = res.headers;
  const retryAfter = h["Retry-After"];
  if (retryAfter && /^\d+$/.test(retryAfter)) return Number(retryAfter) * 1000;
  const remaining = h["X-Ratelimit-Remaining"] ?? h["Ratelimit-Remaining"];
  const reset = h["X-Ratelimit-Reset"] ?? h["Ratelimit-Reset"];
  if (remaining === "0" && reset && /^\d+$/.test(reset)) return Math.max(0, Number(reset) * 1000 - Date.now()) + 1000;
  return undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class SourceHttp {
  private readonly policy: OutboundPolicy;
  /** A wait the last answer announced (its remaining quota was 0), honoured before the next request. */
  private waitBeforeNext = 0;

  constructor(
    private readonly env: Env,
    /** Sent with every request: the source's way of signing in (Authorization, PRIVATE-TOKEN...). */
    private headers: Record<string, string>,
  ) {
    this.policy = migrationPolicy(env);
  }

  /**
   * GET `url`; any 2xx answer is returned, 404 and 410 too when `allow404` (a unit the source has
   * not, or has turned off: GitHub's issues answer 410 then); anything else fails the migration.
   */
  async get(url: string, opts: { allow404?: boolean; accept?: string } = {}): Promise<OutboundResponse> {
    return this.send("GET", url, undefined, opts);
  }

  /**
   * POSTs a form and parses the JSON answer (an OAuth token request); a 4xx fails the migration
   * with the source's own words, as Authentication failed when it refuses the credentials.
   */
  async postForm<T>(url: string, fields: Record<string, string>): Promise<JsonAnswer<T>> {
    const res = await this.send("POST", url, { body: new URLSearchParams(fields).toString(), contentType: "application/x-www-form-urlencoded" }, {});
    try {
      return { data: JSON.parse(res.body) as T, headers: res.headers };
    } catch {
      throw new SourceError(`${url}: the answer is not JSON`);
    }
  }

  /** Replaces how the requests that follow sign in (a token obtained from the source). */
  signInWith(headers: Record<string, string>): void {
    this.headers = headers;
  }

  private async send(
    method: "GET" | "POST",
    url: string,
    payload: { body: string; contentType: string } | undefined,
    opts: { allow404?: boolean; accept?: string },
  ): Promise<OutboundResponse> {
    const { maxAttempts, retryBackoffSeconds } = this.env.settings.migrations;
    const headers: Record<string, string> = { Accept: opts.accept ?? "application/json", "User-Agent": "hearth-migration", ...this.headers };
    if (payload) headers["Content-Type"] = payload.contentType;
    for (let attempt = 1; ; attempt++) {
      if (this.waitBeforeNext > 0) {
        await sleep(this.waitBeforeNext);
        this.waitBeforeNext = 0;
      }
      let res: OutboundResponse;
      try {
        res = await outboundFetch({ url, method, headers, body: payload?.body }, this.policy);
      } catch (err) {
        if (err instanceof OutboundRefused) throw new SourceError(DISALLOWED_HOST);
        if (err instanceof OutboundUnusable) throw new SourceError(err.message);
        if (attempt >= maxAttempts) throw new SourceError(`${url}: ${(err as Error).message}`);
        await sleep(retryBackoffSeconds * 1000);
        continue;
      }
      const wait = rateLimitWait(res);
      const limited = res.status === 429 || (res.status === 403 && wait !== undefined);
      if (limited) {
        if (wait === undefined || wait > MAX_RATE_LIMIT_WAIT_MS || attempt >= maxAttempts + 1) {
          throw new RateLimited("Remote visit addressed rate limitation.");
        }
        await sleep(wait);
        continue;
      }
      if (res.status >= 500 && attempt < maxAttempts) {
        await sleep(retryBackoffSeconds * 1000);
        continue;
      }
      if (wait !== undefined && wait <= MAX_RATE_LIMIT_WAIT_MS) this.waitBeforeNext = wait;
      if ((res.status >= 200 && res.status < 300) || ((res.status === 404 || res.status === 410) && opts.allow404)) return res;
      throw new SourceError(describeFailure(url, res));
    }
  }

  /** GET and parse JSON (404 or 410 → undefined when `allow404`). */
  async json<T>(url: string, opts: { allow404?: boolean } = {}): Promise<JsonAnswer<T> | undefined> {
    const res = await this.get(url, opts);
    if (res.status === 404 || res.status === 410) return undefined;
    if (res.truncated) throw new SourceError(`${url}: the answer is larger than ${MAX_JSON_BYTES} bytes`);
    try {
      return { data: JSON.parse(res.body) as T, headers: res.headers };
    } catch {
      throw new SourceError(`${url}: the answer is not JSON`);
    }
  }

  /** Like `json` but a 404 fails the migration. */
  async must<T>(url: string): Promise<JsonAnswer<T>> {
    return (await this.json<T>(url))!;
  }

  /**
   * Downloads `url` into `file`, at most `maxBytes`. Asset links may point at another host (a
   * storage bucket): the host rules apply there too, and the credentials stay behind (outbound/
   * drops them on a redirect to another host).
   */
  async download(url: string, file: string, maxBytes: number, headers: Record<string, string> = this.headers): Promise<number> {
    const { maxAttempts, retryBackoffSeconds } = this.env.settings.migrations;
    const policy = { ...this.policy, maxResponseBytes: maxBytes, timeoutMs: 30 * 60_000 };
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await outboundFetch({ url, method: "GET", headers: { Accept: "application/octet-stream", ...headers }, toFile: file }, policy);
        if (res.status >= 200 && res.status < 300) return res.fileBytes ?? 0;
        if (res.status < 500 || attempt >= maxAttempts) throw new SourceError(describeFailure(url, res));
      } catch (err) {
        if (err instanceof SourceError) throw err;
        if (err instanceof OutboundRefused) throw new SourceError(DISALLOWED_HOST);
        if (err instanceof OutboundTooLarge) throw new SourceError(`${url}: larger than ${maxBytes} bytes`);
        if (err instanceof OutboundUnusable || attempt >= maxAttempts) throw new SourceError(`${url}: ${(err as Error).message}`);
      }
      await sleep(retryBackoffSeconds * 1000);
    }
  }
}

/** The source's own message when it gives one (`message`, GitLab's `error`), with the status. */
function describeFailure(url: string, res: OutboundResponse): string {
  let detail = "";
  try {
    const body = JSON.parse(res.body) as { message?: unknown; error?: unknown };
    detail = String(body.message ?? body.error ?? "");
  } catch {
    detail = res.body.slice(0, 200).trim();
  }
  const path = new URL(url).pathname;
  if (res.status === 401 || (res.status === 400 && /invalid_grant/.test(res.body))) return `Authentication failed: ${path}: ${detail || "401 Unauthorized"}`;
  return `${path}: ${res.status}${detail ? ` ${detail}` : ""}`;
}

/** The next page's URL from a Link header (GitHub, Gitea), or undefined at the last page. */
export function nextLink(headers: Record<string, string>): string | undefined {
  for (const part of (headers["Link"] ?? "").split(",")) {
    const m = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (m) return m[1];
  }
  return undefined;
}
