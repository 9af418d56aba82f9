import type { Env } from "../env.ts";

/**
 * One sync of a mirror at a time in this process (push and pull mirrors alike): a second trigger
 * for a mirror whose sync runs is told to come back later instead of racing it.
 */
export const BUSY_RETRY_MS = 1000;

const running = new WeakMap<Env, Set<string>>();

/** Runs `work` unless a sync of the same mirror runs; `{ ran: false }` when one does. */
export async function exclusively<T>(env: Env, kind: "push" | "pull", id: number, work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
  let busy = running.get(env);
  if (!busy) running.set(env, (busy = new Set()));
  const key = `${kind}:${id}`;
  if (busy.has(key)) return { ran: false };
  busy.add(key);
  try {
    return { ran: true, value: await work() };
  } finally {
    busy.delete(key);
  }
}
