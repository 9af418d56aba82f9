import * as v from "valibot";
import { named } from "./registry.ts";
import { maxString, opt } from "./common.ts";

// ---- Responses ------------------------------------------------------------------------------

const nullableString = v.nullable(v.string());

export const FileLinksResponse = named(
  "FileLinksResponse",
  v.object({ self: nullableString, git: nullableString, html: nullableString }),
);

export const ContentsResponse = named(
  "ContentsResponse",
  v.object({
    name: v.string(),
    path: v.string(),
    sha: v.string(),
    last_commit_sha: v.optional(v.string()),
    last_committer_date: v.optional(v.string()),
    last_author_date: v.optional(v.string()),
    last_commit_message: v.optional(v.string()),
    type: v.picklist(["file", "dir", "symlink", "submodule"]),
    size: v.number(),
    encoding: nullableString,
    content: nullableString,
    target: nullableString,
    url: nullableString,
    html_url: nullableString,
    git_url: nullableString,
    download_url: nullableString,
    submodule_git_url: nullableString,
    _links: FileLinksResponse,
    lfs_oid: v.optional(v.string()),
    lfs_size: v.optional(v.number()),
  }),
);

// CommitMeta, CommitUser and PayloadCommitVerification are Gitea components shared with the
// commits API; they stay unnamed here so two declarations cannot collide in the registry.
const CommitMetaShape = v.object({ url: v.string(), sha: v.string(), created: v.string() });
const CommitUserShape = v.object({ name: v.string(), email: v.string(), date: v.string() });
const VerificationShape = v.object({
  verified: v.boolean(),
  reason: v.string(),
  signature: v.string(),
  signer: v.nullable(v.object({ name: v.string(), email: v.string(), username: v.string() })),
  payload: v.string(),
});

export const FileCommitResponse = named(
  "FileCommitResponse",
  v.object({
    url: v.string(),
    sha: v.string(),
    created: v.string(),
    html_url: v.string(),
    author: CommitUserShape,
    committer: CommitUserShape,
    parents: v.array(CommitMetaShape),
    message: v.string(),
    tree: CommitMetaShape,
  }),
);

export const FileResponse = named(
  "FileResponse",
  v.object({ content: v.nullable(ContentsResponse), commit: FileCommitResponse, verification: VerificationShape }),
);

export const FilesResponse = named(
  "FilesResponse",
  v.object({ files: v.array(v.nullable(ContentsResponse)), commit: FileCommitResponse, verification: VerificationShape }),
);

export const FileDeleteResponse = named(
  "FileDeleteResponse",
  v.object({ content: v.null(), commit: FileCommitResponse, verification: VerificationShape }),
);

// ---- Requests -------------------------------------------------------------------------------
// Fields Gitea binds as Required are checked by the handlers, which report them under Gitea's Go
// field names (`[ContentBase64]: Required`, `[SHA]: Required`); so are branch names (GitRefName).

const Identity = v.object({ name: opt(maxString(100)), email: opt(maxString(254)) });
const CommitDateOptions = v.object({ author: opt(v.string()), committer: opt(v.string()) });

const fileOptions = {
  message: opt(v.string()),
  branch: opt(v.string()),
  new_branch: opt(v.string()),
  author: opt(Identity),
  committer: opt(Identity),
  dates: opt(CommitDateOptions),
  signoff: opt(v.boolean()),
  force_push: opt(v.boolean()),
};

export const CreateFileOptions = named("CreateFileOptions", v.object({ ...fileOptions, content: opt(v.string()) }));

export const UpdateFileOptions = named(
  "UpdateFileOptions",
  v.object({ ...fileOptions, content: opt(v.string()), sha: opt(v.string()), from_path: opt(v.string()) }),
);

export const DeleteFileOptions = named("DeleteFileOptions", v.object({ ...fileOptions, sha: opt(v.string()) }));

export const ChangeFileOperation = named(
  "ChangeFileOperation",
  v.object({
    operation: v.picklist(["create", "update", "upload", "rename", "delete"], "In"),
    path: v.pipe(v.string(), v.nonEmpty("Required"), v.maxLength(500, "MaxSize")),
    content: opt(v.string()),
    sha: opt(v.string()),
    from_path: opt(maxString(500)),
  }),
);

export const ChangeFilesOptions = named(
  "ChangeFilesOptions",
  v.object({ ...fileOptions, files: v.pipe(v.array(ChangeFileOperation), v.minLength(1, "Required")) }),
);

/** `{owner}/{repo}/.../*`: Gitea's `{filepath}` may hold slashes, so it is the route's wildcard. */
export const RepoFileParams = v.object({ owner: v.string(), repo: v.string(), "*": v.string() });
export const RefQuery = v.object({ ref: v.optional(v.string()) });

export type APIContentsResponse = v.InferOutput<typeof ContentsResponse>;
export type APIFileCommitResponse = v.InferOutput<typeof FileCommitResponse>;
export type APIFileResponse = v.InferOutput<typeof FileResponse>;
export type APIFilesResponse = v.InferOutput<typeof FilesResponse>;
export type APIFileDeleteResponse = v.InferOutput<typeof FileDeleteResponse>;
