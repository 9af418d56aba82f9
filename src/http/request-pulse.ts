/**
 * Counts the requests the server answers and, once per interval, tells each listener how many that
 * interval saw: the work that follows the server's load (a heap collection, the JIT's policy) runs
 * from one timer, and a request only bumps a counter.
 */
export interface RequestPulse {
  /** Notes that a request arrived. */
  touch(): void;
  stop(): void;
}

export type PulseListener = (served: number) => void;

export function requestPulse(intervalMs: number, listeners: PulseListener[]): RequestPulse {
  let served = 0;
  const timer = setInterval(() => {
    const seen = served;
    served = 0;
    for (const listener of listeners) listener(seen);
  }, intervalMs);
  timer.unref();
  return {
    touch() {
      served++;
    },
    stop() {
      clearInterval(timer);
    },
  };
}
