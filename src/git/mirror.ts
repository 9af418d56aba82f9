import { git, runGit } from "./exec.ts";

/**
 * The git half of `dump-repo` / `restore-repo`: a dump carries the repository as a bare mirror in
 * `git/` (Gitea's RepositoryDumper clones with `--mirror`), and a restore fetches its branches and
 * tags back into a hosted repository.
 */

/**
 * Copies a hosted repository to `target` as a bare mirror (every ref). `--no-hardlinks` makes the
 * dump a copy that shares no files with the live repository, so it survives that repository's loss.
 */
export async function cloneMirror(source: string, target: string): Promise<void> {
  await git(["clone", "--mirror", "--quiet", "--no-hardlinks", "--end-of-options", source, target], {
    timeoutMs: 60 * 60_000,
  });
}

/** What a dump's `git/` directory holds, read before anything is restored. */
export interface MirrorInfo {
  objectFormat: "sha1" | "sha256";
  /** The branch HEAD names, when it names one. */
  head: string | undefined;
  branches: string[];
}

/** Reads a bare repository's object format, HEAD and branch names; undefined when `path` is not one. */
export async function inspectMirror(path: string): Promise<MirrorInfo | undefined> {
  const probe = await runGit(["rev-parse", "--is-bare-repository", "--show-object-format"], { gitDir: path });
  if (probe.code !== 0) return undefined;
  const [bare, format] = probe.stdout.toString("utf8").trim().split("\n");
  if (bare !== "true" || (format !== "sha1" && format !== "sha256")) return undefined;
  const headRef = await runGit(["symbolic-ref", "--quiet", "HEAD"], { gitDir: path });
  const ref = headRef.code === 0 ? headRef.stdout.toString("utf8").trim() : "";
  const refs = await git(["for-each-ref", "--format=%(refname)", "--", "refs/heads/"], { gitDir: path });
  const branches = refs
    .split("\n")
    .filter((r) => r.startsWith("refs/heads/"))
    .map((r) => r.slice("refs/heads/".length));
  return { objectFormat: format, head: ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : undefined, branches };
}

/**
 * Fetches every branch and tag of `source` into the bare repository `target`. A fetch runs no
 * receive hooks: the caller records the branches itself. `refs/pull/*` and other refs of the mirror
 * are left behind, as a fork leaves them.
 */
export async function fetchBranchesAndTags(target: string, source: string): Promise<void> {
  await git(
    [
      "fetch",
      "--quiet",
      "--no-tags",
      "--no-write-fetch-head",
      "--end-of-options",
      source,
      "+refs/heads/*:refs/heads/*",
      "+refs/tags/*:refs/tags/*",
    ],
    { gitDir: target, timeoutMs: 60 * 60_000 },
  );
}

/**
 * Deletes every branch, tag and pull request head of a repository: undoes a restore's fetch into a
 * repository that had none before. The fetched objects stay as unreachable garbage for `git gc`.
 */
export async function dropBranchesAndTags(target: string): Promise<void> {
  const refs = await git(["for-each-ref", "--format=%(refname)", "--", "refs/heads/", "refs/tags/", "refs/pull/"], { gitDir: target });
  const lines = refs
    .split("\n")
    .filter(Boolean)
    .map((r) => `delete ${r}\n`)
    .join("");
  if (lines) await git(["update-ref", "--stdin"], { gitDir: target, input: lines });
}
