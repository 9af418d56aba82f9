import type { Env } from "../env.ts";
import { NotFound } from "../../lib/errors.ts";
import { isSafeRevision, resolveRevision } from "../../git/objects.ts";
import { gitDirOf, type RepoContext } from "../repo/lookup.ts";

const notFound = (ref: string) => new NotFound(`object does not exist [id: ${ref}, rel_path: ]`);

/**
 * What `POST /statuses/{sha}` stores against: Gitea's GetCommit of the input (a full or
 * abbreviated commit id, or any name git resolves), always as the full commit id. An input that
 * names no commit is 404 (Gitea answers 500 there).
 */
export async function commitOfStatusInput(env: Env, rc: RepoContext, input: string): Promise<string> {
  if (!input || !isSafeRevision(input) || input.startsWith("-")) throw notFound(input);
  const sha = await resolveRevision(gitDirOf(env, rc.owner, rc.repo), input, "commit");
  if (!sha) throw notFound(input);
  return sha;
}

/**
 * Gitea's ResolveRefCommit for the `/commits/{ref}/...` endpoints: a branch, then a tag (short or
 * full ref names), then a commit id of at least 7 hex digits; anything else is 404.
 */
export async function commitOfRef(env: Env, rc: RepoContext, ref: string): Promise<string> {
  if (!ref || !isSafeRevision(ref) || ref.startsWith("-")) throw notFound(ref);
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const candidates = ref.startsWith("refs/heads/") || ref.startsWith("refs/tags/") ? [ref] : [`refs/heads/${ref}`, `refs/tags/${ref}`];
  for (const name of candidates) {
    const sha = await resolveRevision(gitDir, name, "commit");
    if (sha) return sha;
  }
  if (/^[0-9a-f]{7,64}$/.test(ref)) {
    const sha = await resolveRevision(gitDir, ref, "commit");
    if (sha?.startsWith(ref)) return sha;
  }
  throw notFound(ref);
}
