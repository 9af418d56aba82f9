import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { UserType, Visibility, type RepoRow, type UserRow } from "../../db/schema/index.ts";
import * as repos from "../../models/repo.ts";
import * as branchModel from "../../models/branch.ts";
import * as watchModel from "../../models/watch.ts";
import { Conflict, Forbidden, Invalid } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { removeRepo } from "../../git/repo-init.ts";
import { forkBareRepo, repoDirExists } from "../../git/fork.ts";
import { readBranchHeads } from "../../git/refs.ts";
import { repoNameProblem } from "./names.ts";
import { gitDirOf, type RepoContext } from "./lookup.ts";
import { selfCommand } from "./hook-command.ts";
import { canCreateOrgRepo, grantOrgAccess, repoLimit } from "./create.ts";
import { getUserByName } from "../../models/user.ts";
import { isOrgMember } from "../../models/org.ts";
import { viewerFilter, type Paging } from "./list.ts";
import { repoEvents } from "../events/repo-events.ts";
import { releaseEvent, withdrawEvent } from "../events/bus.ts";
import { copyDefaultHooksToRepo } from "../webhook/hooks.ts";

export interface ForkInput {
  doer: UserRow;
  source: RepoContext;
  /** Name of the fork; the source's name when not given. */
  name?: string;
  /** Gitea's CreateForkOption.organization: the organization to own the fork instead of the doer. */
  organization?: string;
}

/**
 * Gitea's CanForkRepoIn: with `[repository] ALLOW_FORK_WITHOUT_MAXIMUM_LIMIT` (the default) forks
 * do not count against the creation limit; otherwise the limit applies as for a new repository,
 * and a fork past it is a 409 quoting the owner's own limit, as Gitea words it.
 */
function checkForkLimit(env: Env, doer: UserRow, owner: UserRow): void {
  if (env.settings.repository.allowForkWithoutMaximumLimit || doer.isAdmin) return;
  const limit = repoLimit(env, owner);
  if (limit >= 0 && repos.countOwnedRepos(env.db, owner.id) >= limit) {
    throw new Conflict(`user has reached maximum limit of repositories [limit: ${owner.maxRepoCreation}]`);
  }
}

/** The fork of repository `sourceId` that account `ownerId` owns, if any (Gitea's GetForkedRepo). */
export function existingFork(env: Env, sourceId: number, ownerId: number): RepoRow | undefined {
  return repos.listRepos(env.db, {
    ownerId,
    forkOf: sourceId,
    seeAll: true,
    visibleOwnerVisibilities: [],
    sort: "id",
    descending: false,
    offset: 0,
    limit: 1,
  }).rows[0];
}

/**
 * The organization named by `organization`, in the order of Gitea's CreateFork: an unknown name (or
 * a user's) is 422, someone outside it 403 (site admins need not be members). hearth also asks for
 * Gitea's CanCreateOrgRepo, as for any other new repository of the organization: Gitea's API lets
 * any member fork into it, which would let a read-only member create repositories there.
 */
function forkOrganization(env: Env, doer: UserRow, name: string): UserRow {
  const org = getUserByName(env.db, name);
  if (!org || org.type !== UserType.Organization) throw new Invalid(`org does not exist [id: 0, name: ${name}]`);
  if (!doer.isAdmin && !isOrgMember(env.db, org.id, doer.id)) {
    throw new Forbidden(`User is no Member of Organisation '${org.name}'`);
  }
  if (!canCreateOrgRepo(env, org, doer)) throw new Forbidden(`User is not allowed to create repos in Organisation '${org.name}'`);
  return org;
}

/**
 * Forks a repository for the doer or one of its organizations: a new row (fork of the source,
 * code and pull requests only, description and visibility of the source) and a bare repository with all its branches and tags,
 * or neither. The source's fork counter and the fork's watch by the doer move with the row.
 */
