/**
 * Go's time.Duration text form, as Gitea reads and prints durations (`[mirror] MIN_INTERVAL`, a
 * push mirror's `interval`): ParseDuration and Duration.String(), in nanoseconds. Exact arithmetic
 * on bigint; values are handed out as numbers (whole seconds stay exact far beyond any interval).
 */

const UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  "\u00b5s": 1_000n,
  "\u03bcs": 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const MAX = (1n << 63n) - 1n;

/** Go's error text for a duration it refuses. */
export class DurationError extends Error {}

const quote = (s: string) => JSON.stringify(s);

/** time.ParseDuration: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+`, or `0`. Throws Go's message. */
export function parseGoDuration(text: string): number {
  let s = text;
  let neg = false;
  if (s.startsWith("-") || s.startsWith("+")) {
    neg = s[0] === "-";
    s = s.slice(1);
  }
  if (s === "0") return 0;
  if (s === "") throw new DurationError(`time: invalid duration ${quote(text)}`);
  let total = 0n;
  while (s !== "") {
    if (!/^[0-9.]/.test(s)) throw new DurationError(`time: invalid duration ${quote(text)}`);
    const m = /^([0-9]*)(?:\.([0-9]*))?/.exec(s)!;
    const whole = m[1] ?? "";
    const frac = m[2];
    if (whole === "" && (frac === undefined || frac === "")) throw new DurationError(`time: invalid duration ${quote(text)}`);
    s = s.slice(m[0].length);
    const unitMatch = /^[^0-9.]*/.exec(s)![0];
    if (unitMatch === "") throw new DurationError(`time: missing unit in duration ${quote(text)}`);
    const unit = UNITS[unitMatch];
    if (unit === undefined) throw new DurationError(`time: unknown unit ${quote(unitMatch)} in duration ${quote(text)}`);
    s = s.slice(unitMatch.length);
    let v = BigInt(whole || "0") * unit;
    if (frac) {
      // Go keeps the fraction's precision to the nanosecond, truncating beyond it.
      const scale = 10n ** BigInt(frac.length);
      v += (BigInt(frac) * unit) / scale;
    }
    total += v;
    if (total > MAX) throw new DurationError(`time: invalid duration ${quote(text)}`);
  }
  return Number(neg ? -total : total);
}

function fraction(v: bigint, unit: bigint): string {
  const whole = v / unit;
  const rest = v % unit;
  if (rest === 0n) return whole.toString();
  const digits = rest.toString().padStart(unit.toString().length - 1, "0").replace(/0+$/, "");
  return `${whole}.${digits}`;
}

/** Duration.String(): `8h0m0s`, `10m0s`, `1.5s`, `300ms`, `0s`. */
export function formatGoDuration(ns: number): string {
  let u = BigInt(Math.trunc(ns));
  if (u === 0n) return "0s";
  const sign = u < 0n ? "-" : "";
  if (u < 0n) u = -u;
  if (u < 1_000n) return `${sign}${u}ns`;
  if (u < 1_000_000n) return `${sign}${fraction(u, 1_000n)}\u00b5s`;
  if (u < 1_000_000_000n) return `${sign}${fraction(u, 1_000_000n)}ms`;
  const secs = `${fraction(u % 60_000_000_000n, 1_000_000_000n)}s`;
  if (u < 60_000_000_000n) return `${sign}${secs}`;
  const mins = (u / 60_000_000_000n) % 60n;
  if (u < 3_600_000_000_000n) return `${sign}${mins}m${secs}`;
  return `${sign}${u / 3_600_000_000_000n}h${mins}m${secs}`;
}
