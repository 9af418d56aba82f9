import * as v from "valibot";
import { named } from "./registry.ts";
import { intQuery } from "./common.ts";
import { User } from "./user.ts";

// Commits, trees, blobs, notes, compare, languages and editorconfig: Gitea 1.25's shapes.

export const CommitUser = named("CommitUser", v.object({ name: v.string(), email: v.string(), date: v.string() }));

export const CommitMeta = named("CommitMeta", v.object({ url: v.string(), sha: v.string(), created: v.string() }));

export const PayloadUser = named("PayloadUser", v.object({ name: v.string(), email: v.string(), username: v.string() }));

export const PayloadCommitVerification = named(
  "PayloadCommitVerification",
  v.object({
    verified: v.boolean(),
    reason: v.string(),
    signature: v.string(),
    signer: v.nullable(PayloadUser),
    payload: v.string(),
  }),
);

export const RepoCommit = named(
  "RepoCommit",
  v.object({
    url: v.string(),
    author: CommitUser,
    committer: CommitUser,
    message: v.string(),
    tree: CommitMeta,
    verification: v.nullable(PayloadCommitVerification),
  }),
);

export const CommitAffectedFiles = named("CommitAffectedFiles", v.object({ filename: v.string(), status: v.string() }));

export const CommitStats = named("CommitStats", v.object({ total: v.number(), additions: v.number(), deletions: v.number() }));

export const Commit = named(
  "Commit",
  v.object({
    url: v.string(),
    sha: v.string(),
    created: v.string(),
    html_url: v.string(),
    commit: RepoCommit,
    author: v.nullable(User),
    committer: v.nullable(User),
    parents: v.array(CommitMeta),
    files: v.nullable(v.array(CommitAffectedFiles)),
    stats: v.nullable(CommitStats),
  }),
);

export const CommitList = v.array(Commit);

export const Compare = named("Compare", v.object({ total_commits: v.number(), commits: v.array(Commit) }));

export const Note = named("Note", v.object({ message: v.string(), commit: Commit }));

export const GitEntry = named(
  "GitEntry",
  v.object({ path: v.string(), mode: v.string(), type: v.string(), size: v.number(), sha: v.string(), url: v.string() }),
);

export const GitTreeResponse = named(
  "GitTreeResponse",
  v.object({
    sha: v.string(),
    url: v.string(),
    tree: v.nullable(v.array(GitEntry)),
    truncated: v.boolean(),
    page: v.number(),
    total_count: v.number(),
  }),
);

export const GitBlobResponse = named(
  "GitBlobResponse",
  v.object({
    content: v.nullable(v.string()),
    encoding: v.nullable(v.string()),
    url: v.string(),
    sha: v.string(),
    size: v.number(),
    lfs_oid: v.optional(v.string()),
    lfs_size: v.optional(v.number()),
  }),
);

/** `{ "Go": 12345 }`: bytes per language (the swagger's LanguageStatistics response). */
export const LanguageStatistics = v.record(v.string(), v.number());

/** editorconfig-core-go's Definition as Gitea serves it: the four fields, each omitted when unset. */
export const EditorConfigDefinition = v.object({
  charset: v.optional(v.string()),
  indent_style: v.optional(v.string()),
  indent_size: v.optional(v.string()),
  end_of_line: v.optional(v.string()),
});

// Query strings. Gitea reads booleans with strconv.ParseBool and integers with Atoi, falling back
// to the default on anything else: nothing here rejects a value.
const boolQuery = v.pipe(v.string(), v.metadata({ format: "boolean" }));

/** `stat`, `verification`, `files`: absent or empty means true (Gitea's ParseCommitOptions). */
export const CommitOptionsQuery = v.object({
  stat: v.optional(boolQuery),
  verification: v.optional(boolQuery),
  files: v.optional(boolQuery),
});

export const CommitListQuery = v.object({
  sha: v.optional(v.string()),
  path: v.optional(v.string()),
  since: v.optional(v.pipe(v.string(), v.metadata({ format: "date-time" }))),
  until: v.optional(v.pipe(v.string(), v.metadata({ format: "date-time" }))),
  not: v.optional(v.string()),
  stat: v.optional(boolQuery),
  verification: v.optional(boolQuery),
  files: v.optional(boolQuery),
  page: v.optional(intQuery),
  limit: v.optional(intQuery),
});

export const NoteQuery = v.object({ verification: v.optional(boolQuery), files: v.optional(boolQuery) });

export const TreeQuery = v.object({
  recursive: v.optional(boolQuery),
  page: v.optional(intQuery),
  per_page: v.optional(intQuery),
});

export const RefQuery = v.object({ ref: v.optional(v.string()) });

/** Go's strconv.ParseBool; anything else is false, as ctx.FormBool reads it. */
export function parseGoBool(value: string | undefined): boolean {
  return value !== undefined && ["1", "t", "T", "TRUE", "true", "True"].includes(value);
}

/** Gitea's `FormString(x) == "" || FormBool(x)`: on unless given and not true. */
export function optionOn(value: string | undefined): boolean {
  return value === undefined || value === "" || parseGoBool(value);
}

/** Go's strconv.Atoi as ctx.FormInt uses it: 0 for anything that is not an integer. */
export function parseGoInt(value: string | undefined): number {
  if (value === undefined || !/^[+-]?\d{1,15}$/.test(value)) return 0;
  return Number(value);
}

export type APICommit = v.InferOutput<typeof Commit>;
export type APIGitTreeResponse = v.InferOutput<typeof GitTreeResponse>;
export type APIGitEntry = v.InferOutput<typeof GitEntry>;
export type APIGitBlobResponse = v.InferOutput<typeof GitBlobResponse>;