export async function forkRepo(env: Env, input: ForkInput): Promise<RepoRow> {
  const { doer, source } = input;
  const owner = input.organization === undefined ? doer : forkOrganization(env, doer, input.organization);
  const name = input.name ?? source.repo.name;
  checkForkLimit(env, doer, owner);
  const already = existingFork(env, source.repo.id, owner.id);
  if (already) {
    throw new Conflict(
      `repository is already forked by user [uname: ${owner.name}, repo path: ${source.owner.name}/${source.repo.name}, fork path: ${owner.name}/${already.name}]`,
    );
  }
  const problem = repoNameProblem(name);
  if (problem) throw new Invalid(problem);

  const now = nowUnix();
  const src = source.repo;
  const created = writeTx(env.db, (tx) => {
    if (repos.getRepoByOwner(tx, owner.id, name)) {
      throw new Conflict(`repository already exists [uname: ${owner.name}, name: ${name}]`);
    }
    repos.dropRedirect(tx, owner.id, name);
    const row = repos.insertRepo(tx, {
      ownerId: owner.id,
      ownerName: owner.name,
      name,
      lowerName: name.toLowerCase(),
      description: src.description,
      defaultBranch: src.defaultBranch,
      objectFormat: src.objectFormat,
      isPrivate: src.isPrivate || source.owner.visibility === Visibility.Private,
      isEmpty: src.isEmpty,
      isFork: true,
      forkId: src.id,
      size: src.size,
      // Gitea gives a fork the code and pull request units only.
      hasCode: true,
      hasPullRequests: true,
      hasIssues: false,
      hasWiki: false,
      hasProjects: false,
      hasReleases: false,
      hasPackages: false,
      hasActions: false,
      createdUnix: now,
      updatedUnix: now,
    });
    // In an organization the fork joins the all-repositories teams, and its creator administers it.
    if (owner.type === UserType.Organization) grantOrgAccess(env, tx, doer, owner, row);
    repos.incrementForks(tx, src.id, 1);
    watchModel.addWatch(tx, doer.id, row.id, now);
    // Gitea copies the site's default webhooks into every new repository (CopyDefaultWebhooksToRepo).
    copyDefaultHooksToRepo(env, tx, row.id);
    // Announced with the row, held back until the git repository is there too.
    const announced = repoEvents.hold(tx, env, { kind: "forked", repo: row, owner, source: src, sourceOwner: source.owner, doer });
    return { row, announced };
  });
  const fork = created.row;

  const cleanup = () =>
    writeTx(env.db, (tx) => {
      repos.incrementForks(tx, src.id, -1);
      repos.deleteRepoRow(tx, fork.id);
      withdrawEvent(tx, env, created.announced);
    });
  const path = gitDirOf(env, owner, fork);
  if (repoDirExists(path)) {
    cleanup();
    throw new Conflict(`repository files already exist [uname: ${owner.name}, name: ${name}]`);
  }
  try {
    await forkBareRepo(gitDirOf(env, source.owner, src), path, {
      defaultBranch: src.defaultBranch,
      objectFormat: src.objectFormat === "sha256" ? "sha256" : "sha1",
      hookCommand: selfCommand(),
    });
    const heads = await readBranchHeads(path);
    const done = writeTx(env.db, (tx) => {
      branchModel.replaceBranches(
        tx,
        fork.id,
        heads.map((h) => ({ name: h.name, commitId: h.commitId, commitMessage: h.subject, commitUnix: h.commitUnix, pusherId: doer.id })),
        now,
      );
      releaseEvent(tx, env, created.announced);
      return repos.getRepoById(tx, fork.id)!;
    });
    return done;
  } catch (err) {
    removeRepo(path);
    cleanup();
    throw err;
  }
}

/** GET /repos/{o}/{r}/forks: the forks `viewer` may see (site admins: all), oldest first. */
export function listForks(env: Env, viewer: UserRow | undefined, repo: RepoRow, page: Paging) {
  return repos.listRepos(env.db, {
    ...viewerFilter(env, viewer),
    forkOf: repo.id,
    sort: "id",
    descending: false,
    ...page,
  });
}
