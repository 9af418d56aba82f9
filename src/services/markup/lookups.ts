/**
 * The references of a text looked up for its viewer, in one batch before the text is rendered:
 * which `@names` are accounts the viewer may see, which `#12` / `owner/repo#12` are issues or pull
 * requests of repositories the viewer may read them in, which commit ids are commits of the
 * rendering's repository (one pipelined `git cat-file` batch) and which `owner/repo@sha` exist
 * where the viewer may read code. Only those become links; the rest stays text, so a rendered page
 * never names what its viewer could not open.
 */
import type { Env } from "../env.ts";
import type { MarkupContext } from "./context.ts";
import type { LinkResolver } from "./links.ts";
import { getUserByName } from "../../models/user.ts";
import { getIssueByIndex } from "../../models/issue.ts";
import { canSeeOwner } from "../access/permission.ts";
import { gitDirOf, resolveRepo, type RepoContext } from "../repo/lookup.ts";
import { unitOf } from "../issue/lookup.ts";
import { resolveRevision } from "../../git/objects.ts";

/** At most this many different names of each kind are looked up per text; any more stay text. */
export const MAX_LOOKUPS = 100;

export interface RefQuery {
  /** Lowercased account names. */
  mentions: Set<string>;
  /** By `issueKey`. */
  issues: Map<string, { owner?: string; repo?: string; index: number }>;
  /** Commit ids (7 to 64 hex digits) in the rendering's repository. */
  commits: Set<string>;
  /** By `{repoKey}@{sha}`. */
  crossCommits: Map<string, { owner: string; repo: string; sha: string }>;
}

/** What exists, as the link each becomes (already resolved for the rendering). */
export interface FoundRefs {
  users: Map<string, string>;
  issues: Map<string, string>;
  commits: Map<string, string>;
  crossCommits: Map<string, string>;
}

export const repoKey = (owner: string, repo: string) => `${owner}/${repo}`.toLowerCase();
export const issueKey = (ref: { owner?: string; repo?: string; index: number }) =>
  `${ref.owner ? repoKey(ref.owner, ref.repo ?? "") : ""}#${ref.index}`;

const first = <T>(items: Iterable<T>): T[] => [...items].slice(0, MAX_LOOKUPS);

export async function lookUpRefs(env: Env, ctx: MarkupContext, links: LinkResolver, query: RefQuery): Promise<FoundRefs> {
  const found: FoundRefs = { users: new Map(), issues: new Map(), commits: new Map(), crossCommits: new Map() };
  const viewer = ctx.viewer;

  for (const name of first(query.mentions)) {
    const account = getUserByName(env.db, name);
    if (account && canSeeOwner(env, account, viewer)) found.users.set(name, links.app(encodeURIComponent(account.name)));
  }

  // Repositories named by references, each resolved once for the viewer (undefined: not visible).
  const repos = new Map<string, RepoContext | undefined>();
  if (ctx.repo) repos.set(repoKey(ctx.repo.owner.name, ctx.repo.repo.name), ctx.repo);
  const repoFor = (owner: string, name: string): RepoContext | undefined => {
    const key = repoKey(owner, name);
    if (!repos.has(key)) {
      let rc: RepoContext | undefined;
      try {
        rc = resolveRepo(env, viewer, owner, name);
      } catch {
        rc = undefined; // missing, moved or not visible: all alike
      }
      repos.set(key, rc);
    }
    return repos.get(key);
  };
  const repoLink = (rc: RepoContext) => `${encodeURIComponent(rc.owner.name)}/${encodeURIComponent(rc.repo.name)}`;

  for (const [key, ref] of first(query.issues)) {
    const rc = ref.owner ? repoFor(ref.owner, ref.repo ?? "") : ctx.repo;
    if (!rc) continue;
    const issue = getIssueByIndex(env.db, rc.repo.id, ref.index);
    if (!issue || !rc.perm.canRead(unitOf(issue))) continue;
    found.issues.set(key, links.app(`${repoLink(rc)}/${issue.isPull ? "pulls" : "issues"}/${ref.index}`));
  }

  const checks: Promise<void>[] = [];
  const commitIn = (rc: RepoContext, sha: string, into: Map<string, string>, key: string) => {
    if (!rc.perm.canRead("code")) return;
    const gitDir = gitDirOf(env, rc.owner, rc.repo);
    checks.push(
      resolveRevision(gitDir, sha, "commit").then(
        (oid) => {
          // Only a commit id, never a branch or tag that happens to be spelt in hex.
          if (oid?.startsWith(sha)) into.set(key, links.app(`${repoLink(rc)}/commit/${oid}`));
        },
        () => undefined,
      ),
    );
  };
  if (ctx.repo) for (const sha of first(query.commits)) commitIn(ctx.repo, sha, found.commits, sha);
  for (const [key, ref] of first(query.crossCommits)) {
    const rc = repoFor(ref.owner, ref.repo);
    if (rc) commitIn(rc, ref.sha, found.crossCommits, key);
  }
  await Promise.all(checks);
  return found;
}
