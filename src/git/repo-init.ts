import { mkdirSync, rmSync, existsSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import { git } from "./exec.ts";
import { installHooks } from "./hooks.ts";

/** `[repository] ROOT/{owner}/{name}.git`, lowercased as Gitea lays them out. */
export function repoPath(root: string, owner: string, name: string): string {
  return join(root, owner.toLowerCase(), `${name.toLowerCase()}.git`);
}

/** Durability and safety settings every hosted repository carries (ARCHITECTURE.md). */
const REPO_CONFIG: [string, string][] = [
  ["core.fsync", "objects,derived-metadata,reference"],
  ["core.fsyncMethod", "fsync"],
  ["receive.fsckObjects", "true"],
  ["receive.advertisePushOptions", "true"],
  ["uploadpack.allowFilter", "true"],
  ["uploadpack.allowAnySHA1InWant", "true"],
  ["repack.writeBitmaps", "true"],
  ["gc.auto", "0"],
];

export interface InitOptions {
  defaultBranch: string;
  objectFormat: "sha1" | "sha256";
  /** How hooks run hearth: the executable, or bun and src/main.ts. */
  hookCommand: string[];
}

/**
 * Creates a bare repository with hearth's config and hooks. Built beside the target and renamed
 * into place, so a crash leaves either nothing or a whole repository.
 */
export async function initBareRepo(path: string, opts: InitOptions): Promise<void> {
  if (existsSync(path)) throw new Error(`repository path ${path} already exists`);
  const tmp = `${path}.tmp-${process.pid}-${Date.now()}`;
  mkdirSync(dirname(path), { recursive: true });
  try {
    await git(["init", "--bare", "--quiet", `--object-format=${opts.objectFormat}`, `--initial-branch=${opts.defaultBranch}`, "--", tmp]);
    for (const [key, value] of REPO_CONFIG) await git(["config", key, value], { gitDir: tmp });
    installHooks(tmp, opts.hookCommand);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

export function removeRepo(path: string): void {
  rmSync(path, { recursive: true, force: true });
}

/** Whether an owner directory already exists under the repository root (a rename must not land on it). */
export function ownerDirExists(root: string, owner: string): boolean {
  return existsSync(join(root, owner.toLowerCase()));
}

/** Moves all repositories of a renamed owner: their directory is named after the owner. */
export function moveOwnerDir(root: string, oldOwner: string, newOwner: string): void {
  const from = join(root, oldOwner.toLowerCase());
  const to = join(root, newOwner.toLowerCase());
  if (from === to || !existsSync(from)) return;
  renameSync(from, to);
}

export function moveRepo(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  renameSync(from, to);
}

/** Points HEAD at a branch (the default branch), whether or not it exists yet. */
export async function setHead(path: string, branch: string): Promise<void> {
  await git(["symbolic-ref", "HEAD", `refs/heads/${branch}`], { gitDir: path });
}
