import type { RequestOptions } from "node:https";
import type { HostMatchList } from "./host-matcher.ts";
import { formatIP, parseIP, type IP } from "./ip.ts";

/**
 * The one way hearth calls a URL a user chose (webhooks): the host is resolved once, every address
 * is checked against the allow list, and the connection goes to a checked address (the name still
 * sent as Host and used for TLS SNI and certificate checks), so a DNS answer that changes between
 * the check and the connection (DNS rebinding) cannot reach a refused address. Redirects are
 * followed as Go's http.Client does, each hop checked again; one deadline covers them all.
 */

export interface OutboundPolicy {
  allow: HostMatchList;
  /** Refused whatever `allow` says, by name or by any address the name resolves to (`[migrations] BLOCKED_DOMAINS`). */
  block?: HostMatchList;
  /** For messages: `webhook`. */
  usage: string;
  timeoutMs: number;
  skipTlsVerify: boolean;
  /** Hosts whose requests go through `proxy.url` (Gitea's PROXY_URL / PROXY_HOSTS). */
  proxy?: { url: string; hosts: RegExp[] };
  /** Bytes of the response body kept; the rest is dropped (the status and headers are all there is to judge). */
  maxResponseBytes?: number;
  /** Name resolution, all addresses in order; the system resolver unless given (tests pass their own). */
  resolve?: (host: string) => Promise<string[]>;
}

// node:http, node:https and node:dns are loaded on the first outbound call, not at start-up: most
// instances never send one, and these modules are a fifth of the executable's start (bench/startup.ts).
const systemResolve = async (host: string) => {
  const { lookup } = await import("node:dns/promises");
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
};

export interface OutboundRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /**
   * Write a 2xx answer's body to this file instead of keeping it (release assets of a migration);
   * a body longer than `maxResponseBytes` fails the request and leaves a partial file to the caller.
   */
  toFile?: string;
}

export interface OutboundResponse {
  status: number;
  /** Header names as Go writes them (Content-Type), repeated values joined by ",". */
  headers: Record<string, string>;
  body: string;
  /** The body was longer than `maxResponseBytes`: `body` holds its start only. */
  truncated: boolean;
  /** Bytes written to `toFile`. */
  fileBytes?: number;
}

/** The answer was longer than the policy allows and was going to a file. */
export class OutboundTooLarge extends Error {}

/** The allow list refused the host: retrying will not help until the setting changes. */
export class OutboundRefused extends Error {}

/** The URL cannot be requested at all (malformed, not http(s)): retrying will not help either. */
export class OutboundUnusable extends Error {}

