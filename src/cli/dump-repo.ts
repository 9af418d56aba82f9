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

const str = (v: string | boolean | undefined): string => (typeof v === "string" ? v : "");

/**
 * Gitea's `dump-repo`: with `--clone_addr`, a repository of another forge (`--git_service` git,
 * gitea, gogs, github, gitlab; `--auth_*` to sign in there) is downloaded through the migration
 * code; without it, the repository of this instance named by `--owner_name` and `--repo_name`.
 * Either way the layout is Gitea's: `{repo_dir}/{owner_name}/{repo_name}/`.
 */
export const dumpRepoCommand: Command = {
  name: "dump-repo",
  description: "Dump a repository (git data, milestones, labels, issues, comments, pull requests, reviews, releases) from another forge or from this instance to a directory",
  flags: [
    ...configFlags,
    { name: "git_service", type: "string", description: "the service of --clone_addr: git, gitea, gogs, github, gitlab (default: git)" },
    { name: "repo_dir", short: "r", type: "string", description: "directory to store the data in; must be missing or empty", default: "./data" },
    { name: "clone_addr", type: "string", description: "the URL of the repository to download; without it, --owner_name/--repo_name of this instance is dumped" },
    { name: "auth_username", type: "string", description: "user name to sign in to --clone_addr with" },
    { name: "auth_password", type: "string", description: "password to sign in to --clone_addr with" },
    { name: "auth_token", type: "string", description: "access token to sign in to --clone_addr with" },
    { name: "owner_name", type: "string", description: "owner of the repository (the dump's directory name)", required: true },
    { name: "repo_name", type: "string", description: "name of the repository (the dump's directory name)", required: true },
    unitsFlag,
  ],
  async run(flags: Flags) {
    // Loaded when the command runs: every start of the executable (`web` above all) shares main.ts's
    // imports, and the migration format (YAML, JSON Schema validation) is large.
    const [{ dumpRepo }, { dumpRemoteRepo }, { parseUnits }] = await Promise.all([
      import("../services/migration/dump.ts"),
      import("../services/migration/dump-remote.ts"),
      import("../services/migration/format.ts"),
    ]);
    const units = parseUnits(flags.units as string | undefined);
    const common = { repoDir: String(flags.repo_dir), ownerName: String(flags.owner_name), repoName: String(flags.repo_name), units };
    const s = await withRuntime(flags, (env) =>
      str(flags.clone_addr)
        ? dumpRemoteRepo(env, {
            ...common,
            service: str(flags.git_service),
            cloneAddr: str(flags.clone_addr),
            authUsername: str(flags.auth_username),
            authPassword: str(flags.auth_password),
            authToken: str(flags.auth_token),
          })
        : dumpRepo(env, common),
    );
    process.stdout.write(
      `Dumped ${flags.owner_name}/${flags.repo_name} to ${s.path}: ${s.milestones} milestones, ${s.labels} labels, ${s.issues} issues, ${s.comments} comments, ${s.pullRequests} pull requests, ${s.reviews} reviews, ${s.releases} releases\n`,
    );
  },
};
