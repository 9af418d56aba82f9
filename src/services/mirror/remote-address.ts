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

/** Gitea's rule for a remote's credentials: the given user name and password when either is given, else the address's own. */
export function credentialsOf(u: URL, username: string, password: string): RemoteCredentials {
  return username || password ? { username, password } : { username: decode(u.username), password: decode(u.password) };
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
  return { address: sanitize(u, text), credentials: credentialsOf(u, username, password) };
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
 * A remote as git is to reach it: the address parsed and its host checked (again, for a stored
 * one: the settings or the name's addresses may have changed since), git pinned to the checked
 * addresses. `invalid` and `refused` for the caller to word.
 */
export async function reachRemote(
  env: Env,
  address: string,
  credentials: RemoteCredentials,
  timeoutMs: number,
): Promise<RemoteAccess | { problem: "invalid" } | { problem: "refused"; host: string }> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return { problem: "invalid" };
  }
  const verdict = await checkHost(env, url);
  if (!verdict.allowed) return { problem: "refused", host: url.host };
  return { url: address, username: credentials.username, password: credentials.password, pinnedAddresses: verdict.addresses, timeoutMs };
}

/**
 * A mirror's remote at sync time (push and pull mirrors alike): the sealed credentials opened and
 * the remote reached as `reachRemote` does; otherwise the error to record, which holds no credentials.
 */
export async function mirrorRemote(env: Env, address: string, openCredentials: () => RemoteCredentials): Promise<RemoteAccess | { error: string }> {
  let credentials: RemoteCredentials;
  try {
    credentials = openCredentials();
  } catch {
    return { error: "the mirror's credentials cannot be opened (was [security] SECRET_KEY changed?)" };
  }
  const remote = await reachRemote(env, address, credentials, env.settings.gitTimeout.mirror * 1000);
  if (!("problem" in remote)) return remote;
  if (remote.problem === "invalid") return { error: "Invalid Url " };
  return { error: `${remote.host} is not an allowed remote (check [migrations] ALLOWED_DOMAINS, BLOCKED_DOMAINS and ALLOW_LOCALNETWORKS)` };
}