function parseUrl(href: string, base?: URL): URL {
  let u: URL;
  try {
    u = new URL(href, base);
  } catch {
    throw new OutboundUnusable(`invalid URL ${JSON.stringify(href)}`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new OutboundUnusable(`unsupported protocol scheme ${JSON.stringify(u.protocol.replace(/:$/, ""))}`);
  }
  return u;
}

const MAX_REDIRECTS = 10;
const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

export async function outboundFetch(req: OutboundRequest, policy: OutboundPolicy): Promise<OutboundResponse> {
  const deadline = Date.now() + policy.timeoutMs;
  let url = parseUrl(req.url);
  let method = req.method.toUpperCase();
  let body = req.body;
  const headers = { ...req.headers };
  for (let hop = 0; ; hop++) {
    const res = await oneHop(url, method, headers, body, policy, deadline, req.toFile);
    const location = res.headers["Location"];
    if (![301, 302, 303, 307, 308].includes(res.status) || !location) return res;
    if (hop + 1 >= MAX_REDIRECTS) throw new Error(`stopped after ${MAX_REDIRECTS} redirects`);
    const next = parseUrl(location, url);
    // Go: 301/302/303 turn into GET without a body (HEAD stays HEAD); 307/308 repeat the request.
    if ([301, 302, 303].includes(res.status) && method !== "HEAD") {
      method = "GET";
      body = undefined;
      for (const k of Object.keys(headers)) if (/^content-(type|length)$/i.test(k)) delete headers[k];
    }
    // Credentials go only to the same host or its subdomains (Go's shouldCopyHeaderOnRedirect).
    const from = url.hostname.toLowerCase();
    const to = next.hostname.toLowerCase();
    if (to !== from && !to.endsWith("." + from)) {
      for (const k of Object.keys(headers)) if (/^(authorization|www-authenticate|cookie|cookie2)$/i.test(k)) delete headers[k];
    }
    url = next;
  }
}

function refusal(policy: OutboundPolicy, host: string, detail: string): OutboundRefused {
  return new OutboundRefused(
    `${policy.usage} can only call allowed HTTP servers (check your ${policy.allow.settingKeyHint} setting), deny '${host}(${detail})'`,
  );
}

async function oneHop(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  policy: OutboundPolicy,
  deadline: number,
  toFile: string | undefined,
): Promise<OutboundResponse> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  if (policy.proxy && policy.proxy.hosts.some((re) => re.test(url.host))) {
    // Through the proxy the proxy resolves the name: only the name can be checked (as Gitea does).
    if (!policy.allow.matchHostName(url.host) || policy.block?.matchHostName(host)) throw refusal(policy, url.host, "via proxy");
    return viaProxy(url, method, headers, body, policy, deadline, toFile);
  }
  const addresses = await resolveAllowed(host, port, policy, deadline);
  // As Go's dialer: the next address when one cannot be connected to (localhost as ::1 and 127.0.0.1).
  for (let i = 0; ; i++) {
    try {
      return await direct(url, addresses[i]!, method, headers, body, policy, deadline, toFile);
    } catch (err) {
      const code = (err as { code?: string }).code;
      const unreachable = code === "ECONNREFUSED" || code === "EHOSTUNREACH" || code === "ENETUNREACH" || code === "EADDRNOTAVAIL";
      if (!unreachable || i + 1 >= addresses.length) throw err;
    }
  }
}

/** The resolved addresses the allow list accepts, in DNS order; refused when there is none. */
async function resolveAllowed(host: string, port: number, policy: OutboundPolicy, deadline: number): Promise<IP[]> {
  const literal = parseIP(host);
  let candidates: IP[];
  if (literal) candidates = [literal];
  else {
    const answers = await withDeadline((policy.resolve ?? systemResolve)(host), deadline, `lookup ${host}`);
    candidates = answers.map((a) => parseIP(a)).filter((ip): ip is IP => ip !== undefined);
    if (candidates.length === 0) throw new Error(`lookup ${host}: no such host`);
  }
  const blocked = policy.block && (policy.block.matchHostName(host) || candidates.some((ip) => policy.block!.matchIPAddr(ip)));
  const allowed = blocked ? [] : candidates.filter((ip) => policy.allow.matchHostOrIP(host, ip));
  if (allowed.length === 0) {
    const ip = formatIP(candidates[0]!);
    throw refusal(policy, host, `${ip.includes(":") ? `[${ip}]` : ip}:${port}`);
  }
  return allowed;
}

