import { existsSync, renameSync } from "node:fs";
import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { deleteRepoWebhooks } from "../../models/webhook.ts";
import { deleteRepoSecrets } from "../../models/secret.ts";
import { deleteRepoVariables } from "../../models/action-variable.ts";
import { removeRepoAvatarFile } from "./avatar.ts";
import type { RepoRow, UserRow } from "../../db/schema/index.ts";
import * as repos from "../../models/repo.ts";
import { clearRepoStars } from "../../models/star.ts";
import { removeRepoFromTeams } from "../../models/team.ts";
import { deleteLabelsOf, recountOrgLabels } from "../../models/label.ts";
import { removeRepo } from "../../git/repo-init.ts";
import { gitDirOf } from "./lookup.ts";
import { attachmentsOfRepo } from "../../models/attachment.ts";
import { removeAttachmentFiles } from "../issue/attachments.ts";
import { repoEvents } from "../events/repo-events.ts";
import type { Owns, RepoRef } from "../access/repo-access.ts";
import { removeActionFiles, removeRepoActionsInTx, type ActionFiles } from "../actions/removal.ts";
import type { Doer } from "../access/permission.ts";

/**
 * Deletes a repository and everything hanging off it. The git directory is first moved aside, so a
 * failed database delete can put it back; once the row is gone the directory is removed. A
 * deletion someone asked for (`doer`) is announced.
 */
export function deleteRepo(env: Env, rc: Owns, doer: Doer): void {
  removeRepoAndData(env, rc.owner, rc.repo, doer);
}

/**
 * The same deletion by hearth itself (a failed restore rolled back, through `asSystem`), not
 * announced.
 */
export function discardRepo(env: Env, rc: Owns<RepoRef>): void {
  removeRepoAndData(env, rc.owner, rc.repo);
}

function removeRepoAndData(env: Env, owner: UserRow, repo: RepoRow, doer?: Doer): void {
  const path = gitDirOf(env, owner, repo);
  const trash = `${path}.deleting-${process.pid}-${Date.now()}`;
  const moved = existsSync(path);
  if (moved) renameSync(path, trash);
  const files = attachmentsOfRepo(env.db, repo.id);
  let actionFiles: ActionFiles | undefined;
  try {
    writeTx(env.db, (tx) => {
      if (repo.isFork && repo.forkId) repos.incrementForks(tx, repo.forkId, -1);
      clearRepoStars(tx, repo.id);
      repos.detachForks(tx, repo.id);
      removeRepoFromTeams(tx, repo.id);
      // Labels have no foreign key to their repository; its organization's labels lose the issues that went with it.
      deleteLabelsOf(tx, { repoId: repo.id });
      deleteRepoWebhooks(tx, repo.id);
      deleteRepoSecrets(tx, repo.id);
      deleteRepoVariables(tx, repo.id);
      actionFiles = removeRepoActionsInTx(tx, repo.id);
      repos.deleteRepoRow(tx, repo.id);
      recountOrgLabels(tx, repo.ownerId);
      if (doer) repoEvents.emit(tx, env, { kind: "deleted", repo, owner, doer });
    });
  } catch (err) {
    if (moved) renameSync(trash, path);
    throw err;
  }
  if (moved) removeRepo(trash);
  // The attachment rows went with the repository (cascade); their files go now.
  removeAttachmentFiles(env, files);
  if (actionFiles) removeActionFiles(env, actionFiles);
  removeRepoAvatarFile(env, repo.avatar);
}

/** Every repository an account owns, for deleting the account with purge. */
export function deleteAllOwnedRepos(env: Env, owner: UserRow): void {
  for (const repo of repos.listOwnedRepoIds(env.db, owner.id)) removeRepoAndData(env, owner, repo);
}

export function ownsRepos(env: Env, owner: UserRow): boolean {
  return repos.countOwnedRepos(env.db, owner.id) > 0;
}
