import type { Env } from "../env.ts";
import type { PullRequestRow } from "../../db/schema/index.ts";
import { readBranchHead } from "../../git/refs.ts";
import { fetchBranchInto, pullHeadRef, readRef, setRef } from "../../git/pull-refs.ts";
import { repoDirExists } from "../../git/fork.ts";
import { sideOf } from "./lookup.ts";

/**
 * Brings `refs/pull/{index}/head` of the base repository to the head branch's commit (fetching it
 * from the fork when the head lives in another repository), as Gitea's PushToBaseRepo. Returns the
 * head commit; when the head branch (or its repository) is gone the ref keeps its last value,
 * which is returned (undefined if it never existed).
 */
export async function syncPullHead(env: Env, pull: PullRequestRow): Promise<string | undefined> {
  const base = sideOf(env, undefined, pull.baseRepoId);
  if (!base) return undefined;
  const ref = pullHeadRef(pull.index);
  const head = pull.headRepoId === pull.baseRepoId ? base : sideOf(env, undefined, pull.headRepoId);
  if (head && repoDirExists(head.gitDir)) {
    const branch = await readBranchHead(head.gitDir, pull.headBranch);
    if (branch) {
      if (head === base) {
        if ((await readRef(base.gitDir, ref)) !== branch.commitId) await setRef(base.gitDir, ref, branch.commitId);
        return branch.commitId;
      }
      return fetchBranchInto(base.gitDir, head.gitDir, pull.headBranch, ref);
    }
  }
  return readRef(base.gitDir, ref);
}

/** The commit the base repository holds as the request's head. */
export function pullHeadCommit(gitDir: string, pull: Pick<PullRequestRow, "index">): Promise<string | undefined> {
  return readRef(gitDir, pullHeadRef(pull.index));
}
