import type { Env } from "../env.ts";
import { BadRequest, Unauthorized } from "../../lib/errors.ts";
import { checkRemoteHost, type RemoteHostVerdict } from "../../outbound/remote-address.ts";
import type { RemoteAccess } from "../../git/remote.ts";

/**
 * A push mirror's remote address, as Gitea's API takes it (git.ParseRemoteAddr, then
 * migrations.IsMigrateURLAllowed, then util.SanitizeURL): the address is stored without its user
 * name and password, which are kept apart (sealed) and come from `remote_username` /
 * `remote_password` when either is given, else from the address itself.
 */
export interface RemoteCredentials {
  username: string;
  password: string;
}

export interface ParsedRemote {
  /** The address without credentials, as stored and returned. */
  address: string;
  credentials: RemoteCredentials;
}

/** Gitea's HandleRemoteAddressError messages. */
const invalidUrl = () => new BadRequest("Invalid Url ");
const invalidProtocol = () => new BadRequest("Invalid mirror protocol");
const permissionDenied = () => new Unauthorized("Permission denied");

/** The address with the user information removed (Gitea's SanitizeURL), keeping an absent path absent. */
function sanitize(u: URL, text: string): string {
  const clean = new URL(u.href);
  clean.username = "";
  clean.password = "";
  let href = clean.href;
  const hasPath = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\//i.test(text);
  if (!hasPath && clean.pathname === "/") href = href.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)\//i, "$1");
  return href;
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Checks and splits the address; throws 400 for an unparsable address or a scheme other than
 * http(s), 401 "Permission denied" for a local path or a host the `[migrations]` lists refuse.
 */
export async function parseRemoteAddress(env: Env, remoteAddress: string, username: string, password: string): Promise<ParsedRemote> {
  const text = remoteAddress.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  // No scheme (a path) or file://: Gitea lets only site admins with IMPORT_LOCAL_PATHS use those;
  // hearth never pushes to its own file system.
  if (scheme === undefined || scheme === "file") throw permissionDenied();
  if (scheme !== "http" && scheme !== "https") throw invalidProtocol();
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw invalidUrl();
  }
  if (!u.hostname) throw invalidUrl();
  const verdict = await checkHost(env, u);
  if (!verdict.allowed) throw permissionDenied();
  const credentials =
    username || password ? { username, password } : { username: decode(u.username), password: decode(u.password) };
  return { address: sanitize(u, text), credentials };
}

/** The `[migrations]` verdict on the address's host, with the addresses it may be reached at. */
export function checkHost(env: Env, u: URL): Promise<RemoteHostVerdict> {
  const m = env.settings.migrations;
  return checkRemoteHost(u.hostname, {
    allowedDomains: m.allowedDomains,
    blockedDomains: m.blockedDomains,
    allowLocalNetworks: m.allowLocalNetworks,
  });
}

/**
 * A mirror's remote as git is to reach it at sync time (push and pull mirrors alike): the sealed
 * credentials opened, the stored address parsed and its host checked again (the settings or the
 * name's addresses may have changed since it was added), git pinned to the checked addresses.
 * Otherwise the error to record, which holds no credentials.
 */
export async function mirrorRemote(env: Env, address: string, openCredentials: () => RemoteCredentials): Promise<RemoteAccess | { error: string }> {
  let credentials: RemoteCredentials;
  try {
    credentials = openCredentials();
  } catch {
    return { error: "the mirror's credentials cannot be opened (was [security] SECRET_KEY changed?)" };
  }
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return { error: "Invalid Url " };
  }
  const verdict = await checkHost(env, url);
  if (!verdict.allowed) {
    return { error: `${url.host} is not an allowed remote (check [migrations] ALLOWED_DOMAINS, BLOCKED_DOMAINS and ALLOW_LOCALNETWORKS)` };
  }
  return {
    url: address,
    username: credentials.username,
    password: credentials.password,
    pinnedAddresses: verdict.addresses,
    timeoutMs: env.settings.gitTimeout.mirror * 1000,
  };
}
