import * as v from "valibot";
import { named } from "./registry.ts";
import { opt } from "./common.ts";

/**
 * Branches, tags and refs. CommitUser, CommitMeta, PayloadUser and PayloadCommitVerification are
 * shared with the commit endpoints, so they stay inline here (a second `named` declaration of
 * the same name would clash); they can become named components once one module owns them.
 */

const PayloadUser = v.object({ name: v.string(), email: v.string(), username: v.string() });

export const PayloadCommitVerification = v.object({
  verified: v.boolean(),
  reason: v.string(),
  signature: v.string(),
  signer: v.nullable(PayloadUser),
  payload: v.string(),
});

export const PayloadCommit = named(
  "PayloadCommit",
  v.object({
    id: v.string(),
    message: v.string(),
    url: v.string(),
    author: PayloadUser,
    committer: PayloadUser,
    verification: v.nullable(PayloadCommitVerification),
    timestamp: v.string(),
    added: v.nullable(v.array(v.string())),
    removed: v.nullable(v.array(v.string())),
    modified: v.nullable(v.array(v.string())),
  }),
);

export const Branch = named(
  "Branch",
  v.object({
    name: v.string(),
    commit: PayloadCommit,
    protected: v.boolean(),
    required_approvals: v.number(),
    enable_status_check: v.boolean(),
    status_check_contexts: v.array(v.string()),
    user_can_push: v.boolean(),
    user_can_merge: v.boolean(),
    effective_branch_protection_name: v.string(),
  }),
);

/**
 * A body field reported under its Go name, as Gitea's binding does (`new_branch_name` is
 * `BranchName` there); only presence is checked here, the name rules run in the service.
 */
function requiredAs<T extends object>(key: keyof T & string, goName: string) {
  return v.rawCheck<T>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const value: unknown = dataset.value[key];
    if (typeof value !== "string" || value === "") {
      addIssue({
        message: "Required",
        path: [{ type: "object", origin: "value", input: dataset.value as Record<string, unknown>, key: goName, value }],
      });
    }
  });
}

const createBranchFields = v.object({
  new_branch_name: opt(v.string()),
  old_branch_name: opt(v.string()),
  old_ref_name: opt(v.string()),
});
export const CreateBranchRepoOption = named(
  "CreateBranchRepoOption",
  v.pipe(createBranchFields, requiredAs<v.InferOutput<typeof createBranchFields>>("new_branch_name", "BranchName")),
);

const renameBranchFields = v.object({ name: opt(v.string()) });
export const RenameBranchRepoOption = named(
  "RenameBranchRepoOption",
  v.pipe(renameBranchFields, requiredAs<v.InferOutput<typeof renameBranchFields>>("name", "Name")),
);

const updateBranchFields = v.object({
  new_commit_id: opt(v.string()),
  old_commit_id: opt(v.string()),
  force: opt(v.boolean()),
});
export const UpdateBranchRepoOption = named(
  "UpdateBranchRepoOption",
  v.pipe(updateBranchFields, requiredAs<v.InferOutput<typeof updateBranchFields>>("new_commit_id", "NewCommitID")),
);

const CommitMeta = v.object({ url: v.string(), sha: v.string(), created: v.string() });

export const Tag = named(
  "Tag",
  v.object({
    name: v.string(),
    message: v.string(),
    id: v.string(),
    commit: CommitMeta,
    zipball_url: v.string(),
    tarball_url: v.string(),
  }),
);

const createTagFields = v.object({ tag_name: opt(v.string()), message: opt(v.string()), target: opt(v.string()) });
export const CreateTagOption = named(
  "CreateTagOption",
  v.pipe(createTagFields, requiredAs<v.InferOutput<typeof createTagFields>>("tag_name", "TagName")),
);

const CommitUser = v.object({ name: v.string(), email: v.string(), date: v.string() });

export const AnnotatedTagObject = named(
  "AnnotatedTagObject",
  v.object({ type: v.string(), url: v.string(), sha: v.string() }),
);

export const AnnotatedTag = named(
  "AnnotatedTag",
  v.object({
    tag: v.string(),
    sha: v.string(),
    url: v.string(),
    message: v.string(),
    tagger: CommitUser,
    object: AnnotatedTagObject,
    verification: v.nullable(PayloadCommitVerification),
  }),
);

export const GitObject = named("GitObject", v.object({ type: v.string(), sha: v.string(), url: v.string() }));

export const Reference = named("Reference", v.object({ ref: v.string(), url: v.string(), object: GitObject }));

/** `{owner}/{repo}/.../*`: the rest of the path (a branch, tag or ref name that may hold `/`). */
export const RepoWildcardParams = v.object({ owner: v.string(), repo: v.string(), "*": v.string() });

export type APIPayloadCommit = v.InferOutput<typeof PayloadCommit>;
export type APIPayloadCommitVerification = v.InferOutput<typeof PayloadCommitVerification>;
export type APIBranch = v.InferOutput<typeof Branch>;
export type APITag = v.InferOutput<typeof Tag>;
export type APIAnnotatedTag = v.InferOutput<typeof AnnotatedTag>;
export type APIReference = v.InferOutput<typeof Reference>;
