import { rmSync } from "node:fs";
import type { Env } from "../env.ts";
import { UserType, type RepoRow, type UserRow } from "../../db/schema/index.ts";
import * as repos from "../../models/repo.ts";
import { getUserById, getUserByName } from "../../models/user.ts";
import { Conflict, Forbidden, Invalid } from "../../lib/errors.ts";
import { isOrgOwner } from "../org/lookup.ts";
import { repoLimit } from "../repo/create.ts";
import { repoNameProblem } from "../repo/names.ts";
import { checkHost, credentialsOf } from "../mirror/remote-address.ts";
import { parseMirrorInterval, recordPullMirror } from "../mirror/pull-mirrors.ts";
import type { RemoteCredentials } from "../mirror/remote-address.ts";
import type { Unit } from "./format.ts";
import { importDump } from "./restore.ts";
import { scratchDir } from "./leftovers.ts";
import { DISALLOWED_HOST } from "./download/http.ts";
import { openDownloader } from "./download/services.ts";
import { SERVICE_NAMES, type Downloader, type ServiceName } from "./download/source.ts";
import { writeDump } from "./download/write-dump.ts";

/**
 * Gitea's `POST /repos/migrate`: a repository brought in from another forge or any git address in
 * one call. The source is downloaded into a dump in the data directory (download/write-dump.ts),
 * imported by restore-repo's code (restore.ts importDump) and the dump removed; a failure at any
 * step leaves no repository behind.
 */

/** Where a migration or a download reads from: Gitea's `service`, `clone_addr` and `auth_*` options. */
export interface SourceRequest {
  /** git, github, gitea, gitlab, gogs ("" is git). */
  service: string;
  cloneAddr: string;
  authUsername: string;
  authPassword: string;
  authToken: string;
}

export interface MigrateInput extends SourceRequest {
  doer: UserRow;
  /** `repo_owner` (a name), else `uid` (deprecated), else the doer. */
  ownerName?: string;
  ownerId?: number;
  repoName: string;
  mirror: boolean;
  mirrorInterval?: string;
  isPrivate: boolean;
  description: string;
  milestones: boolean;
  labels: boolean;
  issues: boolean;
  pullRequests: boolean;
  releases: boolean;
}

/** The services Gitea names that hearth has no downloader for (Gitea's ErrNotSupported: 422). */
const KNOWN_ELSEWHERE = new Set(["onedev", "gitbucket", "codebase", "codecommit"]);

function serviceOf(name: string): ServiceName {
  const s = (name || "git").toLowerCase();
  if ((SERVICE_NAMES as string[]).includes(s)) return s as ServiceName;
  if (KNOWN_ELSEWHERE.has(s)) throw new Invalid(`Migrate from ${s} is not supported`);
  throw new Invalid(`unknown migration service: ${name}`);
}

export interface CloneAddress {
  /** The address without user information: what is stored and shown. */
  clean: string;
  credentials: RemoteCredentials;
}

/**
 * Gitea's ParseRemoteAddr + IsMigrateURLAllowed, all before any connection: http, https or git
 * addresses only (a local path is refused, as for anyone without IMPORT_LOCAL_PATHS), the host
 * judged by `[migrations]`. The user name and password come from auth_username / auth_password
 * when either is given, else from the address.
 */
export async function parseCloneAddress(env: Env, raw: string, authUsername: string, authPassword: string): Promise<CloneAddress> {
  const text = raw.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) throw new Invalid("You are not allowed to import local repositories.");
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new Invalid("Invalid url");
  }
  if (!["http:", "https:", "git:"].includes(u.protocol)) throw new Invalid("Invalid url: the protocol must be http, https or git");
  if (!u.hostname) throw new Invalid("Invalid url");
  const verdict = await checkHost(env, u);
  if (!verdict.allowed) throw new Invalid(DISALLOWED_HOST);
  const credentials = credentialsOf(u, authUsername, authPassword);
  u.username = "";
  u.password = "";
  return { clean: u.href, credentials };
}

