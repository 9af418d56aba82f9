import type { Command } from "./command.ts";
import { configFlags, withRuntime } from "./runtime.ts";

type Flags = Record<string, string | boolean | undefined>;

/** Gitea's `--units` flag; hearth moves milestones, labels, issues, comments, pull requests (with reviews), releases and their assets. */
export const unitsFlag = {
  name: "units",
  type: "string",
  description:
    "which items to move, comma separated: milestones, labels, issues, comments, pull_requests (with their reviews), releases, release_assets; empty means all",
} as const;

/**
 * Gitea's `dump-repo`, for a repository of this instance: Gitea's clones from a service by URL
 * (`--clone_addr`, `--git_service`, `--auth_*`), which hearth does not take; here `--owner_name` and
 * `--repo_name` name the local repository to dump. The layout is Gitea's: `{repo_dir}/{owner}/{repo}/`.
 */
export const dumpRepoCommand: Command = {
  name: "dump-repo",
  description: "Dump a repository of this instance (git data, milestones, labels, issues, comments, pull requests, reviews, releases) to a directory",
  flags: [
    ...configFlags,
    { name: "repo_dir", short: "r", type: "string", description: "directory to store the data in; must be missing or empty", default: "./data" },
    { name: "owner_name", type: "string", description: "owner of the repository to dump", required: true },
    { name: "repo_name", type: "string", description: "name of the repository to dump", required: true },
    unitsFlag,
  ],
  async run(flags: Flags) {
    // Loaded when the command runs: every start of the executable (`web` above all) shares main.ts's
    // imports, and the migration format (YAML, JSON Schema validation) is large.
    const [{ dumpRepo }, { parseUnits }] = await Promise.all([
      import("../services/migration/dump.ts"),
      import("../services/migration/format.ts"),
    ]);
    const units = parseUnits(flags.units as string | undefined);
    const s = await withRuntime(flags, (env) =>
      dumpRepo(env, {
        repoDir: String(flags.repo_dir),
        ownerName: String(flags.owner_name),
        repoName: String(flags.repo_name),
        units,
      }),
    );
    process.stdout.write(
      `Dumped ${flags.owner_name}/${flags.repo_name} to ${s.path}: ${s.milestones} milestones, ${s.labels} labels, ${s.issues} issues, ${s.comments} comments, ${s.pullRequests} pull requests, ${s.reviews} reviews, ${s.releases} releases\n`,
    );
  },
};