function withDeadline<T>(p: Promise<T>, deadline: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what}: timeout`)), Math.max(0, deadline - Date.now()));
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}

/** Go's CanonicalMIMEHeaderKey: content-type → Content-Type. */
export function canonicalHeaderName(name: string): string {
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_, d: string, c: string) => d + c.toUpperCase());
}

async function direct(
  url: URL,
  ip: IP,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  policy: OutboundPolicy,
  deadline: number,
  toFile: string | undefined,
): Promise<OutboundResponse> {
  const address = formatIP(ip);
  const family = ip.length === 4 ? 4 : 6;
  const isHttps = url.protocol === "https:";
  const mod = isHttps ? (await import("node:https")).default : (await import("node:http")).default;
  const payload = body === undefined ? undefined : Buffer.from(body);
  const limit = policy.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (err: Error | undefined, res?: OutboundResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(res!);
    };
    const request = mod.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port || undefined,
        path: url.pathname + url.search,
        method,
        headers: { ...headers, ...(payload ? { "Content-Length": String(payload.length) } : {}) },
        // The connection goes to the address checked above, whatever DNS says now.
        lookup: (_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
          if (opts?.all) cb(null, [{ address, family }]);
          else cb(null, address, family);
        },
        ...(isHttps ? { rejectUnauthorized: !policy.skipTlsVerify, servername: parseIP(url.hostname) ? undefined : url.hostname } : {}),
      } as RequestOptions,
      (res) => {
        const status = res.statusCode ?? 0;
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) {
          if (v === undefined) continue;
          out[canonicalHeaderName(k)] = Array.isArray(v) ? v.join(",") : v;
        }
        const sink = toFile && status >= 200 && status < 300 ? new BodyFile(toFile, limit) : new BodyBuffer(limit);
        res.on("data", (c: Buffer) => {
          const err = sink.write(c);
          if (err) {
            finish(err);
            // Without the error: nobody listens for it once the request has settled.
            res.destroy();
            request.destroy();
          }
        });
        res.on("end", () => {
          sink.end().then(
            (got) => finish(undefined, { status, headers: out, ...got }),
            (e: Error) => finish(e),
          );
        });
        res.on("error", (e) => finish(e));
      },
    );
    const timer = setTimeout(() => {
      const e = new Error(`${method} ${url.href}: timeout after ${policy.timeoutMs} ms (DELIVER_TIMEOUT)`);
      finish(e);
      request.destroy(e);
    }, Math.max(0, deadline - Date.now()));
    request.on("error", (e) => finish(e));
    request.end(payload);
  });
}

async function viaProxy(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  policy: OutboundPolicy,
  deadline: number,
  toFile: string | undefined,
): Promise<OutboundResponse> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`${method} ${url.href}: timeout after ${policy.timeoutMs} ms (DELIVER_TIMEOUT)`)), Math.max(0, deadline - Date.now()));
  try {
    const res = await fetch(url, {
      method,
      headers,
      body,
      redirect: "manual",
      signal: controller.signal,
      proxy: policy.proxy!.url,
      tls: { rejectUnauthorized: !policy.skipTlsVerify },
    } as RequestInit);
    const out: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      out[canonicalHeaderName(k)] = out[canonicalHeaderName(k)] ? `${out[canonicalHeaderName(k)]},${v}` : v;
    });
    const limit = policy.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const sink = toFile && res.ok ? new BodyFile(toFile, limit) : new BodyBuffer(limit);
    if (res.body) {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        const err = sink.write(Buffer.from(chunk));
        if (err) {
          controller.abort(err);
          throw err;
        }
      }
    }
    return { status: res.status, headers: out, ...(await sink.end()) };
  } finally {
    clearTimeout(timer);
  }
}

type BodyOutcome = Pick<OutboundResponse, "body" | "truncated" | "fileBytes">;

/** Keeps the body's first `limit` bytes; the rest is counted and dropped. */
class BodyBuffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  constructor(private readonly limit: number) {}
  write(c: Buffer): undefined {
    if (this.size < this.limit) this.chunks.push(c.subarray(0, this.limit - this.size));
    this.size += c.length;
    return undefined;
  }
  async end(): Promise<BodyOutcome> {
    return { body: Buffer.concat(this.chunks).toString("utf8"), truncated: this.size > this.limit };
  }
}

/** Streams the body into a file, failing once it passes `limit` bytes. */
class BodyFile {
  private readonly writer: ReturnType<ReturnType<typeof Bun.file>["writer"]>;
  private size = 0;
  constructor(
    path: string,
    private readonly limit: number,
  ) {
    this.writer = Bun.file(path).writer();
  }
  write(c: Buffer): Error | undefined {
    this.size += c.length;
    if (this.size > this.limit) {
      void Promise.resolve(this.writer.end()).catch(() => undefined);
      return new OutboundTooLarge(`the answer is larger than ${this.limit} bytes`);
    }
    this.writer.write(c);
    return undefined;
  }
  async end(): Promise<BodyOutcome> {
    await this.writer.end();
    return { body: "", truncated: false, fileBytes: this.size };
  }
}
