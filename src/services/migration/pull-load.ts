import { isHexId } from "../../git/reflist.ts";
import { resolveCommits } from "../../git/pull-heads.ts";
import { pullHeadRef } from "../../git/pull-refs.ts";
import { FILES, reviewFile, type PullRequestRecord, type ReviewRecord } from "./format.ts";
import { checkReactions, isValidRef, type Collector } from "./checks.ts";

/**
 * Reads and checks pull_request.yml and reviews/{n}.yml before anything is restored: the schemas
 * (pull-schema.ts), then what they cannot say: branch names and commit ids git accepts, a merged
 * request that is closed, each head commit in the dump's git data (the commit the record names,
 * else the dump's `refs/pull/{n}/head`), reviews of pull requests the file holds, and code comment
 * paths inside the repository. Numbers, milestones, labels and reactions are checked with the
 * issues' rules by the caller.
 */

export interface LoadedPull {
  record: PullRequestRecord;
  /** Where the dump's git data holds the head: the recorded commit, or `refs/pull/{n}/head`. Set by checkPullHeads. */
  headFrom: string;
}

const INVALID_REF = (ref: string) => `invalid git reference "${ref}"`;

/** pull_request.yml's own checks, after its schema. */
export function checkPulls(c: Collector, list: PullRequestRecord[]): LoadedPull[] {
  const file = FILES.pullRequest;
  return list.map((record, item) => {
    const { head, base } = record;
    if (!base.ref || !isValidRef(base.ref)) c.add({ file, item, field: "base.ref", message: INVALID_REF(base.ref) });
    if (!head.ref || !isValidRef(head.ref)) c.add({ file, item, field: "head.ref", message: INVALID_REF(head.ref) });
    for (const [field, sha] of [
      ["head.sha", head.sha],
      ["base.sha", base.sha],
      ["merge_commit_sha", record.merge_commit_sha],
    ] as const) {
      if (sha && !isHexId(sha)) c.add({ file, item, field, message: `"${sha}" is not a commit id` });
    }
    if (record.merged && record.state !== "closed") c.add({ file, item, field: "state", message: "a merged pull request must be closed" });
    return { record, headFrom: "" };
  });
}

/**
 * Each head in the dump's git data: the recorded head commit when there is one (Gitea's uploader
 * points `refs/pull/{n}/head` at it), else the dump's own `refs/pull/{n}/head`. Gitea drops a head
 * it cannot find and keeps the request without one; hearth refuses the dump, since a pull request
 * without its head has no commits, files or merge to show.
 */
export async function checkPullHeads(c: Collector, gitDir: string, pulls: LoadedPull[]): Promise<void> {
  const wanted = pulls.map(({ record }) => record.head.sha || pullHeadRef(record.number));
  const found = await resolveCommits(gitDir, wanted);
  pulls.forEach((p, item) => {
    if (found[item]) p.headFrom = p.record.head.sha ? found[item]! : wanted[item]!;
    else if (p.record.head.sha) c.add({ file: FILES.pullRequest, item, field: "head.sha", message: `commit ${p.record.head.sha} is not in ${FILES.git}/` });
    else c.add({ file: FILES.pullRequest, item, field: "head.sha", message: `empty, and ${FILES.git}/ has no ${wanted[item]}` });
  });
}

/** A path inside the repository, as Gitea's restorer makes it (PathJoinRel) but refused instead of rewritten. */
const isCleanPath = (p: string) => !p.startsWith("/") && !p.split("/").some((s) => s === "" || s === "." || s === "..") && !p.includes("\0");

/** One reviews/{n}.yml's own checks, after its schema. */
export function checkReviews(c: Collector, pullNumber: number, list: ReviewRecord[], pulls: Set<number>): void {
  const file = reviewFile(pullNumber);
  if (!pulls.has(pullNumber)) c.add({ file, message: `pull request ${pullNumber} is not in ${FILES.pullRequest}` });
  list.forEach((r, item) => {
    if (r.issue_index !== pullNumber) c.add({ file, item, field: "issue_index", message: `must be ${pullNumber}, the file's pull request` });
    if (r.commit_id && !isHexId(r.commit_id)) c.add({ file, item, field: "commit_id", message: `"${r.commit_id}" is not a commit id` });
    (r.comments ?? []).forEach((cm, i) => {
      const field = `comments[${i}]`;
      // Gitea works a missing line out of the hunk's header; hearth asks for it instead.
      if (cm.line === 0) c.add({ file, item, field: `${field}.line`, message: "must not be 0" });
      if (!isCleanPath(cm.tree_path)) c.add({ file, item, field: `${field}.tree_path`, message: `"${cm.tree_path}" is not a path inside the repository` });
      if (cm.commit_id && !isHexId(cm.commit_id)) c.add({ file, item, field: `${field}.commit_id`, message: `"${cm.commit_id}" is not a commit id` });
      checkReactions(c, file, item, `${field}.`, cm.reactions ?? undefined);
    });
  });
}
