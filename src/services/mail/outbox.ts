import type { Env } from "../env.ts";
import type { Logger } from "../../lib/log.ts";
import type { MailMessage } from "../../mail/message.ts";
import { createMailTransport, MailDeliveryError, type MailTransport } from "../../mail/transport.ts";

/** Waits before the second and third attempt; a mail server restart or greylisting usually passes within them. */
const RETRY_DELAYS_MS = [10_000, 60_000];

interface Pending {
  msg: MailMessage;
  /** Failed attempts so far. */
  failures: number;
}

/**
 * Sends mail in the background, one message at a time, so that no request waits for (or fails
 * because of) the mail server. In memory: unlike Gitea's mail queue (kept in its persistent queue
 * store) mail still queued when the process stops is lost, so `close()` at shutdown delivers what
 * it can. A persistent job queue (ARCHITECTURE.md's queue/) is where this should move once it exists.
 */
export class MailOutbox {
  private readonly queue: Pending[] = [];
  /** Messages waiting out a retry delay, by their timer. */
  private readonly waiting = new Map<ReturnType<typeof setTimeout>, Pending>();
  private running = false;
  /** While a flush is under way, retries skip their delay. */
  private hurry = 0;
  private closed = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly transport: MailTransport,
    private readonly log: Logger,
    private readonly retryDelaysMs: readonly number[] = RETRY_DELAYS_MS,
  ) {}

  /** Never throws and never waits: the caller is usually mid-request. */
  enqueue(msg: MailMessage): void {
    if (this.closed) {
      this.log.warn("mail dropped: the mailer is shut down", { info: msg.info });
      return;
    }
    this.queue.push({ msg, failures: 0 });
    this.kick();
  }

  /**
   * Resolves once everything queued has been delivered or given up on. Retries still waiting
   * are tried at once, without their delay: for tests, and for shutdown, the last chance.
   */
  async flush(): Promise<void> {
    this.hurry++;
    try {
      for (const [timer, pending] of this.waiting) {
        clearTimeout(timer);
        this.waiting.delete(timer);
        this.queue.push(pending);
      }
      this.kick();
      if (this.running || this.queue.length > 0 || this.waiting.size > 0) {
        await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
      }
    } finally {
      this.hurry--;
    }
  }

  /** Delivers what is queued, then refuses new mail and releases the transport. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.flush();
    this.closed = true;
    this.transport.close();
  }

  private kick(): void {
    if (this.running) return;
    this.running = true;
    void this.drain();
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const pending = this.queue.shift()!;
      try {
        await this.transport.send(pending.msg);
      } catch (err) {
        this.failed(pending, err);
      }
    }
    this.running = false;
    if (this.waiting.size === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private failed(pending: Pending, err: unknown): void {
    pending.failures++;
    const error = err instanceof Error ? err.message : String(err);
    const permanent = err instanceof MailDeliveryError && err.permanent;
    const delay = this.retryDelaysMs[pending.failures - 1];
    if (permanent || delay === undefined) {
      this.log.error("mail could not be delivered", { info: pending.msg.info, attempts: pending.failures, error });
      return;
    }
    this.log.warn("mail delivery failed, will retry", { info: pending.msg.info, attempt: pending.failures, error });
    if (this.hurry > 0) {
      this.queue.push(pending);
      return;
    }
    const timer = setTimeout(() => {
      this.waiting.delete(timer);
      this.queue.push(pending);
      this.kick();
    }, delay);
    timer.unref?.();
    this.waiting.set(timer, pending);
  }
}

const outboxes = new WeakMap<Env, MailOutbox>();

/** The outbox of this process, made on first use; undefined while `[mailer] ENABLED` is false. */
function outboxOf(env: Env): MailOutbox | undefined {
  const mailer = env.settings.mailer;
  if (!mailer.enabled) return undefined;
  let outbox = outboxes.get(env);
  if (!outbox) {
    outbox = new MailOutbox(createMailTransport(mailer, env.settings.server.domain, env.log), env.log);
    outboxes.set(env, outbox);
  }
  return outbox;
}

/** Queues messages for background delivery; returns how many were queued (none when the mailer is off). */
export function queueMail(env: Env, messages: readonly MailMessage[]): number {
  const outbox = outboxOf(env);
  if (!outbox) return 0;
  for (const msg of messages) outbox.enqueue(msg);
  return messages.length;
}

/** Waits until queued mail is delivered or given up on (retries are not delayed meanwhile). */
export async function flushMail(env: Env): Promise<void> {
  await outboxes.get(env)?.flush();
}

/** How long shutdown waits for queued mail: a hung mail server must not hold the process past systemd's stop timeout. */
const CLOSE_TIMEOUT_MS = 20_000;

/**
 * At shutdown: delivers what is queued (for at most `timeoutMs`), then closes the transport. The
 * closed outbox stays in place, so mail queued after this is logged as dropped, not sent by a new one.
 */
export async function closeMail(env: Env, timeoutMs = CLOSE_TIMEOUT_MS): Promise<void> {
  const outbox = outboxes.get(env);
  if (!outbox) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  const outcome = await Promise.race([outbox.close(), timedOut]);
  clearTimeout(timer);
  if (outcome === "timeout") env.log.warn("shutting down with mail still undelivered", { waitedMs: timeoutMs });
}
