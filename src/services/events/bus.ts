import type { Env } from "../env.ts";
import type { Tx } from "../../db/client.ts";

/**
 * The event bus: every announced event is a work-queue item, put inside the transaction of the
 * change it tells of (an outbox). So an event exists exactly when its change committed, survives a
 * crash or restart, and reaches the subscribers from the queue's worker, after the commit and
 * apart from the request. Delivery is at least once: an item cut short by a crash is run again,
 * so a subscriber may then see an event twice; none is lost.
 *
 * Who listens is decided by the composition root (src/compose.ts), once per Env: the subscribers
 * live in the Env's `EventBus`, not in module state, so two environments in one process (tests)
 * never hear each other's events and nothing is subscribed twice.
 */
export const EVENTS_QUEUE = "events";

/** What an item of the events queue holds: the channel's name and the event, as JSON. */
export interface Envelope {
  channel: string;
  event: unknown;
}

export type Listener<T> = (env: Env, event: T) => void | Promise<void>;

/** A channel as the bus needs it: the name its items carry (the event type is the channel's). */
export interface ChannelName<T> {
  readonly name: string;
  /** Never set: carries T so that subscribe can check the listener against the channel. */
  readonly _event?: T;
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

/** The channels that exist (declared once each, at module load), to tell a typo from a quiet channel. */
const channelNames = new Set<string>();

/** Declares a channel's name; a second channel of the same name is a programming error. */
export function declareChannel(name: string): void {
  if (channelNames.has(name)) throw new Error(`event channel ${name} exists already`);
  channelNames.add(name);
}

/** The subscribers of one Env, by channel, in the order they subscribed. */
export class EventBus {
  private readonly listeners = new Map<string, Listener<unknown>[]>();

  /** Subscribes `listener` to the channel; returns the unsubscribe function. */
  subscribe<T>(channel: ChannelName<T>, listener: Listener<T>): () => void {
    const list = this.listeners.get(channel.name) ?? [];
    list.push(listener as Listener<unknown>);
    this.listeners.set(channel.name, list);
    return () => {
      const at = list.indexOf(listener as Listener<unknown>);
      if (at >= 0) list.splice(at, 1);
    };
  }

  /**
   * Hands the event to the channel's subscribers, one after another, each failure logged and
   * contained: no subscriber keeps another from its event, and none is retried (retrying the item
   * would repeat the event to the others).
   */
  async dispatch(env: Env, { channel, event }: Envelope): Promise<void> {
    if (!channelNames.has(channel)) {
      env.log.error("event of an unknown channel dropped", { channel });
      return;
    }
    for (const listener of [...(this.listeners.get(channel) ?? [])]) {
      try {
        await listener(env, event);
      } catch (err) {
        env.log.error(`${channel} listener failed`, { error: (err as Error)?.stack ?? String(err) });
      }
    }
  }
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
 * Events one claim of the bus's worker takes: under load the claim and the settling commit are
 * shared by this many events instead of costing two commits each.
 */
export const EVENTS_BATCH = 64;

/**
 * How long a recorded event waits for others before the worker claims: under load the events of
 * several requests then share a claim and a settling commit, instead of each costing two; an
 * event reaches its subscribers this much later at most.
 */
export const EVENTS_GATHER_MS = 5;

/**
 * Registers the bus's worker on the process's queue. One item at a time, oldest first (the queue
 * claims in order of due time, then id, and every transaction commits under one write lock; a
 * claimed batch runs in that order), so every subscriber sees the events in the order their
 * changes committed.
 */
export function registerEventBus(env: Env): void {
  env.queue.register<Envelope>(EVENTS_QUEUE, (envelope) => env.bus.dispatch(env, envelope), {
    concurrency: 1,
    batch: EVENTS_BATCH,
    gatherMs: EVENTS_GATHER_MS,
    pollMs: FOREIGN_EVENTS_POLL_MS,
  });
}

/** Resolves once every event recorded so far has been handed to the subscribers (needs the workers running). */
export function eventsIdle(env: Env): Promise<void> {
  return env.queue.idle(EVENTS_QUEUE);
}
