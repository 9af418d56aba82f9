/**
 * IP addresses as bytes, with the classifications Go's net.IP makes (IsLoopback, IsPrivate,
 * IsGlobalUnicast...), which Gitea's host matcher builds on. An IPv4 address, or an IPv4-mapped
 * IPv6 one (::ffff:a.b.c.d), is 4 bytes, as Go's To4() sees it, so the IPv4 rules apply to both.
 */

export type IP = Uint8Array;

function parseV4(s: string): IP | undefined {
  const parts = s.split(".");
  if (parts.length !== 4) return undefined;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const p = parts[i]!;
    // Go refuses leading zeros (no octal surprises) and anything but decimal digits.
    if (!/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255) return undefined;
    out[i] = Number(p);
  }
  return out;
}

function parseV6(s: string): IP | undefined {
  let text = s;
  if (text.includes(".")) {
    // An embedded IPv4 tail (::ffff:1.2.3.4) becomes its two 16-bit words.
    const lastColon = text.lastIndexOf(":");
    const v4 = parseV4(text.slice(lastColon + 1));
    if (!v4) return undefined;
    const hi = ((v4[0]! << 8) | v4[1]!).toString(16);
    const lo = ((v4[2]! << 8) | v4[3]!).toString(16);
    text = `${text.slice(0, lastColon + 1)}${hi}:${lo}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const words = (h: string) => (h === "" ? [] : h.split(":"));
  const parseWord = (w: string) => (/^[0-9a-fA-F]{1,4}$/.test(w) ? parseInt(w, 16) : NaN);
  const head = words(halves[0]!).map(parseWord);
  const rest = halves.length === 2 ? words(halves[1]!).map(parseWord) : [];
  if ([...head, ...rest].some((n) => Number.isNaN(n))) return undefined;
  const total = head.length + rest.length;
  if (halves.length === 1 ? total !== 8 : total > 7) return undefined;
  const all = [...head, ...new Array<number>(8 - total).fill(0), ...rest];
  const out = new Uint8Array(16);
  all.forEach((w, i) => {
    out[i * 2] = w >> 8;
    out[i * 2 + 1] = w & 0xff;
  });
  return out;
}

const isV4Mapped = (ip: IP) => ip.length === 16 && ip.subarray(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff;

/** Parses an IPv4 or IPv6 literal (brackets and a zone such as %eth0 allowed); undefined when not one. */
export function parseIP(s: string): IP | undefined {
  let t = s.trim();
  if (t.startsWith("[") && t.endsWith("]")) t = t.slice(1, -1);
  const zone = t.indexOf("%");
  if (zone >= 0 && t.includes(":")) t = t.slice(0, zone);
  if (!t.includes(":")) return parseV4(t);
  const v6 = parseV6(t);
  if (!v6) return undefined;
  return isV4Mapped(v6) ? v6.slice(12) : v6;
}

/** Go's IP.String(): dotted quad, or RFC 5952 compressed lowercase IPv6. */
export function formatIP(ip: IP): string {
  if (ip.length === 4) return ip.join(".");
  const words = Array.from({ length: 8 }, (_, i) => (ip[i * 2]! << 8) | ip[i * 2 + 1]!);
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (ws: number[]) => ws.map((w) => w.toString(16)).join(":");
  if (bestStart < 0) return hex(words);
  return `${hex(words.slice(0, bestStart))}::${hex(words.slice(bestStart + bestLen))}`;
}

export interface IPNet {
  ip: IP;
  bits: number;
}

/** Go's ParseCIDR: an address, `/`, a prefix length; undefined when not one. */
export function parseCIDR(s: string): IPNet | undefined {
  const slash = s.indexOf("/");
  if (slash < 0) return undefined;
  const addr = s.slice(0, slash);
  const len = s.slice(slash + 1);
  // Go keeps a v4-mapped IPv6 network as IPv6 (it is written with ':'); a dotted one is IPv4.
  let ip: IP | undefined;
  if (addr.includes(":")) {
    ip = parseV6(addr);
  } else {
    ip = parseV4(addr);
  }
  if (!ip || !/^\d{1,3}$/.test(len)) return undefined;
  const bits = Number(len);
  if (bits > ip.length * 8) return undefined;
  return { ip, bits };
}

export function netContains(net: IPNet, ip: IP): boolean {
  if (net.ip.length !== ip.length) return false;
  let bits = net.bits;
  for (let i = 0; i < ip.length && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((net.ip[i]! & mask) !== (ip[i]! & mask)) return false;
  }
  return true;
}

const nets = (...cidrs: string[]) => cidrs.map((c) => parseCIDR(c)!);
const inAny = (list: IPNet[], ip: IP) => list.some((n) => netContains(n, ip));

const LOOPBACK = nets("127.0.0.0/8", "::1/128");
const PRIVATE = nets("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7");
/**
 * Special-purpose ranges Gitea's host matcher counts as private too (CGNAT, cloud metadata, test
 * nets, IPv6 transition ranges that embed IPv4 addresses...): never "external".
 */
const RESERVED = nets(
  "100.64.0.0/10",
  "168.63.129.16/32",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.88.99.0/24",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "100::/64",
  "64:ff9b::/96",
  "64:ff9b:1::/48",
  "2001::/32",
  "2001:10::/28",
  "2001:20::/28",
  "2001:db8::/32",
  "2002::/16",
);
const LINK_LOCAL = nets("169.254.0.0/16", "fe80::/10");
const MULTICAST = nets("224.0.0.0/4", "ff00::/8");

export const isLoopback = (ip: IP) => inAny(LOOPBACK, ip);
/** RFC 1918 / RFC 4193 plus the reserved special-purpose ranges. */
export const isPrivate = (ip: IP) => inAny(PRIVATE, ip) || inAny(RESERVED, ip);
const isUnspecified = (ip: IP) => ip.every((b) => b === 0);
const isBroadcast = (ip: IP) => ip.length === 4 && ip.every((b) => b === 255);

/** Go's IsGlobalUnicast: not unspecified, loopback, link-local, multicast or the IPv4 broadcast address. */
export function isGlobalUnicast(ip: IP): boolean {
  return !isUnspecified(ip) && !isLoopback(ip) && !inAny(LINK_LOCAL, ip) && !inAny(MULTICAST, ip) && !isBroadcast(ip);
}
