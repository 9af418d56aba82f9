import { createInterface } from "node:readline";
import type { Command } from "./command.ts";
import { UsageError } from "./command.ts";
import { configFlags, withRuntime } from "./runtime.ts";
import { mailAllUsers } from "../services/mail/admin-mail.ts";
import { closeMail } from "../services/mail/outbox.ts";

const out = (text: string) => process.stdout.write(text);

/** One answer line from stdin; undefined when stdin ends first (no one to ask). */
async function answer(): Promise<string | undefined> {
  const rl = createInterface({ input: process.stdin });
  try {
    for await (const line of rl) return line.trim();
    return undefined;
  } finally {
    rl.close();
  }
}

/** Gitea's confirm(): y/yes or n/no, anything else is an error. */
async function confirmed(): Promise<boolean> {
  const reply = await answer();
  if (reply === undefined) throw new UsageError("no confirmation given: answer the prompt or pass --force");
  const lower = reply.toLowerCase();
  if (lower === "y" || lower === "yes") return true;
  if (lower === "n" || lower === "no") return false;
  throw new UsageError(`${reply} isn't a correct confirmation string`);
}

/**
 * `hearth admin sendmail`: Gitea's command of the same name. Gitea hands the mail to the running
 * server; hearth's admin commands work on the database directly, so this process sends it and
 * waits for delivery before exiting (nothing goes through the server's mail queue).
 */
export const sendMailCommand: Command = {
  name: "sendmail",
  description: "Send a message to all users",
  flags: [
    ...configFlags,
    { name: "title", type: "string", description: "a title of a message", required: true },
    { name: "content", type: "string", description: "a content of a message", default: "" },
    { name: "force", type: "bool", description: "A flag to bypass a confirmation step", default: false },
  ],
  async run(flags) {
    const subject = String(flags.title);
    const content = String(flags.content ?? "");
    if (!flags.force) {
      if (content === "") out("warning: Content is empty");
      out("Proceed with sending email? [Y/n] ");
      if (!(await confirmed())) {
        out("The mail was not sent\n");
        return;
      }
    }
    await withRuntime(flags, async (env) => {
      const sent = await mailAllUsers(env, subject, content);
      await closeMail(env);
      out(`Sent ${sent} email(s) to all users\n`);
    });
  },
};
