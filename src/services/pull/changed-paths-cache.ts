import { changedPaths, type ChangedPath, type WhitespaceMode } from "../../git/pull-diff.ts";

/**
 * The changed files between two commits, remembered for the last few ranges asked for. Commit ids
 * never change meaning, so an entry can never go stale; a client paging through a large request's
 * files (or reading the request after its files) then pays for one diff, not one per page.
 */
const MAX_ENTRIES = 16;
const cache = new Map<string, Promise<ChangedPath[]>>();

export function cachedChangedPaths(gitDir: string, from: string, to: string, whitespace: WhitespaceMode = ""): Promise<ChangedPath[]> {
  const key = `${gitDir}\0${from}\0${to}\0${whitespace}`;
  const hit = cache.get(key);
  if (hit) {
    // Most recently used last, so the oldest entry is the first to go.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const computed = changedPaths(gitDir, from, to, whitespace);
  cache.set(key, computed);
  // A failed diff is not remembered: the next request tries again.
  computed.catch(() => cache.get(key) === computed && cache.delete(key));
  while (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return computed;
}
