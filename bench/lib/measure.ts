import { readFileSync } from "node:fs";

/** Helpers every benchmark script shares: a free port, a median, CPU time of a process and of the machine. */

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
export const CLK_TCK = 100;

/** A process's own user + system CPU time so far, ms (`/proc/PID/stat` fields 14 and 15). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK;
}

/** Busy CPU time of the whole machine so far, ms (all CPUs, from /proc/stat; iowait and idle excluded). */
export function machineBusyMs(): number {
  const f = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal guest guest_nice; guest time is already in user.
  return ((f[0]! + f[1]! + f[2]! + f[5]! + f[6]! + f[7]!) * 1000) / CLK_TCK;
}

/** Waits until the machine is nearly idle (fewer than `busyBelow` CPUs busy over 1 s); false after maxMs. */
export async function waitQuiet(maxMs: number, busyBelow = 0.25): Promise<boolean> {
  const until = performance.now() + maxMs;
  for (;;) {
    const b0 = machineBusyMs();
    const t0 = performance.now();
    await Bun.sleep(1000);
    if ((machineBusyMs() - b0) / (performance.now() - t0) < busyBelow) return true;
    if (performance.now() > until) return false;
  }
}
