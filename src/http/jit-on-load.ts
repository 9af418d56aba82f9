import type { PulseListener } from "./request-pulse.ts";

/**
 * Turns JavaScriptCore's JIT to its normal policy once the server is under load. The executable
 * starts with the JIT very reluctant (scripts/build.ts, `--compile-jit-policy`): start-up code runs
 * once, and each tier the JIT compiles to costs memory, its compiler's machine code paged in and
 * the code it makes. A server that idles or answers now and then stays in the interpreter (idle RSS
 * 60 → 54 MiB measured, README "Start-up and memory"); the first second (request-pulse.ts) that
 * sees `perSecond` requests sets the normal policy for good, so sustained load is served by the
 * optimising tiers.
 */
export function jitOnLoad(perSecond: number, setPolicy = Bun.unsafe.setJITPolicy): PulseListener {
  let on = false;
  return (served) => {
    if (on || served < perSecond) return;
    setPolicy(1);
    on = true;
  };
}
