import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git, refuseNulMessage, runGit, GitError } from "./exec.ts";
import type { Signature } from "./commit-files.ts";

/** One file of a template's tree, as `ls-tree -r` lists it (symlinks and submodules included). */
export interface TemplateEntry {
  mode: string;
  oid: string;
  path: string;
}

/** A file of the generated tree: the template's object as it is (`oid`), or new `content`. */
export type GeneratedEntry = { mode: string; path: string; oid: string } | { mode: string; path: string; content: Uint8Array };

/** Regular files (plain or executable): the only entries whose content may be rewritten. */
export const isRegularFile = (mode: string) => mode === "100644" || mode === "100755";

/** Gitlinks point at another repository's commit: nothing of theirs is in this one. */
const isGitlink = (mode: string) => mode === "160000";

/** Every file of `branch`'s head in a repository, or undefined when the branch does not exist (an empty template). */
export async function listBranchTree(gitDir: string, branch: string): Promise<TemplateEntry[] | undefined> {
  const ref = `refs/heads/${branch}`;
  const found = await runGit(["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`], { gitDir });
  if (found.code !== 0) return undefined;
  const out = await runGit(["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", ref], { gitDir });
  if (out.code !== 0) throw new GitError(["ls-tree"], out.code, out.stderr);
  const entries: TemplateEntry[] = [];
  for (const line of out.stdout.toString("utf8").split("\0")) {
    if (line === "") continue;
    const tab = line.indexOf("\t");
    const [mode, , oid] = line.slice(0, tab).split(" ");
    entries.push({ mode: mode!, oid: oid!, path: line.slice(tab + 1) });
  }
  return entries;
}

/** A blob's bytes, or undefined when it is larger than `limit` (read no further than its size). */
export async function readBlobUpTo(gitDir: string, oid: string, limit: number): Promise<Buffer | undefined> {
  const size = Number((await git(["cat-file", "-s", "--end-of-options", oid], { gitDir })).trim());
  if (size > limit) return undefined;
  const r = await runGit(["cat-file", "blob", "--end-of-options", oid], { gitDir });
  if (r.code !== 0) throw new GitError(["cat-file", "blob", oid], r.code, r.stderr);
  return r.stdout;
}

export interface GeneratedCommitInput {
  /** The template's bare repository, where the kept objects come from. */
  templateDir: string;
  /** The new bare repository; its `branch` must not exist yet. */
  target: string;
  branch: string;
  entries: GeneratedEntry[];
  message: string;
  author: Signature;
  committer: Signature;
}

function sigEnv(prefix: "AUTHOR" | "COMMITTER", s: Signature): Record<string, string> {
  return { [`GIT_${prefix}_NAME`]: s.name, [`GIT_${prefix}_EMAIL`]: s.email, [`GIT_${prefix}_DATE`]: `@${s.unix} +0000` };
}

/**
 * Makes the first commit of a repository generated from a template, with plumbing only: the blobs
 * kept from the template are packed and unpacked into the target (only those: an excluded file's
 * content must not become fetchable by id from the new repository), new contents are written as
 * blobs, a private index in a temporary directory is filled, written as a tree and committed, and
 * the branch is created. Returns the commit id. A failure leaves loose objects in the target, which
 * the caller removes with the rest of the repository.
 */
export async function commitGeneratedTree(input: GeneratedCommitInput): Promise<string> {
  refuseNulMessage(input.message);
  const kept = [...new Set(input.entries.flatMap((e) => ("oid" in e && !isGitlink(e.mode) ? [e.oid] : [])))];
  if (kept.length > 0) {
    const pack = await runGit(["pack-objects", "--stdout", "-q"], { gitDir: input.templateDir, input: `${kept.join("\n")}\n`, timeoutMs: 10 * 60_000 });
    if (pack.code !== 0) throw new GitError(["pack-objects"], pack.code, pack.stderr);
    await git(["unpack-objects", "-q"], { gitDir: input.target, input: pack.stdout, timeoutMs: 10 * 60_000 });
  }
  const lines: string[] = [];
  for (const e of input.entries) {
    const oid = "oid" in e ? e.oid : (await git(["hash-object", "-w", "--stdin"], { gitDir: input.target, input: e.content })).trim();
    lines.push(`${e.mode} ${oid}\t${e.path}\0`);
  }
  const scratch = mkdtempSync(join(tmpdir(), "hearth-generate-"));
  const env = { GIT_INDEX_FILE: join(scratch, "index") };
  try {
    await git(["read-tree", "--empty"], { gitDir: input.target, env });
    if (lines.length > 0) await git(["update-index", "--add", "-z", "--index-info"], { gitDir: input.target, env, input: lines.join("") });
    const tree = (await git(["write-tree"], { gitDir: input.target, env })).trim();
    const commit = (
      await git(["commit-tree", tree], {
        gitDir: input.target,
        input: input.message,
        env: { ...sigEnv("AUTHOR", input.author), ...sigEnv("COMMITTER", input.committer) },
      })
    ).trim();
    // The all-zero old value: the branch must not exist yet.
    await git(["update-ref", "--end-of-options", `refs/heads/${input.branch}`, commit, "0".repeat(commit.length)], { gitDir: input.target });
    return commit;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
