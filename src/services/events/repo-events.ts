import type { RepoRow, UserRow } from "../../db/schema/index.ts";
import type { Commit } from "../../git/objects.ts";
import { createChannel } from "./channel.ts";

/** A commit of a push as its announcement carries it: the commit and the files it changes. */
export interface PushedCommit {
  commit: Commit;
  added: string[];
  removed: string[];
  modified: string[];
}

/**
 * What happened to a repository or its refs (Gitea's notifier calls PushCommits, CreateRef,
 * DeleteRef, CreateRepository, DeleteRepository, ForkRepository). A ref change made through the
 * API is announced as a push, as Gitea makes it one.
 */
export type RepoEvent =
  | {
      kind: "push";
      repo: RepoRow;
      owner: UserRow;
      pusher: UserRow;
      /** The full ref name (`refs/heads/main`, `refs/tags/v1`). */
      ref: string;
      old: string;
      new: string;
      /** Newest first, at most `[ui] FEED_MAX_COMMIT_NUM`; `total` counts them all. */
      commits: PushedCommit[];
      total: number;
      /** The pushed tip; absent for a deletion. */
      head?: PushedCommit;
      /** Gitea's CompareURL: `{owner}/{repo}/compare/{old}...{new}` (relative), "" when there is nothing to compare. */
      compare: string;
    }
  | { kind: "ref-created"; repo: RepoRow; owner: UserRow; pusher: UserRow; ref: string; sha: string }
  | { kind: "ref-deleted"; repo: RepoRow; owner: UserRow; pusher: UserRow; ref: string }
  | { kind: "created"; repo: RepoRow; owner: UserRow; doer: UserRow }
  | { kind: "deleted"; repo: RepoRow; owner: UserRow; doer: UserRow }
  | { kind: "forked"; repo: RepoRow; owner: UserRow; source: RepoRow; sourceOwner: UserRow; doer: UserRow };

export const repoEvents = createChannel<RepoEvent>("repository events");
