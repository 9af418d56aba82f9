/**
 * Repository archives, streamed from git as they are made: `git archive` for zip and tar.gz, and
 * `git bundle` for bundles. Nothing is written to disk but the scratch repository a bundle needs.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { git } from "./exec.ts";
import { gitStream, isObjectId } from "./tree.ts";

export type ArchiveFormat = "zip" | "tar.gz";

/** `git archive --format=<format> --prefix=<prefix> <commit>`, as a stream. */
export function streamArchive(
  gitDir: string,
  opts: { format: ArchiveFormat; commit: string; prefix?: string },
): Promise<ReadableStream<Uint8Array>> {
  if (!isObjectId(opts.commit)) throw new Error("not an object id");
  const args = ["archive", `--format=${opts.format}`];
  if (opts.prefix) args.push(`--prefix=${opts.prefix}`);
  args.push("--end-of-options", opts.commit);
  return gitStream(args, { gitDir });
}

/**
 * A bundle of everything reachable from `commit`, with `refs/heads/bundle` and `HEAD` pointing at
 * it, as Gitea makes them: git bundles refs, not bare ids, so the refs live in a scratch bare
 * repository that borrows the objects through `alternates` and is removed once the stream ends.
 */
export async function streamBundle(gitDir: string, commit: string): Promise<ReadableStream<Uint8Array>> {
  if (!isObjectId(commit)) throw new Error("not an object id");
  const scratch = mkdtempSync(join(tmpdir(), "hearth-bundle-"));
  const cleanup = () => rmSync(scratch, { recursive: true, force: true });
  try {
    const objectFormat = commit.length === 64 ? "sha256" : "sha1";
    await git(["init", "--bare", "--quiet", `--object-format=${objectFormat}`, "--", scratch]);
    writeFileSync(join(scratch, "objects", "info", "alternates"), `${resolve(gitDir, "objects")}\n`);
    await git(["update-ref", "refs/heads/bundle", commit], { gitDir: scratch });
    await git(["symbolic-ref", "HEAD", "refs/heads/bundle"], { gitDir: scratch });
    return await gitStream(["bundle", "create", "-", "refs/heads/bundle", "HEAD"], { gitDir: scratch }, cleanup);
  } catch (err) {
    cleanup();
    throw err;
  }
}
