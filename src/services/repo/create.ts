import type { Env } from "../env.ts";
import { gitNameOf } from "../user/git-identity.ts";
import { writeTx, type Tx } from "../../db/client.ts";
import { AccessMode, RepoStatus, UserType, type RepoRow, type UserRow } from "../../db/schema/index.ts";
import { addRepoToAllRepoTeams, listUserTeams } from "../../models/team.ts";
import { putCollaboration } from "../../models/collaboration.ts";
import { canSeeOwner, repoPermission, requireOwnerInReach, requireRepoStaysInReach } from "../access/permission.ts";
import { getUserByName } from "../../models/user.ts";
import * as repos from "../../models/repo.ts";
import * as branchModel from "../../models/branch.ts";
import { Conflict, Forbidden, Invalid, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { initBareRepo, removeRepo } from "../../git/repo-init.ts";
import { commitFiles, isValidBranchName } from "../../git/commit-files.ts";
import { readBranchHead } from "../../git/refs.ts";
import { repoSizeBytes } from "../../git/maintenance.ts";
import { repoNameProblem } from "./names.ts";
import { gitDirOf } from "./lookup.ts";
import { selfCommand } from "./hook-command.ts";
import { initialFiles, labelTemplate } from "./templates/index.ts";
import { insertLabel } from "../../models/label.ts";
import { watchRepo } from "./watch.ts";
import { repoEvents } from "../events/repo-events.ts";
import { releaseEvent, withdrawEvent } from "../events/bus.ts";
import { copyDefaultHooksToRepo } from "../webhook/hooks.ts";

export interface CreateRepoInput {
  owner: UserRow;
  doer: UserRow;
  name: string;
  description?: string;
  isPrivate?: boolean;
  isTemplate?: boolean;
  autoInit?: boolean;
  gitignores?: string;
  license?: string;
  readme?: string;
  defaultBranch?: string;
  objectFormat?: string;
  trustModel?: string;
  /** A label set to create (`issue_labels`: "Default", "Advanced", ...). */
  issueLabels?: string;
  /** Where a migrated repository came from, without credentials. */
  originalUrl?: string;
  /** A pull mirror (its `mirror` row is the migration's to write). */
  isMirror?: boolean;
  /** Created empty for an import, which marks it ready when its rows commit (Gitea's RepositoryBeingMigrated). */
  beingMigrated?: boolean;
}

/** The owner's own limit, else `[repository] MAX_CREATION_LIMIT`; -1 is none. */
export function repoLimit(env: Env, owner: UserRow): number {
  return owner.maxRepoCreation >= 0 ? owner.maxRepoCreation : env.settings.repository.maxCreationLimit;
}

/** Gitea's CanCreateRepoIn: a site administrator doing it is never limited; everyone else is, at the owner's limit. */
export function checkCreationLimit(env: Env, owner: UserRow, doer: UserRow): void {
  if (doer.isAdmin) return;
  const limit = repoLimit(env, owner);
  if (limit >= 0 && repos.countOwnedRepos(env.db, owner.id) >= limit) {
    throw new Forbidden(`user has reached maximum limit of repositories [limit: ${limit}]`);
  }
}

/**
 * A new organization repository joins every team that includes all repositories; a creator who is
 * not thereby its administrator (a team member allowed to create repositories) becomes an admin
 * collaborator, as in Gitea.
 */
export function grantOrgAccess(env: Env, tx: Tx, doer: UserRow, org: UserRow, repo: RepoRow): void {
  addRepoToAllRepoTeams(tx, org.id, repo.id);
  if (!repoPermission({ db: tx, settings: env.settings }, doer, repo, org).isAdmin()) putCollaboration(tx, repo.id, doer.id, AccessMode.Admin);
}

/** Gitea's CanCreateOrgRepo: site admins, and members of a team allowed to create repositories (owners are). */
export function canCreateOrgRepo(env: Env, org: UserRow, doer: UserRow): boolean {
  if (doer.isAdmin) return true;
  return listUserTeams(env.db, doer.id, { orgId: org.id, offset: 0, limit: 1_000_000 }).rows.some((t) => t.canCreateOrgRepo);
}

/**
 * POST /orgs/{org}/repos: the organization, if the doer may see it and create repositories in it.
 * An unknown organization is a 404 (a 422 on the deprecated `/org/{org}/repos`), an invisible one 404.
 */
export function orgForRepoCreation(env: Env, doer: UserRow, name: string, unknownIsInvalid = false): UserRow {
  const org = getUserByName(env.db, name);
  if (!org || org.type !== UserType.Organization) {
    if (unknownIsInvalid) throw new Invalid(`org does not exist [id: 0, name: ${name}]`);
    throw new NotFound("GetOrgByName");
  }
  requireOwnerInReach(env, org, doer);
  if (!canSeeOwner(env, org, doer)) throw new NotFound();
  if (!canCreateOrgRepo(env, org, doer)) {
    throw new Forbidden("Given user is not allowed to create repository in organization.");
  }
  return org;
}

const TRUST_MODELS = ["default", "collaborator", "committer", "collaboratorcommitter"];

/**
 * Creates a repository: the row and the bare git repository on disk, or neither. With auto_init
 * the first commit (README, .gitignore, LICENSE) is made on the default branch.
 */
export async function createRepo(env: Env, input: CreateRepoInput): Promise<RepoRow> {
  requireRepoStaysInReach(input.doer, { isPrivate: input.isPrivate ?? false }, input.owner);
  const problem = repoNameProblem(input.name);
  if (problem) throw new Invalid(problem);
  const defaultBranch = input.defaultBranch || env.settings.repository.defaultBranch;
  if (!(await isValidBranchName(defaultBranch))) throw new Invalid(`invalid default branch name: ${defaultBranch}`);
  const objectFormat = input.objectFormat || "sha1";
  if (objectFormat !== "sha1" && objectFormat !== "sha256") {
    throw new Invalid(`invalid object format name: ${objectFormat}`);
  }
  const labelSet = input.issueLabels ? labelTemplate(input.issueLabels) : [];
  if (!labelSet) throw new Invalid(`failed to load label template file '${input.issueLabels}'`);
  const trustModel = input.trustModel || "default";
  if (!TRUST_MODELS.includes(trustModel)) throw new Invalid(`invalid trust model: ${trustModel}`);
  const files = input.autoInit
    ? await initialFiles({
        name: input.name,
        description: input.description ?? "",
        owner: input.owner,
        readme: input.readme || "Default",
        gitignores: input.gitignores ?? "",
        license: input.license ?? "",
      })
    : [];
  checkCreationLimit(env, input.owner, input.doer);

  const now = nowUnix();
  const created = writeTx(env.db, (tx) => {
    if (repos.getRepoByOwner(tx, input.owner.id, input.name)) {
      throw new Conflict("The repository with the same name already exists.");
    }
    repos.dropRedirect(tx, input.owner.id, input.name);
    const row = repos.insertRepo(tx, {
      ownerId: input.owner.id,
      ownerName: input.owner.name,
      name: input.name,
      lowerName: input.name.toLowerCase(),
      description: input.description ?? "",
      defaultBranch,
      objectFormat,
      trustModel,
      isPrivate: input.isPrivate ?? false,
      isTemplate: input.isTemplate ?? false,
      originalUrl: input.originalUrl ?? "",
      isMirror: input.isMirror ?? false,
      status: input.beingMigrated ? RepoStatus.BeingMigrated : RepoStatus.Ready,
      isEmpty: true,
      createdUnix: now,
      updatedUnix: now,
    });
    if (input.owner.type === UserType.Organization) grantOrgAccess(env, tx, input.doer, input.owner, row);
    for (const l of labelSet) {
      insertLabel(tx, { repoId: row.id, name: l.name, color: `#${l.color}`, description: l.description, exclusive: l.exclusive, createdUnix: now, updatedUnix: now });
    }
    // Gitea's [service] AUTO_WATCH_NEW_REPOS (default true): the creator watches the new repository.
    watchRepo(env, input.doer.id, row.id, tx);
    // Gitea copies the site's default webhooks into every new repository (CopyDefaultWebhooksToRepo).
    copyDefaultHooksToRepo(env, tx, row.id);
    // Announced with the row, held back until the git repository is there too.
    // An import announces its repository itself once it is filled (Gitea's MigrateRepository notice).
    const announced = input.beingMigrated ? undefined : repoEvents.hold(tx, env, { kind: "created", repo: row, owner: input.owner, doer: input.doer });
    return { row, announced };
  });

  const path = gitDirOf(env, input.owner, created.row);
  const repo = created.row;
  try {
    await initBareRepo(path, { defaultBranch, objectFormat, hookCommand: selfCommand() });
    if (files.length === 0) {
      if (created.announced) writeTx(env.db, (tx) => releaseEvent(tx, env, created.announced!));
      return repo;
    }
    const signature = { name: gitNameOf(input.doer), email: input.doer.email, unix: now };
    await commitFiles(path, {
      branch: defaultBranch,
      parent: undefined,
      writes: files,
      deletes: [],
      message: "Initial commit\n",
      author: signature,
      committer: signature,
    });
    const head = await readBranchHead(path, defaultBranch);
    const size = await repoSizeBytes(path);
    const done = writeTx(env.db, (tx) => {
      if (head) {
        branchModel.upsertBranch(
          tx,
          repo.id,
          { name: head.name, commitId: head.commitId, commitMessage: head.subject, commitUnix: head.commitUnix, pusherId: input.doer.id },
          now,
        );
      }
      if (created.announced) releaseEvent(tx, env, created.announced);
      return repos.updateRepo(tx, repo.id, { isEmpty: false, size })!;
    });
    return done;
  } catch (err) {
    removeRepo(path);
    writeTx(env.db, (tx) => {
      repos.deleteRepoRow(tx, repo.id);
      if (created.announced) withdrawEvent(tx, env, created.announced);
    });
    throw err;
  }
}