/** The service's downloader for a checked address (its credentials split off) and a token. */
export function downloaderFor(env: Env, service: ServiceName, address: CloneAddress, authToken: string): Promise<Downloader> {
  return openDownloader(env, service, {
    cloneAddr: address.clean,
    authUsername: address.credentials.username,
    authPassword: address.credentials.password,
    authToken,
  });
}

/** Gitea's checks on who may put a repository where: admins anywhere, others in their own account or an organization they own. */
function checkOwner(env: Env, doer: UserRow, owner: UserRow): void {
  if (doer.isAdmin) return;
  if (owner.type !== UserType.Organization && owner.id !== doer.id) throw new Forbidden("Given user is not an organization.");
  if (owner.type === UserType.Organization && !isOrgOwner(env, owner, doer)) throw new Forbidden("Given user is not owner of organization.");
}

/** The units a migration moves: Gitea's options, comments always, assets with the releases; a mirror moves git data only. */
function unitsOf(input: MigrateInput): Set<Unit> {
  const units = new Set<Unit>();
  if (input.mirror) return units;
  if (input.milestones) units.add("milestones");
  if (input.labels) units.add("labels");
  if (input.issues) units.add("issues");
  if (input.pullRequests) units.add("pull_requests");
  if (input.issues || input.pullRequests) units.add("comments");
  if (input.releases) units.add("releases").add("release_assets");
  return units;
}

/** Gitea's owner lookup: an unknown account is 422. */
function ownerOf(env: Env, input: MigrateInput): UserRow {
  if (input.ownerName) {
    const u = getUserByName(env.db, input.ownerName);
    if (!u) throw new Invalid(`user redirect does not exist [name: ${input.ownerName}]`);
    return u;
  }
  if (input.ownerId) {
    const u = getUserById(env.db, input.ownerId);
    if (!u) throw new Invalid(`user does not exist [uid: ${input.ownerId}, name: ]`);
    return u;
  }
  return input.doer;
}

export async function migrateRepo(env: Env, input: MigrateInput): Promise<RepoRow> {
  const { doer } = input;
  const owner = ownerOf(env, input);
  checkOwner(env, doer, owner);
  const address = await parseCloneAddress(env, input.cloneAddr, input.authUsername, input.authPassword);
  const service = serviceOf(input.service);
  if (input.mirror && env.settings.mirror.disableNewPull) {
    throw new Forbidden("the site administrator has disabled the creation of new pull mirrors");
  }
  if (env.settings.repository.disableMigrations) throw new Forbidden("the site administrator has disabled migrations");
  const intervalNs = input.mirror ? parseMirrorInterval(env, input.mirrorInterval) : 0;
  // What creating the repository would refuse, refused before the download rather than after it.
  const problem = repoNameProblem(input.repoName);
  if (problem) throw new Invalid(problem);
  if (repos.getRepoByOwner(env.db, owner.id, input.repoName)) throw new Conflict("The repository with the same name already exists.");
  const limit = repoLimit(env, owner);
  if (!doer.isAdmin && limit >= 0 && repos.countOwnedRepos(env.db, owner.id) >= limit) {
    throw new Invalid(`You have already reached your limit of ${limit} repositories.`);
  }

  const downloader = await downloaderFor(env, service, address, input.authToken);
  const units = unitsOf(input);
  const dir = scratchDir(env.settings);
  try {
    const dumped = await writeDump(env, downloader, units, dir, address.clean);
    const { repo } = await importDump(env, {
      dir,
      owner,
      doer,
      repoName: input.repoName,
      units,
      // Gitea's sameApp: people of this very instance are its own accounts.
      people: address.clean.startsWith(env.settings.server.rootUrl) ? "local" : "ghost",
      create: {
        description: input.description,
        isPrivate: input.isPrivate,
        originalUrl: address.clean,
        isMirror: input.mirror,
      },
      finish: input.mirror
        ? (tx, r) => recordPullMirror(env, tx, r.id, { address: dumped.repo.cloneUrl, credentials: dumped.repo.cloneCredentials, intervalNs })
        : undefined,
    });
    return repos.getRepoById(env.db, repo.id)!;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
