import type { Command } from "./command.ts";
import { UsageError } from "./command.ts";
import { generateSecret } from "../config/load.ts";

const KINDS = ["SECRET_KEY", "INTERNAL_TOKEN"] as const;

export const generateCommand: Command = {
  name: "generate",
  description: "Generate secrets and keys",
  subcommands: [
    {
      name: "secret",
      description: `Generate a secret token: ${KINDS.join(" | ")}`,
      args: KINDS.join("|"),
      async run(_flags, positionals) {
        const kind = positionals[0] as (typeof KINDS)[number] | undefined;
        if (!kind || !KINDS.includes(kind) || positionals.length > 1) {
          throw new UsageError(`usage: generate secret ${KINDS.join("|")}`);
        }
        // Like Gitea: no newline when piped, so `$(hearth generate secret SECRET_KEY)` is the bare value.
        process.stdout.write(generateSecret(kind));
        if (process.stdout.isTTY) process.stdout.write("\n");
      },
    },
  ],
};
