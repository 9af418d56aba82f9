import type { Command } from "./command.ts";
import { configFlags, withRuntime } from "./runtime.ts";
import { registrationToken, runnerLevelOfScope } from "../services/actions/runners.ts";

type Flags = Record<string, string | boolean | undefined>;

/** Gitea's `gitea actions generate-runner-token`: a registration token for act_runner, printed alone. */
const generateRunnerTokenCommand: Command = {
  name: "generate-runner-token",
  description: "Generate a new token for a runner to use to register with the server",
  flags: [
    ...configFlags,
    { name: "scope", short: "s", type: "string", description: "{owner}[/{repo}] - leave empty for a global runner", default: "" },
  ],
  async run(flags: Flags) {
    await withRuntime(flags, async (env) => {
      process.stdout.write(`${registrationToken(env, runnerLevelOfScope(env, String(flags.scope ?? "")))}\n`);
    });
  },
};

export const actionsCommand: Command = {
  name: "actions",
  description: "Manage Gitea Actions",
  subcommands: [generateRunnerTokenCommand],
};
