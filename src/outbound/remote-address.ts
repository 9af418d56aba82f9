import { HostMatchList } from "./host-matcher.ts";
import { formatIP, parseIP, type IP } from "./ip.ts";

/**
 * Which remote hosts git may push to (push mirrors): Gitea's migration rule
 * (services/migrations IsMigrateURLAllowed + checkByAllowBlockList). The allow list is
 * `[migrations] ALLOWED_DOMAINS`, or every external address when it is empty, plus private and
 * loopback networks with ALLOW_LOCALNETWORKS; BLOCKED_DOMAINS refuses whatever it matches, by
 * name or by any address the name resolves to.
 */
export interface RemoteHostPolicy {
  allowedDomains: string;
  blockedDomains: string;
  allowLocalNetworks: boolean;
  /** Name resolution, all addresses; the system resolver unless given. */
  resolve?: (host: string) => Promise<string[]>;
}

export type RemoteHostVerdict =
  /** `addresses`: what the name resolved to and may be connected to (empty for an IP literal). */
  | { allowed: true; addresses: string[] }
  | { allowed: false };

// node:dns is loaded on first use, not at start-up (see request.ts).
const systemResolve = async (host: string) => {
  const { lookup } = await import("node:dns/promises");
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
};

function lists(policy: RemoteHostPolicy): { allow: HostMatchList; block: HostMatchList } {
  const allowEntries = [policy.allowedDomains.trim() || "external"];
  if (policy.allowLocalNetworks) allowEntries.push("private", "loopback");
  return {
    allow: new HostMatchList("migrations.ALLOWED_DOMAINS/ALLOW_LOCALNETWORKS", allowEntries.join(",")),
    block: new HostMatchList("migrations.BLOCKED_DOMAINS", policy.blockedDomains),
  };
}

/** Checks `host` (a name or an IP literal, without port). A name that does not resolve is refused unless allowed by name. */
export async function checkRemoteHost(host: string, policy: RemoteHostPolicy): Promise<RemoteHostVerdict> {
  const { allow, block } = lists(policy);
  const bare = host.replace(/^\[|\]$/g, "");
  // Refused by name: no need to ask DNS.
  if (block.matchHostName(bare)) return { allowed: false };
  const literal = parseIP(bare);
  let ips: IP[] = [];
  if (literal) ips = [literal];
  else {
    try {
      ips = (await (policy.resolve ?? systemResolve)(bare)).map((a) => parseIP(a)).filter((ip): ip is IP => ip !== undefined);
    } catch {
      // As Gitea: an unresolvable name is judged by its name alone.
      ips = [];
    }
  }
  if (ips.some((ip) => block.matchIPAddr(ip))) return { allowed: false };
  const byName = allow.matchHostName(bare);
  const usable = byName ? ips : ips.filter((ip) => allow.matchIPAddr(ip));
  if (!byName && usable.length === 0) return { allowed: false };
  return { allowed: true, addresses: literal ? [] : usable.map(formatIP) };
}
