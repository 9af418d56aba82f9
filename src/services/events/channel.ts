import type { Env } from "../env.ts";
import type { Tx } from "../../db/client.ts";
import { declareChannel, recordEvent, type ChannelName, type HeldEvent } from "./bus.ts";

export type { Listener } from "./bus.ts";

/**
 * A typed event channel on the bus (bus.ts): services announce what happened inside the
 * transaction of the change, subscribers (in-app notifications, webhooks, mail, automerge) hear of
 * it from the bus's worker after the commit, each on its own, never failing the change. They
 * subscribe through the Env (`env.bus.subscribe(channel, listener)`), at the composition root. An
 * event travels as JSON: rows and plain values only, no Dates, Maps or class instances.
 */
export interface Channel<T> extends ChannelName<T> {
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
  declareChannel(name);
  return {
    name,
    emit(tx, env, event) {
      recordEvent(tx, env, name, event);
    },
    hold(tx, env, event) {
      return recordEvent(tx, env, name, event, true);
    },
  };
}
