import type { PulseListener } from "./request-pulse.ts";

/**
 * Keeps the server's memory near what it holds live. JavaScriptCore collects when its heap has grown
 * by a factor, and the allocators keep freed pages until a collection hands them back, so a server
 * answering large lists at full speed sat 20–35 MiB above its live heap for as long as the load
 * lasted (bench/RESULTS.md, "Memory under sustained load"). A full collection once per interval in
 * which requests were served (request-pulse.ts) caps that: a few milliseconds a second under load,
 * nothing when idle.
 */
export const keepHeapSmall: PulseListener = (served) => {
  if (served > 0) Bun.gc(true);
};
