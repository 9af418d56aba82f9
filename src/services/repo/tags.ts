import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { gitNameOf } from "../user/git-identity.ts";
import { Conflict, HearthError, Invalid, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { GitError } from "../../git/exec.ts";
import { isSafeRevision, readCommits, resolveCommit, type CommitInfo } from "../../git/reflist.ts";
import { RefUpdateError, isValidRefName, isValidRefPattern, updateRefs } from "../../git/refs-write.ts";
import { createTag as gitCreateTag, listTags as gitListTags, readTagObject, tagNameBySha, type TagInfo, type TagObject } from "../../git/tags.ts";
import { gitDirOf, type RepoContext } from "./lookup.ts";
import { requireTagWithoutRelease, tagHasRelease, tagsDeleted } from "../release/tag-sync.ts";
import { requireTagControl } from "../protection/tag-rules.ts";
import { announceRefChanges } from "./push-events.ts";
import type { Writes } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";

export type { TagInfo } from "../../git/tags.ts";

const NOT_FOUND = "The target couldn't be found.";

/** A name that could be a tag: worth asking git about. */
const plausible = (name: string) => name.length > 0 && name.length <= 1024 && isSafeRevision(name) && isValidRefPattern(name);

/**
 * GET /tags: Gitea's order (`for-each-ref --sort=-*creatordate`), paged, then each page sorted
 * by tagger time, newest first, as Gitea's GetTagInfos does.
 */
export async function listTags(
  env: Env,
  rc: RepoContext,
  page: { offset: number; limit: number },
): Promise<{ items: TagInfo[]; total: number }> {
  const all = await gitListTags(gitDirOf(env, rc.owner, rc.repo));
  const items = all.slice(page.offset, page.offset + page.limit);
  items.sort((a, b) => (b.tagger?.unix ?? 0) - (a.tagger?.unix ?? 0));
  return { items, total: all.length };
}

/** GET /tags/{name}. */
export async function getTag(env: Env, rc: RepoContext, name: string): Promise<TagInfo> {
  const tag = plausible(name) ? (await gitListTags(gitDirOf(env, rc.owner, rc.repo), name))[0] : undefined;
  if (!tag) throw new NotFound(`tag doesn't exist: ${name}`);
  return tag;
}

export interface CreateTagInput {
  tagName: string;
  message?: string | null;
  target?: string | null;
}

/**
 * POST /tags: a tag at `target` (branch, tag or commit; default the default branch), annotated
 * with the doer as tagger when there is a message, else lightweight.
 */
export async function createTag(env: Env, rc: Writes<"code">, doer: Doer, input: CreateTagInput): Promise<TagInfo> {
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const target = input.target || rc.repo.defaultBranch;
  const commit = await resolveCommit(gitDir, target);
  if (!commit) throw new NotFound(`target not found: object does not exist [id: ${target}, rel_path: ]`);
  const name = input.tagName;
  if (!(await isValidRefName("refs/tags/", name))) throw new Invalid(`release tag name is not valid [tag_name: ${name}]`);
  if ((await gitListTags(gitDir, name)).length) throw new Conflict(`tag already exists [name: ${name}]`);
  // Gitea's IsReleaseExist: a draft release already claims the name.
  if (tagHasRelease(env, rc.repo.id, name)) throw new Conflict(`tag already exists [name: ${name}]`);
  requireTagControl(env, rc.repo.id, doer.id, name, "user not allowed to create protected tag");
  try {
    await gitCreateTag(gitDir, {
      name,
      commit,
      message: input.message ?? "",
      tagger: { name: gitNameOf(doer), email: doer.email, unix: nowUnix() },
    });
  } catch (err) {
    // Created meanwhile, or a clash between `a` and `a/b`: git refused, nothing was written.
    const clash =
      (err instanceof RefUpdateError && (err.kind === "exists" || err.kind === "conflict")) ||
      (err instanceof GitError && /already exists|exists; cannot create/.test(err.stderr));
    if (clash) throw new Conflict(`tag already exists [name: ${name}]`);
    throw err;
  }
  const [tag] = await gitListTags(gitDir, name);
  if (!tag) throw new HearthError(500, "tag was not created");
  writeTx(env.db, (tx) => announceRefChanges(tx, env, rc.repo.id, doer, [{ ref: `refs/tags/${name}`, old: "0".repeat(tag.id.length), new: tag.id }]));
  return tag;
}

/** DELETE /tags/{name}: removes the tag ref if it still points where it did. */
export async function deleteTag(env: Env, rc: Writes<"code">, doer: Doer, name: string): Promise<void> {
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const tag = plausible(name) ? (await gitListTags(gitDir, name))[0] : undefined;
  if (!tag) throw new NotFound(NOT_FOUND);
  requireTagWithoutRelease(env, rc.repo.id, name);
  requireTagControl(env, rc.repo.id, doer.id, name, "user not allowed to delete protected tag");
  try {
    await updateRefs(gitDir, [{ op: "delete", ref: `refs/tags/${name}`, old: tag.id }]);
  } catch (err) {
    if (err instanceof RefUpdateError && err.kind === "moved") throw new Conflict("the tag was updated while it was being deleted");
    throw err;
  }
  tagsDeleted(env, rc.repo.id, [name]);
  writeTx(env.db, (tx) => announceRefChanges(tx, env, rc.repo.id, doer, [{ ref: `refs/tags/${name}`, old: tag.id, new: "0".repeat(tag.id.length) }]));
}

export interface AnnotatedTagView {
  name: string;
  tag: TagObject;
  commit: CommitInfo;
}

/**
 * GET /git/tags/{sha}: an annotated tag object that some tag ref points at. Gitea answers every
 * failure here with 400 and the underlying error's text.
 */
export async function getAnnotatedTag(env: Env, rc: RepoContext, sha: string): Promise<AnnotatedTagView> {
  const bad = (message: string) => new HearthError(400, message);
  if (!sha) throw bad("SHA not provided");
  if (sha.length !== 40 && sha.length !== 64) throw bad(`length ${sha.length} has no matched object format: ${sha}`);
  const nonHex = /[^0-9a-fA-F]/.exec(sha);
  if (nonHex) {
    const cp = nonHex[0].codePointAt(0)!;
    throw bad(`encoding/hex: invalid byte: U+${cp.toString(16).toUpperCase().padStart(4, "0")} '${nonHex[0]}'`);
  }
  const id = sha.toLowerCase();
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const notExist = bad(`object does not exist [id: ${id}, rel_path: ]`);
  const tag = await readTagObject(gitDir, id);
  if (!tag) throw notExist;
  const name = await tagNameBySha(gitDir, id);
  if (name === undefined) throw notExist;
  const [commit] = await readCommits(gitDir, [id]);
  if (!commit) throw notExist;
  return { name, tag, commit };
}
