import { readFileSync } from "node:fs";

/** Helpers every benchmark script shares: a free port, a median, a process's CPU time. */

/** A port nothing listens on at the moment (asked of the kernel through a throwaway server). */
export function freePort(): number {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** USER_HZ: sysconf(_SC_CLK_TCK) is 100 on every Linux these scripts run on. */
const CLK_TCK = 100;

/** A process's own user + system CPU time so far, ms (`/proc/PID/stat` fields 14 and 15). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK;
}
