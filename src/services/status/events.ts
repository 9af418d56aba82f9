import type { Env } from "../env.ts";
import type { CommitStatusRow } from "../../db/schema/index.ts";

/** What a listener learns about a stored commit status. */
export interface CommitStatusEvent {
  env: Env;
  repoId: number;
  /** The full commit id the status was stored against. */
  sha: string;
  status: CommitStatusRow;
}

export type CommitStatusListener = (event: CommitStatusEvent) => void | Promise<void>;

const listeners = new Set<CommitStatusListener>();

/**
 * Subscribes to stored commit statuses (automerge waits on them). Returns the unsubscribe
 * function. Listeners run after the request's transaction, never inside it.
 */
export function onCommitStatus(listener: CommitStatusListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Tells every listener, each on its own and later: a failing listener is logged and never fails
 * the request that created the status, nor keeps the others from running.
 */
export function emitCommitStatus(event: CommitStatusEvent): void {
  for (const listener of listeners) {
    queueMicrotask(() => {
      Promise.resolve()
        .then(() => listener(event))
        .catch((err: unknown) => {
          event.env.log.error("commit status listener failed", { error: (err as Error)?.stack ?? String(err) });
        });
    });
  }
}
