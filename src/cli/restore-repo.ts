import type { Command } from "./command.ts";
import { configFlags, withRuntime } from "./runtime.ts";
import { unitsFlag } from "./dump-repo.ts";

type Flags = Record<string, string | boolean | undefined>;

/**
 * Gitea's `restore-repo`: the dump directory (the one holding repo.yml) becomes `owner/repo` here,
 * a new repository or an existing empty one. Gitea validates the files only with `--validation`;
 * hearth always does, and accepts the flag so Gitea's command lines work unchanged.
 */
export const restoreRepoCommand: Command = {
  name: "restore-repo",
  description: "Restore a repository from a dump directory into a new or empty repository",
  flags: [
    ...configFlags,
    { name: "repo_dir", short: "r", type: "string", description: "dump directory to restore from (the one holding repo.yml)", default: "./data" },
    { name: "owner_name", type: "string", description: "owner (user or organization) of the restored repository", required: true },
    { name: "repo_name", type: "string", description: "name of the restored repository", required: true },
    unitsFlag,
    { name: "validation", type: "bool", description: "check every file before loading it (always on in hearth)", default: true },
  ],
  async run(flags: Flags) {
    // Loaded when the command runs, as in dump-repo.ts.
    const [{ restoreRepo }, { parseUnits }] = await Promise.all([
      import("../services/migration/restore.ts"),
      import("../services/migration/format.ts"),
    ]);
    const units = parseUnits(flags.units as string | undefined);
    const s = await withRuntime(flags, (env) =>
      restoreRepo(env, {
        repoDir: String(flags.repo_dir),
        ownerName: String(flags.owner_name),
        repoName: String(flags.repo_name),
        units,
      }),
    );
    process.stdout.write(
      `Restored ${s.fullName}${s.created ? "" : " (existing empty repository)"}: ${s.branches} branches, ${s.milestones} milestones, ${s.labels} labels, ${s.issues} issues, ${s.comments} comments, ${s.pullRequests} pull requests, ${s.reviews} reviews, ${s.releases} releases\n`,
    );
  },
};
