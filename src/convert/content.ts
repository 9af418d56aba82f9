import type { Settings } from "../config/settings.ts";
import type { CommitInfo, EntryView, RefCommit } from "../services/repo/contents.ts";
import type { APIContentsResponse, APIFileCommitResponse, APIFileDeleteResponse, APIFileResponse, APIFilesResponse } from "../shapes/content.ts";
import type { APIPayloadCommitVerification } from "../shapes/branch.ts";

/** The repository a content belongs to, by the names its URLs use. */
export interface RepoNames {
  owner: string;
  name: string;
}

const GO_ZERO_TIME = "0001-01-01T00:00:00Z";

/** Go's url.PathEscape: unreserved characters and `$&+,:;=@` stay, everything else is %XX. */
export function goPathEscape(s: string): string {
  let out = "";
  for (const byte of Buffer.from(s, "utf8")) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~$&+,:;=@]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Gitea's util.PathEscapeSegments: each `/`-separated segment path-escaped. */
export const pathEscapeSegments = (p: string) => p.split("/").map(goPathEscape).join("/");

/** Go's url.QueryEscape: spaces as `+`, only unreserved characters kept. */
export function goQueryEscape(s: string): string {
  let out = "";
  for (const byte of Buffer.from(s, "utf8")) {
    const c = String.fromCharCode(byte);
    if (c === " ") out += "+";
    else out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

export function repoApiUrl(settings: Settings, r: RepoNames): string {
  return `${settings.server.rootUrl}api/v1/repos/${goPathEscape(r.owner)}/${goPathEscape(r.name)}`;
}

export function repoHtmlUrl(settings: Settings, r: RepoNames): string {
  return `${settings.server.rootUrl}${goPathEscape(r.owner)}/${goPathEscape(r.name)}`;
}

/** Gitea's RefName.RefWebLinkPath: `branch/x`, `tag/x` or `commit/sha`. */
function refWebLinkPath(ref: RefCommit): string {
  if (ref.kind === "commit") return `commit/${ref.commitId}`;
  return `${ref.kind}/${pathEscapeSegments(ref.name)}`;
}

/** A git ISO date (`%aI`) as Go renders time.Time: a zero offset is `Z`. */
function goTime(iso: string): string {
  return iso.replace(/[+-]00:00$/, "Z");
}

/** Unix seconds as RFC 3339 in UTC (FileCommitResponse's dates). */
function utc(unix: number): string {
  return new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Gitea's ContentsResponse for one entry (files, directories, symlinks, submodules). */
export function toContentsResponse(settings: Settings, repo: RepoNames, ref: RefCommit, v: EntryView): APIContentsResponse {
  const api = repoApiUrl(settings, repo);
  const html = repoHtmlUrl(settings, repo);
  const escaped = pathEscapeSegments(v.path);
  const self = `${api}/contents/${escaped}?ref=${goQueryEscape(ref.inputRef)}`;
  const isBlob = v.kind === "file" || v.kind === "symlink";
  const htmlUrl = v.kind === "submodule" ? null : `${html}/src/${refWebLinkPath(ref)}/${escaped}`;
  const gitUrl = v.kind === "submodule" ? null : `${api}/git/blobs/${goPathEscape(v.sha)}`;
  return {
    name: v.name,
    path: v.path,
    sha: v.sha,
    ...(v.lastCommit
      ? {
          last_commit_sha: v.lastCommit.oid,
          last_committer_date: goTime(v.lastCommit.committerDate),
          last_author_date: goTime(v.lastCommit.authorDate),
        }
      : {}),
    type: v.kind,
    size: v.size,
    encoding: typeof v.content === "string" ? "base64" : null,
    content: typeof v.content === "string" ? v.content : null,
    target: v.target ?? null,
    url: self,
    html_url: htmlUrl,
    git_url: gitUrl,
    download_url: isBlob ? `${html}/raw/${refWebLinkPath(ref)}/${escaped}` : null,
    submodule_git_url: v.submoduleUrl ?? null,
    _links: { self, git: gitUrl, html: htmlUrl },
    ...(v.lfs ? { lfs_oid: v.lfs.oid, lfs_size: v.lfs.size } : {}),
  };
}

/** Gitea's GetFileCommitResponse: the real tree, UTC dates, `created` never set. */
export function toFileCommitResponse(settings: Settings, repo: RepoNames, c: CommitInfo): APIFileCommitResponse {
  const api = repoApiUrl(settings, repo);
  return {
    url: `${api}/git/commits/${c.oid}`,
    sha: c.oid,
    created: GO_ZERO_TIME,
    html_url: `${repoHtmlUrl(settings, repo)}/commit/${c.oid}`,
    author: { name: c.author.name, email: c.author.email, date: utc(c.author.unix) },
    committer: { name: c.committer.name, email: c.committer.email, date: utc(c.committer.unix) },
    parents: c.parents.map((p) => ({ url: `${api}/git/commits/${p}`, sha: p, created: GO_ZERO_TIME })),
    message: c.message,
    tree: { url: `${api}/git/trees/${c.tree}`, sha: c.tree, created: GO_ZERO_TIME },
  };
}

/** hearth does not sign commits: every commit it makes is reported as Gitea reports unsigned ones. */
export function unsignedVerification(): APIPayloadCommitVerification {
  return { verified: false, reason: "gpg.error.not_signed_commit", signature: "", signer: null, payload: "" };
}

export interface ChangeResult {
  ref: RefCommit;
  commit: CommitInfo;
  files: (EntryView | null)[];
}

/** FilesResponse: every changed path in request order, null for deleted ones. */
export function toFilesResponse(settings: Settings, repo: RepoNames, r: ChangeResult): APIFilesResponse {
  return {
    files: r.files.map((f) => (f ? toContentsResponse(settings, repo, r.ref, f) : null)),
    commit: toFileCommitResponse(settings, repo, r.commit),
    verification: unsignedVerification(),
  };
}

/** FileResponse: the created or updated file. */
export function toFileResponse(settings: Settings, repo: RepoNames, r: ChangeResult): APIFileResponse {
  const first = r.files[0];
  return {
    content: first ? toContentsResponse(settings, repo, r.ref, first) : null,
    commit: toFileCommitResponse(settings, repo, r.commit),
    verification: unsignedVerification(),
  };
}

/** FileDeleteResponse: the commit that deleted the file (`content` is always null). */
export function toFileDeleteResponse(settings: Settings, repo: RepoNames, r: ChangeResult): APIFileDeleteResponse {
  return {
    content: null,
    commit: toFileCommitResponse(settings, repo, r.commit),
    verification: unsignedVerification(),
  };
}
