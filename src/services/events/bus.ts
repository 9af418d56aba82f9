import type { Env } from "../env.ts";
import type { Tx } from "../../db/client.ts";

/**
 * The event bus: every announced event is a work-queue item, put inside the transaction of the
 * change it tells of (an outbox). So an event exists exactly when its change committed, survives a
 * crash or restart, and reaches the subscribers from the queue's worker, after the commit and
 * apart from the request. Delivery is at least once: an item cut short by a crash is run again,
 * so a subscriber may then see an event twice; none is lost.
 */
export const EVENTS_QUEUE = "events";

/** What an item of the events queue holds: the channel's name and the event, as JSON. */
export interface Envelope {
  channel: string;
  event: unknown;
}

/** A channel as the bus sees it: something that hands an event to its subscribers. */
export interface Dispatcher {
  dispatch(env: Env, event: unknown): Promise<void>;
}

/**
 * How long an event recorded with `hold` waits for its release: longer than the git work a
 * request does between its first transaction and its last. Only a request that died in between
 * lets it run out, and then the event is delivered late rather than never.
 */
export const HOLD_MS = 5 * 60_000;

/** An event recorded but held back until the change it tells of is complete (see Channel.hold). */
export interface HeldEvent {
  itemId: number;
}

const channels = new Map<string, Dispatcher>();

/** Makes a channel known to the bus under its name, the name its items carry. */
export function addChannel(name: string, dispatcher: Dispatcher): void {
  if (channels.has(name)) throw new Error(`event channel ${name} exists already`);
  channels.set(name, dispatcher);
}

/** Puts the event on the bus inside `tx`; `held`: due only once released (or after HOLD_MS). */
export function recordEvent(tx: Tx, env: Env, channel: string, event: unknown, held = false): HeldEvent {
  const itemId = env.queue.put(tx, EVENTS_QUEUE, { channel, event } satisfies Envelope, held ? { delayMs: HOLD_MS } : {});
  return { itemId };
}

/** The change a held event tells of is complete: the event is delivered once `tx` commits. */
export function releaseEvent(tx: Tx, env: Env, held: HeldEvent): void {
  env.queue.release(tx, held.itemId);
}

/** The change a held event tells of was undone: the event goes too. */
export function withdrawEvent(tx: Tx, env: Env, held: HeldEvent): void {
  env.queue.withdraw(tx, held.itemId);
}

/**
 * How often the server looks for events that another process recorded: admin commands
 * (`restore-repo`) open the database themselves and never start workers, so their events wait
 * in the table for the server, whose workers their puts cannot wake.
 */
export const FOREIGN_EVENTS_POLL_MS = 10_000;

/**
 * Registers the bus's worker on the process's queue. One item at a time, oldest first (the queue
 * claims in order of due time, then id, and every transaction commits under one write lock), so
 * every subscriber sees the events in the order their changes committed. A subscriber that fails
 * is logged and skipped, never retried: retrying the item would repeat the event to the others.
 */
export function registerEventBus(env: Env): void {
  env.queue.register<Envelope>(
    EVENTS_QUEUE,
    async ({ channel, event }) => {
      const dispatcher = channels.get(channel);
      if (!dispatcher) {
        env.log.error("event of an unknown channel dropped", { channel });
        return;
      }
      await dispatcher.dispatch(env, event);
    },
    { concurrency: 1, pollMs: FOREIGN_EVENTS_POLL_MS },
  );
}
