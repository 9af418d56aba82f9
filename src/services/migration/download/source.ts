import { Invalid } from "../../../lib/errors.ts";
import type {
  AssetRecord,
  CommentRecord,
  IssueRecord,
  LabelRecord,
  MilestoneRecord,
  PullRequestRecord,
  ReleaseRecord,
  ReviewRecord,
} from "../format.ts";

/**
 * What a migration reads from another forge (Gitea's base.Downloader): each service (git, gitea,
 * gogs, github, gitlab) answers in the dump format's records (format.ts), so that a download is
 * written as a dump (write-dump.ts) and brought in by the one import path restore-repo uses.
 * Person ids and names are the source's own; the import maps them.
 */

/** Gitea's GitServiceType numbers, as repo.yml's service_type records them. */
export const SERVICE_TYPES = { git: 1, github: 2, gitea: 3, gitlab: 4, gogs: 5 } as const;
export type ServiceName = keyof typeof SERVICE_TYPES;
export const SERVICE_NAMES = Object.keys(SERVICE_TYPES) as ServiceName[];

export interface Credentials {
  username: string;
  password: string;
}

/** What the migration was asked for: the address and the three ways to sign in Gitea's options take. */
export interface SourceOptions {
  /** The clone address as given, without credentials (they are in the fields below). */
  cloneAddr: string;
  authUsername: string;
  authPassword: string;
  authToken: string;
}

export interface SourceRepo {
  name: string;
  owner: string;
  description: string;
  isPrivate: boolean;
  /** The source's default branch; "" when it does not say. */
  defaultBranch: string;
  /** The repository's page at the source (repo.yml's original_url). */
  originalUrl: string;
  /** Where git clones it from, without credentials. */
  cloneUrl: string;
  /** Who git signs in as, if anyone (a token becomes Gitea's `oauth2:<token>`). */
  cloneCredentials: Credentials;
}

export interface Page<T> {
  items: T[];
  /** No further page (Gitea's isEnd). */
  isEnd: boolean;
}

export interface Downloader {
  readonly service: ServiceName;
  repo(): Promise<SourceRepo>;
  topics(): Promise<string[]>;
  milestones(): Promise<MilestoneRecord[]>;
  labels(): Promise<LabelRecord[]>;
  /** Releases with their assets' `download_url` where the source serves them. */
  releases(): Promise<ReleaseRecord[]>;
  /** Fetches one asset of `releases()` into `file` (through the same signed-in client). */
  downloadAsset(asset: AssetRecord, file: string): Promise<void>;
  /** Issues only, never pull requests, by page (1-based). */
  issues(page: number, perPage: number): Promise<Page<IssueRecord>>;
  /** Comments of an issue or pull request (not review comments), oldest first, `issue_index` set. */
  comments(issueNumber: number): Promise<CommentRecord[]>;
  pullRequests(page: number, perPage: number): Promise<Page<PullRequestRecord>>;
  reviews(pullNumber: number): Promise<ReviewRecord[]>;
  /** The ref the source keeps pull request `n`'s head under (GitHub's and Gitea's refs/pull/n/head, GitLab's refs/merge-requests/n/head). */
  pullHeadRef(n: number): string;
}

/** A source answered with an error the migration cannot get past: its message is shown as it is (422). */
export class SourceError extends Invalid {}

/** The source's rate limit stopped the migration (Gitea's "Remote visit addressed rate limitation."). */
export class RateLimited extends SourceError {}
