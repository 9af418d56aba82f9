import { formatIP, isGlobalUnicast, isLoopback, isPrivate, netContains, parseCIDR, parseIP, type IP, type IPNet } from "./ip.ts";

/**
 * Gitea's host allow list (modules/hostmatcher), as `[webhook] ALLOWED_HOST_LIST` reads it: a
 * comma-separated list of
 * - `external`: a global unicast address that is neither private nor reserved (the default),
 * - `private`: RFC 1918 / RFC 4193 networks plus reserved special-purpose ranges (CGNAT, cloud
 *   metadata, test nets, IPv6 transition ranges),
 * - `loopback`: 127.0.0.0/8 and ::1,
 * - `*`: anything,
 * - a CIDR network (`10.0.0.0/8`, `fd00::/8`),
 * - a host name or IP pattern with `*`, `?` and `[...]` wildcards (Go's filepath.Match).
 * Entries are case-insensitive. A host matches by its name (patterns) or by the IP it resolves to.
 */
export class HostMatchList {
  private readonly builtins: string[] = [];
  private readonly patterns: RegExp[] = [];
  private readonly anything: boolean = false;
  private readonly nets: IPNet[] = [];

  constructor(
    /** The setting, for messages: `webhook.ALLOWED_HOST_LIST`. */
    readonly settingKeyHint: string,
    readonly settingValue: string,
  ) {
    for (const raw of settingValue.split(",")) {
      const s = raw.trim().toLowerCase();
      if (!s) continue;
      const net = parseCIDR(s);
      if (net) this.nets.push(net);
      else if (s === "external" || s === "private" || s === "loopback") this.builtins.push(s);
      else {
        if (s === "*") this.anything = true;
        this.patterns.push(filepathMatchRegExp(s));
      }
    }
  }

  isEmpty(): boolean {
    return this.builtins.length === 0 && this.patterns.length === 0 && this.nets.length === 0;
  }

  private matchPattern(host: string): boolean {
    const h = host.trim().toLowerCase();
    return this.patterns.some((re) => re.test(h));
  }

  private matchIP(ip: IP): boolean {
    if (this.anything) return true;
    for (const b of this.builtins) {
      if (b === "external" && isGlobalUnicast(ip) && !isPrivate(ip)) return true;
      if (b === "private" && isPrivate(ip)) return true;
      if (b === "loopback" && isLoopback(ip)) return true;
    }
    return this.nets.some((n) => netContains(n, ip));
  }

  /** By name alone (no DNS): patterns, or the rules above when the name is an IP literal. */
  matchHostName(host: string): boolean {
    const name = stripPort(host);
    if (this.matchPattern(name)) return true;
    const ip = parseIP(name);
    return ip ? this.matchIP(ip) : false;
  }

  /** The address itself: its text against the patterns, then the rules above. */
  matchIPAddr(ip: IP): boolean {
    return this.matchPattern(formatIP(ip)) || this.matchIP(ip);
  }

  matchHostOrIP(host: string, ip: IP): boolean {
    return this.matchHostName(host) || this.matchIPAddr(ip);
  }
}

/** `host:port`, `[v6]:port` or a bare host → the host. */
function stripPort(host: string): string {
  const bracket = /^\[([^\]]+)\](?::\d+)?$/.exec(host);
  if (bracket) return bracket[1]!;
  const colon = host.indexOf(":");
  if (colon >= 0 && colon === host.lastIndexOf(":")) return host.slice(0, colon);
  return host;
}

/**
 * Go's filepath.Match as a RegExp: `*` any run of characters but `/`, `?` one such character,
 * `[...]` a class (`^` negates, `\` escapes), anything else literal. A malformed pattern matches
 * nothing, as Go's Match returns false with its error.
 */
export function filepathMatchRegExp(pattern: string): RegExp {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "\\" && i + 1 < pattern.length) out += escapeRe(pattern[++i]!);
    else if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end < 0) return /(?!)/;
      let body = pattern.slice(i + 1, end);
      const negate = body.startsWith("^");
      if (negate) body = body.slice(1);
      const cls = body.replace(/\\(.)/g, "$1").replace(/[\]\\^]/g, "\\$&");
      out += negate ? `[^/${cls}]` : `[${cls}]`;
      i = end;
    } else out += escapeRe(c);
  }
  return new RegExp(`^${out}$`);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
