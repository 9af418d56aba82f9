import { join } from "node:path";
import type { Env } from "../env.ts";
import type { RepoRow } from "../../db/schema/index.ts";
import * as repos from "../../models/repo.ts";
import { AvatarStore } from "../../storage/avatars.ts";
import { decodeAvatarImage, hashAvatar, imageType } from "../user/avatar.ts";

/** Repository avatars live apart from accounts' (Gitea's RepoAvatars storage, `APP_DATA_PATH/repo-avatars`). */
const stores = new WeakMap<Env, AvatarStore>();

function store(env: Env): AvatarStore {
  let s = stores.get(env);
  if (!s) stores.set(env, (s = new AvatarStore(join(env.settings.server.appDataPath, "repo-avatars"))));
  return s;
}

/**
 * Gitea's repository UploadAvatar: the image (checked as an account's) is stored under a hash of
 * the repository's id and the content, the repository points at it and the old file goes. The
 * same image again changes nothing; like Gitea's, the change leaves `updated_at` alone.
 */
export function setRepoAvatar(env: Env, repo: RepoRow, base64: string): RepoRow {
  const data = decodeAvatarImage(env, base64);
  const name = hashAvatar(repo.id, data);
  if (repo.avatar === name) return repo;
  store(env).save(name, data);
  const updated = repos.updateRepo(env.db, repo.id, { avatar: name }) ?? repo;
  if (repo.avatar) store(env).remove(repo.avatar);
  return updated;
}

/** Gitea's repository DeleteAvatar: none set is not an error. */
export function deleteRepoAvatar(env: Env, repo: RepoRow): void {
  if (!repo.avatar) return;
  repos.updateRepo(env.db, repo.id, { avatar: "" });
  store(env).remove(repo.avatar);
}

/** The file of a deleted repository's avatar goes with it. */
export function removeRepoAvatarFile(env: Env, name: string): void {
  if (name) store(env).remove(name);
}

/** The stored file and its type, for serving `/repo-avatars/{name}`. */
export async function repoAvatarFile(env: Env, name: string): Promise<{ path: string; type: string } | undefined> {
  const path = store(env).file(name);
  if (!path) return undefined;
  const head = new Uint8Array(await Bun.file(path).slice(0, 16).arrayBuffer());
  return { path, type: imageType(head) ?? "application/octet-stream" };
}
