import * as fs from "node:fs";
import iso from "isomorphic-git";

/** A branch head as the database records it. */
export interface BranchHead {
  name: string;
  commitId: string;
  /** First line of the commit message. */
  subject: string;
  commitUnix: number;
}

/**
 * Reads branches and their head commits in-process with isomorphic-git: no process per ref,
 * which matters for the full synchronisation of a repository with many branches.
 */
export async function readBranchHeads(repoPath: string, only?: string[]): Promise<BranchHead[]> {
  const names = only ?? (await iso.listBranches({ fs, gitdir: repoPath }));
  const heads: BranchHead[] = [];
  for (const name of names) {
    const head = await readBranchHead(repoPath, name);
    if (head) heads.push(head);
  }
  return heads;
}

/** The head of one branch, or undefined when the branch does not exist. */
export async function readBranchHead(repoPath: string, name: string): Promise<BranchHead | undefined> {
  let oid: string;
  try {
    oid = await iso.resolveRef({ fs, gitdir: repoPath, ref: `refs/heads/${name}` });
  } catch {
    return undefined;
  }
  try {
    const { commit } = await iso.readCommit({ fs, gitdir: repoPath, oid });
    return {
      name,
      commitId: oid,
      subject: commit.message.split("\n", 1)[0] ?? "",
      commitUnix: commit.committer.timestamp,
    };
  } catch {
    // A ref to something other than a commit (possible, if odd): record the ref alone.
    return { name, commitId: oid, subject: "", commitUnix: 0 };
  }
}
