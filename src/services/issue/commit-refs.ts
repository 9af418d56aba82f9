import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { IssueRow, RepoRow, UserRow } from "../../db/schema/index.ts";
import * as issues from "../../models/issue.ts";
import { findIssueRefs } from "../../lib/issue-refs.ts";
import { repoPermission } from "../access/permission.ts";
import { changeIssueState } from "./state.ts";
import { issueChanged } from "./hooks.ts";

/** A pushed commit as far as its message matters here. */
export interface MessageCommit {
  oid: string;
  message: string;
}

/**
 * Gitea's UpdateIssuesCommit, for the keywords that act: each commit pushed to `branch`, oldest
 * first, closes (`fixes #3`, `closes #3`, `resolves #3`) or reopens (`reopens #3`) the issues of
 * the same repository it names, as the pusher, when the pusher may (a writer of issues, a
 * repository admin, or the issue's poster). An issue tied to a branch (its `ref`) is changed only
 * by commits to that branch, any other only by commits to the default branch. Pull requests are
 * never changed this way, and an issue with open dependencies stays open. The change is recorded
 * as Gitea's close/reopen event with the commit's sha, and announced with it (the webhook's
 * `commit_id`). `commits` come newest first, as git lists them.
 */
export function applyCommitKeywords(env: Env, repo: RepoRow, owner: UserRow, pusher: UserRow, branch: string, commits: MessageCommit[]): void {
  const perm = repoPermission(env, pusher, repo, owner);
  for (const commit of [...commits].reverse()) {
    const seen = new Set<string>();
    for (const ref of findIssueRefs(commit.message)) {
      if (ref.action === "none") continue;
      if (ref.owner && (ref.owner.toLowerCase() !== owner.name.toLowerCase() || ref.repo!.toLowerCase() !== repo.name.toLowerCase())) continue;
      const key = `${ref.index}:${ref.action}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const issue = issues.getIssueByIndex(env.db, repo.id, ref.index);
      if (!issue || issue.isPull) continue;
      if (!(perm.isAdmin() || perm.canWrite("issues") || issue.posterId === pusher.id)) continue;
      const wanted = issue.ref ? issue.ref.replace(/^refs\/heads\//, "") : repo.defaultBranch;
      if (branch !== wanted) continue;
      const close = ref.action === "closes";
      if (issue.isClosed === close) continue;
      if (close && issues.countOpenDependencies(env.db, issue.id) > 0) continue;
      writeTx(env.db, (tx) => {
        const changed: IssueRow = changeIssueState(tx, issue, pusher, close, { commitSha: commit.oid });
        issueChanged(tx, env, { kind: "edited", issue: changed, before: issue, repo, doer: pusher, commitId: commit.oid });
      });
    }
  }
}
