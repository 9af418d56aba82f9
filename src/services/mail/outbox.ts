import type { Env } from "../env.ts";
import { writeTx } from "../../db/client.ts";
import type { MailMessage, RenderedMail } from "../../mail/message.ts";
import { abandonSends, MAIL_QUEUE, renderFor, withoutRetryDelays } from "./deliver.ts";
import { eventsIdle } from "../events/bus.ts";

/**
 * Outgoing mail goes through the persistent work queue (`mail`), as Gitea keeps its mail queue in
 * its persistent queue store: a request never waits for (or fails because of) the mail server, and
 * mail queued before a restart or a crash is still sent, at least once. Each item is the message
 * fully rendered (envelope, headers, HTML and text), so nothing is rebuilt when it runs.
 */

/**
 * Queues messages for background delivery; returns how many were queued (none when the mailer is
 * off). Never throws and never waits: the caller is usually mid-request, its own change already
 * made. They are queued together, in one transaction of their own.
 */
export function queueMail(env: Env, messages: readonly MailMessage[]): number {
  if (!env.settings.mailer.enabled || messages.length === 0) return 0;
  try {
    const rendered: RenderedMail[] = messages.map((msg) => renderFor(env, msg));
    writeTx(env.db, (tx) => {
      for (const mail of rendered) env.queue.put(tx, MAIL_QUEUE, mail);
    });
    return messages.length;
  } catch (err) {
    env.log.error("mail could not be queued", { count: messages.length, info: messages[0]!.info, error: (err as Error)?.message ?? String(err) });
    return 0;
  }
}

/**
 * Waits until the events recorded so far have been handed on (the mail notifier queues mail from
 * them) and queued mail is delivered or given up on; retries are not delayed meanwhile (for
 * tests). Needs the queue's workers running (`env.queue.start()`); at once once they are stopped.
 */
export async function flushMail(env: Env): Promise<void> {
  if (!env.settings.mailer.enabled) return;
  await eventsIdle(env);
  await withoutRetryDelays(env, async () => {
    env.queue.hurry(MAIL_QUEUE);
    await env.queue.idle(MAIL_QUEUE);
  });
}

/** How long shutdown waits for a send under way: a hung mail server must not hold the process past systemd's stop timeout. */
const CLOSE_TIMEOUT_MS = 20_000;

/**
 * At shutdown, once the queue has stopped taking work (`env.queue.stop()` called): sends under way
 * get `timeoutMs` to finish, then are abandoned, and the connection is released. Nothing is lost by
 * stopping: queued mail, an abandoned send's included, waits in the database for the next start.
 */
export async function closeMail(env: Env, timeoutMs = CLOSE_TIMEOUT_MS): Promise<void> {
  if (await abandonSends(env, timeoutMs)) {
    env.log.warn("shutting down with mail still undelivered: it is sent after the next start", { waitedMs: timeoutMs });
  }
}
