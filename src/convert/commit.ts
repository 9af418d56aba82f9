import type { Settings } from "../config/settings.ts";
import type { UserRow } from "../db/schema/index.ts";
import type { CommitView } from "../services/repo/commits.ts";
import type { BlobData, TreePage } from "../services/repo/objects.ts";
import { repoLinks } from "./repo.ts";
import { toAPIUser } from "./user.ts";
import type { APICommit, APIGitBlobResponse, APIGitTreeResponse } from "../shapes/commit.ts";

/** Go's zero time, what Gitea leaves in the `created` of a commit's parents. */
const GO_ZERO_TIME = "0001-01-01T00:00:00Z";

/**
 * A git time as Go's RFC 3339 renders it: in the signature's own offset, `Z` for a zero offset
 * (`2024-01-02T03:04:05+02:00`, `2024-01-02T01:04:05Z`).
 */
export function gitTime(sig: { unix: number; tz: string }): string {
  const m = /^([+-])(\d{2})(\d{2})$/.exec(sig.tz);
  const offsetMin = m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  const d = new Date((sig.unix + offsetMin * 60) * 1000);
  if (Number.isNaN(d.getTime())) return GO_ZERO_TIME;
  const base = d.toISOString().slice(0, 19);
  if (offsetMin === 0) return `${base}Z`;
  return `${base}${m![1]}${m![2]}:${m![3]}`;
}

/** The API and web addresses of a repository, as Gitea's APIURL/HTMLURL (no trailing slash). */
export interface RepoAddress {
  api: string;
  html: string;
}

export function repoAddress(settings: Settings, ownerName: string, repoName: string): RepoAddress {
  const links = repoLinks(settings, ownerName, repoName);
  return { api: links.url, html: links.html_url };
}

/** Gitea's convert.ToCommit. */
export function toAPICommit(settings: Settings, repo: RepoAddress, view: CommitView, doer: UserRow | undefined): APICommit {
  const c = view.commit;
  const sha = encodeURIComponent(c.oid);
  const url = `${repo.api}/git/commits/${sha}`;
  const created = gitTime(c.committer);
  return {
    url,
    sha: c.oid,
    created,
    html_url: `${repo.html}/commit/${sha}`,
    commit: {
      url,
      author: { name: c.author.name, email: c.author.email, date: gitTime(c.author) },
      committer: { name: c.committer.name, email: c.committer.email, date: gitTime(c.committer) },
      message: c.message,
      // Gitea's quirk, kept: the commit's own id stands in for the tree's.
      tree: { url: `${repo.api}/git/trees/${sha}`, sha: c.oid, created },
      verification: view.verification ? { ...view.verification, signer: null } : null,
    },
    author: view.author ? toAPIUser(settings, view.author, doer) : null,
    committer: view.committer ? toAPIUser(settings, view.committer, doer) : null,
    parents: c.parents.map((p) => ({
      url: `${repo.api}/git/commits/${encodeURIComponent(p)}`,
      sha: p,
      created: GO_ZERO_TIME,
    })),
    files: view.files
      ? [
          ...view.files.added.map((filename) => ({ filename, status: "added" })),
          ...view.files.removed.map((filename) => ({ filename, status: "removed" })),
          ...view.files.modified.map((filename) => ({ filename, status: "modified" })),
        ]
      : null,
    stats: view.stats
      ? { total: view.stats.additions + view.stats.deletions, additions: view.stats.additions, deletions: view.stats.deletions }
      : null,
  };
}

/** Gitea's GitTreeResponse. */
export function toAPITree(repo: RepoAddress, page: TreePage): APIGitTreeResponse {
  return {
    sha: page.sha,
    url: `${repo.api}/git/trees/${page.sha}`,
    tree:
      page.entries?.map((e) => ({
        path: e.path,
        mode: e.mode,
        type: e.type,
        size: e.size,
        sha: e.oid,
        // A submodule has no URL (GitHub's 2022-11-28 API, which Gitea follows).
        url: e.type === "tree" ? `${repo.api}/git/trees/${e.oid}` : e.type === "commit" ? "" : `${repo.api}/git/blobs/${e.oid}`,
      })) ?? null,
    truncated: page.truncated,
    page: page.page,
    total_count: page.totalCount,
  };
}

/** Gitea's GitBlobResponse: `lfs_oid`/`lfs_size` only for an LFS pointer. */
export function toAPIBlob(repo: RepoAddress, blob: BlobData): APIGitBlobResponse {
  return {
    content: blob.content ? blob.content.toString("base64") : null,
    encoding: blob.content ? "base64" : null,
    url: `${repo.api}/git/blobs/${encodeURIComponent(blob.sha)}`,
    sha: blob.sha,
    size: blob.size,
    ...(blob.lfs ? { lfs_oid: blob.lfs.oid, lfs_size: blob.lfs.size } : {}),
  };
}
