/**
 * One merge or update at a time per branch within this process (Gitea's pullWorkingPool), so two
 * merges into the same base do not both compute against the same tip and then race the ref; the
 * ref's compare-and-swap still guards against pushes from outside.
 */
const tails = new Map<string, Promise<unknown>>();

export async function withBranchLock<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(work, work);
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  try {
    return await run;
  } finally {
    if (tails.get(key) === tail) tails.delete(key);
  }
}
