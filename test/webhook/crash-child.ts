/**
 * A hearth process that dies at a chosen point, for test/webhook/outbox.test.ts: it opens the test
 * instance in `dir` (argv), creates an issue through the API, and is killed (SIGKILL, no clean-up
 * of any kind) by the first subscriber that hears of the issue, before the webhook notifier (the
 * next subscriber) records anything. That is the window the outbox closes: the change has
 * committed, its hook task does not exist yet.
 */
import { writeSync } from "node:fs";
import { openDatabase } from "../../src/db/client.ts";
import { createLogger } from "../../src/lib/log.ts";
import { createEnv } from "../../src/services/env.ts";
import { wireEnv } from "../../src/compose.ts";
import { createApp } from "../../src/http/app.ts";
import { issueEvents } from "../../src/services/events/issue-events.ts";
import { ROOT_URL, testSettings } from "../support/app.ts";

const [dir, ini, repoPath, token] = process.argv.slice(2) as [string, string, string, string];

// Never hang a test run: a process that was not killed says so with its exit code.
setTimeout(() => process.exit(3), 30_000);

const settings = testSettings(dir, ini);
const env = createEnv(settings, openDatabase(settings.database.path).db, createLogger("none"));
// Subscribed before the composition root subscribes the notifiers, so it hears of the event first.
env.bus.subscribe(issueEvents, () => {
  process.kill(process.pid, "SIGKILL");
});
wireEnv(env);
const app = createApp(env);
env.queue.start();
const res = await app.handle(
  new Request(`${ROOT_URL}api/v1/repos/${repoPath}/issues`, {
    method: "POST",
    headers: { Authorization: `token ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ title: "created just before the crash" }),
  }),
);
// The parent reads the answer the client got, if it came before the process died (written at once).
writeSync(1, `${res.status}\n`);
