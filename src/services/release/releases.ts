import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { AttachmentRow, ReleaseRow, UserRow } from "../../db/schema/index.ts";
import * as releases from "../../models/release.ts";
import * as users from "../../models/user.ts";
import { Conflict, Invalid, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { ghostUser } from "../user/profile.ts";
import { removeAttachmentFiles } from "../issue/attachments.ts";
import { gitDirOf, type RepoContext } from "../repo/lookup.ts";
import { canSeeDrafts } from "./access.ts";
import { publishTag, tagExists, validateTagName } from "./tag.ts";
import { releaseEvents } from "../events/release-events.ts";
import type { Writes } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";

/** What the Release JSON shows: the row, its publisher (the ghost when gone) and its assets. */
export interface ReleaseView {
  release: ReleaseRow;
  publisher: UserRow;
  assets: AttachmentRow[];
}

function views(env: Env, rows: ReleaseRow[]): ReleaseView[] {
  const people = new Map(users.getUsersByIds(env.db, [...new Set(rows.map((r) => r.publisherId))]).map((u) => [u.id, u]));
  const assets = releases.attachmentsOfReleases(env.db, rows.map((r) => r.id));
  return rows.map((release) => ({
    release,
    publisher: people.get(release.publisherId) ?? ghostUser(),
    assets: assets.get(release.id) ?? [],
  }));
}

export function viewOf(env: Env, row: ReleaseRow): ReleaseView {
  return views(env, [row])[0]!;
}

/** A row the doer may see as a release: not a bare tag, and not a draft unless they may write releases. */
function visible(rc: RepoContext, row: ReleaseRow | undefined): ReleaseRow {
  if (!row || row.isTag || (row.isDraft && !canSeeDrafts(rc))) throw new NotFound();
  return row;
}

/** `{id}` in a path: a release of this repository the doer may see, else 404. */
export function releaseFromPath(env: Env, rc: RepoContext, id: string): ReleaseRow {
  const row = /^\d{1,15}$/.test(id) ? releases.getRelease(env.db, rc.repo.id, Number(id)) : undefined;
  return visible(rc, row);
}

/** `{tag}` in a path: the release of that tag (case-insensitive, as Gitea). */
export function releaseByTag(env: Env, rc: RepoContext, tag: string): ReleaseRow {
  return visible(rc, releases.getReleaseByTag(env.db, rc.repo.id, tag));
}

export interface ListReleasesQuery {
  draft?: boolean;
  prerelease?: boolean;
}

/** GET /releases: newest first; drafts only for release writers, whatever the `draft` filter says. */
export function listReleases(
  env: Env,
  rc: RepoContext,
  q: ListReleasesQuery,
  page: { offset: number; limit: number },
): { items: ReleaseView[]; total: number } {
  const { rows, total } = releases.listReleases(
    env.db,
    rc.repo.id,
    { includeDrafts: canSeeDrafts(rc), isDraft: q.draft, isPrerelease: q.prerelease },
    page,
  );
  return { items: views(env, rows), total };
}

/** GET /releases/latest: Gitea's GetLatestReleaseByRepoID (neither draft nor prerelease), else 404. */
export function latestRelease(env: Env, rc: RepoContext): ReleaseView {
  const row = releases.latestRelease(env.db, rc.repo.id);
  if (!row) throw new NotFound();
  return viewOf(env, row);
}

/** Gitea's EllipsisDisplayString(title, 255). */
function ellipsis(s: string, max: number): string {
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join("")}…`;
}

const alreadyExists = (tag: string) => new Conflict(`release tag already exist [tag_name: ${tag}]`);

/** A unique-index failure: another release or tag row took the name meanwhile. */
function isUniqueViolation(err: unknown): boolean {
  return err instanceof Error && /UNIQUE constraint failed/.test(err.message);
}

export interface CreateReleaseInput {
  tagName: string;
  target: string;
  title: string;
  note: string;
  draft: boolean;
  prerelease: boolean;
  tagMessage: string;
}

/**
 * POST /releases (Gitea's CreateRelease). A published release creates its tag from `target`
 * (default: the default branch) when the tag does not exist; a draft creates no tag. A name
 * that already has a release is 409; a name known only as a bare tag becomes a release.
 */
export async function createRelease(env: Env, rc: Writes<"releases">, doer: Doer, input: CreateReleaseInput): Promise<ReleaseView> {
  if (rc.repo.isEmpty) throw new Invalid("repo is empty");
  const existing = releases.getReleaseByTag(env.db, rc.repo.id, input.tagName);
  // Gitea's message for this case, verbatim.
  if (existing && !existing.isTag) throw new Conflict("Release is has no Tag");
  await validateTagName(input.tagName);
  // Converting a bare tag keeps Gitea's rule: the target is what the caller sent, even empty.
  const target = existing ? input.target : input.target || rc.repo.defaultBranch;
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const tagged = input.draft ? undefined : await publishTag(env, rc.repo.id, gitDir, doer, { name: input.tagName, target, message: input.tagMessage });
  const now = nowUnix();
  const fields = {
    publisherId: doer.id,
    target,
    title: ellipsis(input.title, 255),
    note: input.note,
    isDraft: input.draft,
    isPrerelease: input.prerelease,
    isTag: false,
    ...(tagged ? { sha1: tagged.sha1, numCommits: tagged.numCommits } : {}),
  };
  try {
    const row = writeTx(env.db, (tx) => {
      const again = releases.getReleaseByTag(tx, rc.repo.id, input.tagName);
      if (again && !again.isTag) throw new Conflict("Release is has no Tag");
      const saved = again
        ? releases.updateRelease(tx, again.id, { ...fields, ...(input.draft || tagged?.created ? { createdUnix: now } : {}) })!
        : releases.insertRelease(tx, {
            ...fields,
            repoId: rc.repo.id,
            tagName: input.tagName,
            lowerTagName: input.tagName.toLowerCase(),
            createdUnix: now,
          });
      releases.recountReleases(tx, rc.repo.id);
      if (!saved.isDraft) releaseEvents.emit(tx, env, { kind: "published", release: saved, repo: rc.repo, owner: rc.owner, doer });
      return saved;
    });
    return viewOf(env, row);
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists(input.tagName);
    throw err;
  }
}

export interface EditReleaseInput {
  tagName?: string | null;
  target?: string | null;
  title?: string | null;
  note?: string | null;
  draft?: boolean | null;
  prerelease?: boolean | null;
}

/**
 * PATCH /releases/{id} (Gitea's EditRelease): empty strings and absent fields leave a value as it
 * is. Publishing creates the tag when it does not exist; a draft's creation time follows its last
 * edit, as in Gitea. Renaming onto another release's tag is 409 (Gitea fails on the unique index).
 */
export async function editRelease(env: Env, rc: Writes<"releases">, doer: Doer, rel: ReleaseRow, input: EditReleaseInput): Promise<ReleaseView> {
  const tagName = input.tagName || rel.tagName;
  const target = input.target || rel.target;
  const draft = input.draft ?? rel.isDraft;
  if (tagName.toLowerCase() !== rel.lowerTagName) {
    if (releases.getReleaseByTag(env.db, rc.repo.id, tagName)) throw alreadyExists(tagName);
    await validateTagName(tagName);
  }
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const tagged = draft ? undefined : await publishTag(env, rc.repo.id, gitDir, doer, { name: tagName, target, message: "" });
  const patch = {
    tagName,
    lowerTagName: tagName.toLowerCase(),
    target,
    title: input.title ? ellipsis(input.title, 255) : rel.title,
    note: input.note || rel.note,
    isDraft: draft,
    isPrerelease: input.prerelease ?? rel.isPrerelease,
    ...(tagged ? { sha1: tagged.sha1, numCommits: tagged.numCommits } : {}),
    ...(draft || tagged?.created ? { createdUnix: nowUnix() } : {}),
  };
  try {
    const row = writeTx(env.db, (tx) => {
      const saved = releases.updateRelease(tx, rel.id, patch);
      if (!saved) throw new NotFound();
      releases.recountReleases(tx, rc.repo.id);
      // Gitea: a release whose tag this edit created is published now; any other published one updated.
      if (!saved.isDraft) releaseEvents.emit(tx, env, { kind: tagged?.created ? "published" : "updated", release: saved, repo: rc.repo, owner: rc.owner, doer });
      return saved;
    });
    return viewOf(env, row);
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists(tagName);
    throw err;
  }
}

/**
 * DELETE /releases/{id} and /releases/tags/{tag} (Gitea's DeleteReleaseByID without the tag): the
 * tag stays and the row goes back to being a bare tag; the assets are deleted. A release whose tag
 * does not exist in git (a draft never published) has nothing to go back to and is removed (Gitea
 * would keep a bare-tag row for a tag that does not exist).
 */
export async function deleteRelease(env: Env, rc: Writes<"releases">, rel: ReleaseRow, doer: Doer): Promise<void> {
  const keepTag = await tagExists(gitDirOf(env, rc.owner, rc.repo), rel.tagName);
  const gone = writeTx(env.db, (tx) => {
    if (keepTag) releases.updateRelease(tx, rel.id, { isTag: true });
    else releases.deleteReleaseRow(tx, rel.id);
    const assets = releases.deleteReleaseAttachmentRows(tx, rel.id);
    releases.recountReleases(tx, rc.repo.id);
    if (!rel.isDraft) releaseEvents.emit(tx, env, { kind: "deleted", release: rel, repo: rc.repo, owner: rc.owner, doer });
    return assets;
  });
  removeAttachmentFiles(env, gone);
}
