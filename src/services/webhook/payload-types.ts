/**
 * Gitea's webhook payloads (modules/structs/hook.go), field for field in Gitea's order: what a
 * `gitea` hook receives as its body and what every other hook type's format starts from. Nested
 * API objects (Repository, User, Issue, PullRequest, Comment, Release) are the API JSON the
 * converters produce, kept opaque here. Built by the notifier (notifier/); additions
 * by other parts should stay additive.
 */

type APIObject = Record<string, unknown>;

/** Gitea's PayloadUser: a commit's author or committer, `username` when an account has the email. */
export interface PayloadUser {
  name: string;
  email: string;
  username: string;
}

export interface PayloadCommitVerification {
  verified: boolean;
  reason: string;
  signature: string;
  signer: PayloadUser | null;
  payload: string;
}

export interface PayloadCommit {
  id: string;
  message: string;
  url: string;
  author: PayloadUser;
  committer: PayloadUser;
  verification: PayloadCommitVerification | null;
  timestamp: string;
  added: string[];
  removed: string[];
  modified: string[];
}

export interface PushPayload {
  ref: string;
  before: string;
  after: string;
  compare_url: string;
  commits: PayloadCommit[];
  total_commits: number;
  head_commit: PayloadCommit | null;
  repository: APIObject;
  pusher: APIObject;
  sender: APIObject;
}

export interface CreatePayload {
  sha: string;
  ref: string;
  ref_type: "branch" | "tag";
  repository: APIObject;
  sender: APIObject;
}

export interface DeletePayload {
  ref: string;
  ref_type: "branch" | "tag";
  pusher_type: "user";
  repository: APIObject;
  sender: APIObject;
}

export interface ForkPayload {
  /** The repository that was forked (Gitea's naming). */
  forkee: APIObject;
  /** The new fork. */
  repository: APIObject;
  sender: APIObject;
}

export interface ChangesPayload {
  title?: { from: string };
  body?: { from: string };
  ref?: { from: string };
}

export type HookIssueAction =
  | "opened"
  | "closed"
  | "reopened"
  | "edited"
  | "deleted"
  | "assigned"
  | "unassigned"
  | "label_updated"
  | "label_cleared"
  | "synchronized"
  | "milestoned"
  | "demilestoned"
  | "reviewed"
  | "review_requested"
  | "review_request_removed";

export interface IssuePayload {
  action: HookIssueAction;
  number: number;
  changes?: ChangesPayload;
  issue: APIObject;
  repository: APIObject;
  sender: APIObject;
  /** The commit that closed or reopened the issue; "" otherwise (always present, as Gitea's). */
  commit_id: string;
}

export interface IssueCommentPayload {
  action: "created" | "edited" | "deleted";
  issue: APIObject;
  pull_request?: APIObject;
  comment: APIObject;
  changes?: ChangesPayload;
  repository: APIObject;
  sender: APIObject;
  is_pull: boolean;
}

export interface ReviewPayload {
  type: string;
  content: string;
}

export interface PullRequestPayload {
  action: HookIssueAction;
  number: number;
  changes?: ChangesPayload;
  pull_request: APIObject;
  requested_reviewer: APIObject | null;
  repository: APIObject;
  sender: APIObject;
  commit_id: string;
  review: ReviewPayload | null;
}

export interface ReleasePayload {
  action: "published" | "updated" | "deleted";
  release: APIObject;
  repository: APIObject;
  sender: APIObject;
}

/**
 * Gitea's PackagePayload: its notifier fills only the action, the package (as the sender sees it)
 * and the sender; `repository` and `organization` stay null.
 */
export interface PackagePayload {
  action: "created" | "deleted";
  repository: null;
  package: APIObject;
  organization: null;
  sender: APIObject;
}

export interface RepositoryPayload {
  action: "created" | "deleted";
  repository: APIObject;
  organization: APIObject;
  sender: APIObject;
}

export interface CommitStatusPayload {
  commit: PayloadCommit | null;
  context: string;
  created_at: string;
  description: string;
  id: number;
  repository: APIObject;
  sender: APIObject;
  sha: string;
  state: string;
  target_url: string;
  updated_at: string | null;
}
