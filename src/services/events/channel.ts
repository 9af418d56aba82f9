import type { Env } from "../env.ts";
import type { Tx } from "../../db/client.ts";
import { addChannel, recordEvent, type HeldEvent } from "./bus.ts";

export type Listener<T> = (env: Env, event: T) => void | Promise<void>;

/**
 * A typed event channel on the bus (bus.ts): services announce what happened inside the
 * transaction of the change, subscribers (webhooks, automerge...) hear of it from the bus's worker
 * after the commit, each on its own, never failing the change. An event travels as JSON: rows and
 * plain values only, no Dates, Maps or class instances.
 */
export interface Channel<T> {
  readonly name: string;
  /** Subscribes for this process; returns the unsubscribe function. */
  subscribe(listener: Listener<T>): () => void;
  /** Records the event in `tx`, the change's own transaction: delivered once it commits, never if it rolls back. */
  emit(tx: Tx, env: Env, event: T): void;
  /**
   * Records the event in `tx` but holds it back until `releaseEvent`, for a change that goes on
   * after this transaction (git work, a check): the subscribers then read the finished state. The
   * event is durable from this commit on; if the process dies before the release, it is
   * delivered when the hold runs out.
   */
  hold(tx: Tx, env: Env, event: T): HeldEvent;
}

export function createChannel<T>(name: string): Channel<T> {
  const listeners = new Set<Listener<T>>();
  addChannel(name, {
    async dispatch(env, event) {
      // One after another, each failure logged and contained: no subscriber keeps another from its event.
      for (const listener of [...listeners]) {
        try {
          await listener(env, event as T);
        } catch (err) {
          env.log.error(`${name} listener failed`, { error: (err as Error)?.stack ?? String(err) });
        }
      }
    },
  });
  return {
    name,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(tx, env, event) {
      recordEvent(tx, env, name, event);
    },
    hold(tx, env, event) {
      return recordEvent(tx, env, name, event, true);
    },
  };
}
