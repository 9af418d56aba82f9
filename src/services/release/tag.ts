import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import { gitNameOf } from "../user/git-identity.ts";
import type { UserRow } from "../../db/schema/index.ts";
import { Conflict, HearthError, Invalid, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { GitError } from "../../git/exec.ts";
import { countCommits } from "../../git/log.ts";
import { resolveCommit } from "../../git/reflist.ts";
import { RefUpdateError, isValidRefName } from "../../git/refs-write.ts";
import { createTag, listTags } from "../../git/tags.ts";
import { requireTagControl } from "../protection/tag-rules.ts";
import { resolveRevision } from "../../git/objects.ts";
import { announceRefChanges } from "../repo/push-events.ts";

/**
 * Gitea's ErrInvalidTagName, which it answers with a 500 when git refuses the name; a caller can fix
 * the name, so hearth answers 422 with Gitea's message, and checks it before anything is written.
 */
export async function validateTagName(name: string): Promise<void> {
  if (!(await isValidRefName("refs/tags/", name))) throw new Invalid(`release tag name is not valid [tag_name: ${name}]`);
}

export async function tagExists(gitDir: string, name: string): Promise<boolean> {
  return (await listTags(gitDir, name)).length > 0;
}

export interface PublishedTag {
  /** The commit the tag leads to (Gitea's Release.Sha1). */
  sha1: string;
  /** Commits reachable from it (Gitea's NumCommits). */
  numCommits: number;
  /** Whether the tag was created now. */
  created: boolean;
}

/**
 * Gitea's createTag for a release being published: when the tag does not exist it is created at
 * `target` (a branch, tag or commit; 404 when it names nothing), annotated with the doer as tagger
 * when there is a message; then the tag's commit is read. Creating a protected tag needs the doer on
 * its allow-list (Gitea's ErrProtectedTagName; Gitea checks the release's publisher, which is the
 * doer except when someone else publishes a draft, where hearth checks who publishes).
 */
export async function publishTag(
  env: Env,
  repoId: number,
  gitDir: string,
  doer: UserRow,
  input: { name: string; target: string; message: string },
): Promise<PublishedTag> {
  let created = false;
  if (!(await tagExists(gitDir, input.name))) {
    requireTagControl(env, repoId, doer.id, input.name, `release tag name is protected [tag_name: ${input.name}]`);
    const commit = input.target ? await resolveCommit(gitDir, input.target) : undefined;
    if (!commit) throw new NotFound(`target "${input.target}" not found: object does not exist [id: ${input.target}, rel_path: ]`);
    try {
      await createTag(gitDir, {
        name: input.name,
        commit,
        message: input.message,
        tagger: { name: gitNameOf(doer), email: doer.email, unix: nowUnix() },
      });
      created = true;
    } catch (err) {
      // Created by someone else meanwhile (then it is used as it is), or a clash between `a` and `a/b`.
      const exists = err instanceof RefUpdateError && err.kind === "exists";
      const clash =
        (err instanceof RefUpdateError && err.kind === "conflict") || (err instanceof GitError && /exists; cannot create/.test(err.stderr));
      if (clash) throw new Conflict(`tag already exists [name: ${input.name}]`);
      if (!exists && !(err instanceof GitError && /already exists/.test(err.stderr))) throw err;
    }
  }
  const sha1 = await resolveCommit(gitDir, `refs/tags/${input.name}`);
  if (!sha1) throw new HearthError(500, `GetTagCommit: tag ${input.name} does not lead to a commit`);
  if (created) {
    // Gitea announces the new tag as a push of it (push and create events).
    const tagId = (await resolveRevision(gitDir, `refs/tags/${input.name}`)) ?? sha1;
    writeTx(env.db, (tx) => announceRefChanges(tx, env, repoId, doer, [{ ref: `refs/tags/${input.name}`, old: "0".repeat(tagId.length), new: tagId }]));
  }
  return { sha1, numCommits: await countCommits(gitDir, { from: [sha1] }), created };
}
