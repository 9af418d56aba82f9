import type { Env } from "../env.ts";
import type { Job, JobResult } from "../../queue/work-queue.ts";
import { renderMail, type MailMessage, type RenderedMail } from "../../mail/message.ts";
import { createMailTransport, MailDeliveryError, type MailTransport } from "../../mail/transport.ts";

/**
 * Mail delivery: the work queue's `mail` handler (one attempt per run, retried with the queue's
 * own rescheduling), and direct delivery for commands that run outside the server.
 */

/** The work queue outgoing mail goes through; an item is a RenderedMail. */
export const MAIL_QUEUE = "mail";

/** Waits before the second and third attempt; a mail server restart or greylisting usually passes within them. */
const RETRY_DELAYS_MS = [10_000, 60_000];

/**
 * Longer than a send can take (nodemailer's connection, greeting and socket timeouts): when it
 * runs out after a crash mid-send, the message is sent again.
 */
const LEASE_MS = 10 * 60_000;

interface MailerState {
  /** Made on first use, with the settings of this process; closed (and forgotten) by `abandonSends`. */
  transport?: MailTransport;
  /** Sends under way: how each ends, and how to abandon it. */
  sending: Map<AbortController, Promise<unknown>>;
  /** While a flush is under way, a failed delivery is retried without its delay. */
  hurry: number;
}

const states = new WeakMap<Env, MailerState>();

function stateOf(env: Env): MailerState {
  let state = states.get(env);
  if (!state) {
    state = { sending: new Map(), hurry: 0 };
    states.set(env, state);
  }
  return state;
}

/** A message as this process's `[mailer]` settings send it. */
export function renderFor(env: Env, msg: MailMessage): RenderedMail {
  return renderMail(msg, env.settings.mailer, env.settings.server.domain);
}

type Outcome = { sent: true } | { sent: false; error: unknown; abandoned: boolean };

/** One attempt; never throws. `abandoned` when `abandonSends` cut it short. */
async function sendOnce(env: Env, mail: RenderedMail): Promise<Outcome> {
  const state = stateOf(env);
  state.transport ??= createMailTransport(env.settings.mailer, env.log);
  const abort = new AbortController();
  // The transport drops its connection on abort; the race makes sure an abandoned send ends now.
  const abandon = new Promise<never>((_, reject) => abort.signal.addEventListener("abort", () => reject(abort.signal.reason), { once: true }));
  const send = Promise.race([state.transport.send(mail, abort.signal), abandon]);
  state.sending.set(abort, send);
  try {
    await send;
    return { sent: true };
  } catch (error) {
    return { sent: false, error, abandoned: abort.signal.aborted };
  } finally {
    state.sending.delete(abort);
  }
}

/**
 * After the `attempt`th attempt failed: the wait before the next one, or undefined when this was
 * the last (a permanent 5xx refusal, or the third attempt), which is logged as an error.
 */
function retryDelay(env: Env, mail: RenderedMail, attempt: number, err: unknown): number | undefined {
  const error = err instanceof Error ? err.message : String(err);
  const permanent = err instanceof MailDeliveryError && err.permanent;
  const delay = RETRY_DELAYS_MS[attempt - 1];
  if (permanent || delay === undefined) {
    env.log.error("mail could not be delivered", { info: mail.info, attempts: attempt, error });
    return undefined;
  }
  env.log.warn("mail delivery failed, will retry", { info: mail.info, attempt, error });
  return stateOf(env).hurry > 0 ? 0 : delay;
}

/** The queue handler: one attempt per run. A crash mid-send counts as an attempt (the claim counted it). */
async function runMail(env: Env, mail: RenderedMail, job: Job): Promise<JobResult> {
  const outcome = await sendOnce(env, mail);
  if (outcome.sent) return;
  // Shutting down: the message stays queued, for the next start.
  if (outcome.abandoned) return { retryInMs: 0 };
  const delay = retryDelay(env, mail, job.attempts, outcome.error);
  return delay === undefined ? undefined : { retryInMs: delay };
}

/**
 * Declares the mail queue's handler on this process's queue; called once when the Env is made.
 * Only while `[mailer] ENABLED`: as in Gitea, mail queued before the mailer was switched off waits
 * in the queue, untouched, until it is switched on again.
 */
export function registerMailDelivery(env: Env): void {
  if (!env.settings.mailer.enabled) return;
  env.queue.register<RenderedMail>(MAIL_QUEUE, (mail, job) => runMail(env, mail, job), {
    // One message at a time, as a mail server expects of one client, and in the order queued.
    concurrency: 1,
    leaseMs: LEASE_MS,
    // The handler does not throw; should it, the same three attempts.
    maxAttempts: RETRY_DELAYS_MS.length + 1,
    backoffMs: (n) => RETRY_DELAYS_MS[n - 1] ?? RETRY_DELAYS_MS.at(-1)!,
  });
}

/** Runs `fn` with failed deliveries retried at once rather than after their delay. */
export async function withoutRetryDelays(env: Env, fn: () => Promise<void>): Promise<void> {
  const state = stateOf(env);
  state.hurry++;
  try {
    await fn();
  } finally {
    state.hurry--;
  }
}

/**
 * Delivers messages from this process, one at a time, each tried up to three times without delay,
 * and waits: for commands that run outside the server (`hearth admin sendmail`), where nothing would
 * run the queue. Nothing is queued. Returns how many were delivered; failures are logged.
 */
export async function sendMailNow(env: Env, messages: readonly MailMessage[]): Promise<number> {
  let delivered = 0;
  for (const msg of messages) {
    const mail = renderFor(env, msg);
    for (let attempt = 1; ; attempt++) {
      const outcome = await sendOnce(env, mail);
      if (outcome.sent) {
        delivered++;
        break;
      }
      if (outcome.abandoned || retryDelay(env, mail, attempt, outcome.error) === undefined) break;
    }
  }
  return delivered;
}

/**
 * Gives sends under way up to `timeoutMs` to finish, then abandons the rest (a queued message stays
 * queued) and releases the transport. Resolves to whether any send had to be abandoned.
 */
export async function abandonSends(env: Env, timeoutMs: number): Promise<boolean> {
  const state = states.get(env);
  if (!state) return false;
  let abandoned = false;
  if (state.sending.size > 0) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    const outcome = await Promise.race([Promise.allSettled([...state.sending.values()]), timedOut]);
    clearTimeout(timer);
    if (outcome === "timeout") {
      abandoned = state.sending.size > 0;
      for (const abort of state.sending.keys()) abort.abort();
      await Promise.allSettled([...state.sending.values()]);
    }
  }
  state.transport?.close();
  state.transport = undefined;
  return abandoned;
}
