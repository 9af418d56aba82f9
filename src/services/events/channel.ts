import type { Env } from "../env.ts";

/**
 * A typed in-process event channel: services announce what happened, subscribers (webhooks,
 * automerge...) react after the announcing transaction, each on its own, never failing it.
 */
export interface Channel<T> {
  subscribe(listener: (env: Env, event: T) => void | Promise<void>): () => void;
  emit(env: Env, event: T): void;
}

export function createChannel<T>(name: string): Channel<T> {
  const listeners = new Set<(env: Env, event: T) => void | Promise<void>>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(env, event) {
      for (const listener of listeners) {
        queueMicrotask(() => {
          Promise.resolve()
            .then(() => listener(env, event))
            .catch((err: unknown) => env.log.error(`${name} listener failed`, { error: (err as Error)?.stack ?? String(err) }));
        });
      }
    },
  };
}
