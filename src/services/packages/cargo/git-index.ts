import type { Env } from "../../env.ts";
import { Visibility, type RepoRow, type UserRow } from "../../../db/schema/index.ts";
import * as repoModel from "../../../models/repo.ts";
import * as pkgModel from "../../../models/package.ts";
import { cargoIndexPath } from "../../../lib/cargo.ts";
import { nowUnix } from "../../../lib/time.ts";
import { commitFiles, RefMovedError, type FileWrite } from "../../../git/commit-files.ts";
import { lsTree } from "../../../git/objects.ts";
import { readBranchHead } from "../../../git/refs.ts";
import { gitNameOf } from "../../user/git-identity.ts";
import { createRepo } from "../../repo/create.ts";
import { gitDirOf } from "../../repo/lookup.ts";
import { processPush } from "../../repo/push.ts";
import { buildCrateIndex, cargoConfig, cratesOf } from "./index.ts";

// Gitea's git index of a cargo registry (services/packages/cargo/index.go): the owner's repository
// `_cargo-index` holding config.json and an index file per crate, committed to like any push
// (branch table, webhooks), for cargo clients that read a git index.

export const CARGO_INDEX_REPO = "_cargo-index";
const CONFIG_FILE = "config.json";

/** The index repository's changes, one commit at a time per repository (a moved branch is retried). */
const queues = new WeakMap<Env, Map<number, Promise<unknown>>>();

function serialized<T>(env: Env, repoId: number, fn: () => Promise<T>): Promise<T> {
  let m = queues.get(env);
  if (!m) queues.set(env, (m = new Map()));
  const prev = m.get(repoId) ?? Promise.resolve();
  const next = prev.catch(() => {}).then(fn);
  m.set(repoId, next);
  void next.finally(() => m!.get(repoId) === next && m!.delete(repoId)).catch(() => {});
  return next;
}

interface Edit {
  /** The paths of the current tree's files. */
  files: string[];
  writes: FileWrite[];
  deletes: string[];
}

/**
 * Gitea's alterRepositoryContent: one commit by `doer` on the default branch with what `fn`
 * writes and deletes, then what a push of it does (branch table, webhooks). An unchanged tree
 * makes no commit.
 */
async function alterIndexRepo(env: Env, doer: UserRow, repo: RepoRow, owner: UserRow, message: string, fn: (edit: Edit) => void): Promise<void> {
  await serialized(env, repo.id, async () => {
    const gitDir = gitDirOf(env, owner, repo);
    for (let attempt = 0; ; attempt++) {
      const head = await readBranchHead(gitDir, repo.defaultBranch);
      const files = head ? (await lsTree(gitDir, head.commitId, true)).filter((e) => e.type === "blob").map((e) => e.path) : [];
      const edit: Edit = { files, writes: [], deletes: [] };
      fn(edit);
      const present = new Set(files);
      edit.deletes = edit.deletes.filter((p) => present.has(p));
      if (head && edit.writes.length === 0 && edit.deletes.length === 0) return;
      const sig = { name: gitNameOf(doer), email: doer.email, unix: nowUnix() };
      try {
        const commit = await commitFiles(gitDir, {
          branch: repo.defaultBranch,
          parent: head?.commitId,
          writes: edit.writes,
          deletes: edit.deletes,
          message: `${message}\n`,
          author: sig,
          committer: sig,
        });
        const zero = "0".repeat(commit.length);
        await processPush(env, repo.id, doer.id, [{ old: head?.commitId ?? zero, new: commit, ref: `refs/heads/${repo.defaultBranch}` }]);
        return;
      } catch (err) {
        if (err instanceof RefMovedError && attempt < 3) continue;
        throw err;
      }
    }
  });
}

/** The owner's git index repository, when it was made. */
export function indexRepoOf(env: Env, owner: UserRow): RepoRow | undefined {
  return repoModel.getRepoByOwner(env.db, owner.id, CARGO_INDEX_REPO);
}

async function getOrCreateIndexRepo(env: Env, doer: UserRow, owner: UserRow): Promise<RepoRow> {
  return indexRepoOf(env, owner) ?? (await createRepo(env, { owner, doer, name: CARGO_INDEX_REPO }));
}

/** The index file of one crate written (or removed, once it has no versions). */
function writeCrate(env: Env, edit: Edit, pkgId: number): void {
  const pkg = pkgModel.getPackageById(env.db, pkgId);
  if (!pkg) return;
  const text = buildCrateIndex(env, pkg);
  const path = cargoIndexPath(pkg.lowerName);
  if (text === undefined) edit.deletes.push(path);
  else edit.writes.push({ path, content: text });
}

/** Gitea's InitializeIndexRepository: the repository, created when missing, with config.json. */
export async function initializeCargoIndex(env: Env, doer: UserRow, owner: UserRow): Promise<void> {
  const repo = await getOrCreateIndexRepo(env, doer, owner);
  const authRequired = env.settings.service.requireSigninView || owner.visibility !== Visibility.Public || repo.isPrivate;
  await alterIndexRepo(env, doer, repo, owner, "Initialize Cargo Config", (edit) => {
    edit.writes.push({ path: CONFIG_FILE, content: `${JSON.stringify(cargoConfig(env, owner, authRequired))}\n` });
  });
}

/** Gitea's RebuildIndex: every file but config.json removed, then an index file per crate. */
export async function rebuildCargoIndex(env: Env, doer: UserRow, owner: UserRow): Promise<void> {
  const repo = await getOrCreateIndexRepo(env, doer, owner);
  const crates = cratesOf(env, owner);
  await alterIndexRepo(env, doer, repo, owner, "Rebuild Cargo Index", (edit) => {
    for (const f of edit.files) if (f !== CONFIG_FILE) edit.deletes.push(f);
    for (const pkg of crates) writeCrate(env, edit, pkg.id);
    const written = new Set(edit.writes.map((w) => w.path));
    edit.deletes = edit.deletes.filter((p) => !written.has(p));
  });
}

/** Gitea's UpdatePackageIndexIfExists: "Update {name}" when the owner has an index repository. */
export async function updateCargoGitIndexIfExists(env: Env, doer: UserRow, owner: UserRow, pkgId: number): Promise<void> {
  const repo = indexRepoOf(env, owner);
  if (!repo) return;
  const pkg = pkgModel.getPackageById(env.db, pkgId);
  if (!pkg) return;
  await alterIndexRepo(env, doer, repo, owner, `Update ${pkg.name}`, (edit) => writeCrate(env, edit, pkg.id));
}
