/**
 * Gitea's webhook payloads (modules/structs/hook.go) as the formatters read them from a stored
 * hook task: the field names are the JSON names of Gitea's structs (a user's name is `login`, an
 * issue's index is `number`). Only the fields a formatter reads are typed; every payload carries
 * more. Fields are optional where Gitea may omit them or send null.
 */

export interface PayloadUserRef {
  id?: number;
  login: string;
  full_name?: string;
  avatar_url?: string;
  html_url?: string;
}

/** A commit's author or committer (Gitea's PayloadUser). */
export interface PayloadAuthor {
  name: string;
  email?: string;
  username?: string;
}

export interface PayloadCommit {
  id: string;
  message: string;
  url: string;
  author?: PayloadAuthor | null;
  committer?: PayloadAuthor | null;
  timestamp?: string;
  added?: string[] | null;
  removed?: string[] | null;
  modified?: string[] | null;
  [key: string]: unknown;
}

export interface PayloadRepo {
  id?: number;
  name?: string;
  full_name: string;
  html_url: string;
}

export interface PayloadMilestone {
  id: number;
  title: string;
}

export interface PayloadIssue {
  id: number;
  number: number;
  title: string;
  body: string;
  url?: string;
  html_url: string;
  user?: PayloadUserRef | null;
  assignees?: PayloadUserRef[] | null;
  milestone?: PayloadMilestone | null;
}

export interface PayloadPullRequest extends PayloadIssue {
  merged?: boolean;
}

export interface PayloadComment {
  id?: number;
  html_url: string;
  pull_request_url?: string;
  issue_url?: string;
  body: string;
}

export interface PushPayload {
  ref: string;
  before?: string;
  after?: string;
  compare_url: string;
  commits?: PayloadCommit[] | null;
  total_commits: number;
  head_commit?: PayloadCommit | null;
  repository: PayloadRepo;
  pusher?: PayloadUserRef | null;
  sender: PayloadUserRef;
}

export interface CreatePayload {
  sha?: string;
  ref: string;
  ref_type: string;
  repository: PayloadRepo;
  sender: PayloadUserRef;
}

export interface DeletePayload {
  ref: string;
  ref_type: string;
  pusher_type?: string;
  repository: PayloadRepo;
  sender: PayloadUserRef;
}

export interface ForkPayload {
  forkee: PayloadRepo;
  repository: PayloadRepo;
  sender: PayloadUserRef;
}

export interface IssuePayload {
  action: string;
  number: number;
  issue: PayloadIssue;
  repository: PayloadRepo;
  sender: PayloadUserRef;
  commit_id?: string;
}

export interface IssueCommentPayload {
  action: string;
  issue: PayloadIssue;
  comment: PayloadComment;
  repository: PayloadRepo;
  sender: PayloadUserRef;
  is_pull: boolean;
}

export interface PullRequestPayload {
  action: string;
  number: number;
  pull_request: PayloadPullRequest;
  requested_reviewer?: PayloadUserRef | null;
  repository: PayloadRepo;
  sender: PayloadUserRef;
  commit_id?: string;
  review?: { type?: string; content: string } | null;
}

export interface ReleasePayload {
  action: string;
  release: { tag_name: string; name?: string; body: string; html_url: string };
  repository: PayloadRepo;
  sender: PayloadUserRef;
}

export interface RepositoryPayload {
  action: string;
  repository: PayloadRepo;
  sender: PayloadUserRef;
}

export interface WikiPayload {
  action: string;
  repository: PayloadRepo;
  sender: PayloadUserRef;
  page: string;
  comment: string;
}

export interface PackagePayload {
  action: string;
  repository?: PayloadRepo | null;
  package: { name: string; version: string; type?: string; html_url: string };
  sender: PayloadUserRef;
}

export interface CommitStatusPayload {
  sha: string;
  context: string;
  description: string;
  state: string;
  target_url: string;
  repository: PayloadRepo;
  sender: PayloadUserRef;
}
