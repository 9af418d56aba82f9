/**
 * `on.schedule` cron specs as Gitea reads them (robfig/cron v3 with minute, hour, day of month, month, day
 * of week and descriptors): `*`, `?`, lists, ranges, steps, month and weekday names, `@yearly`/`@annually`,
 * `@monthly`, `@weekly`, `@daily`/`@midnight`, `@hourly`, `@every <duration>`, and an optional `TZ=` or
 * `CRON_TZ=` prefix. Without one a spec runs in UTC, as Gitea sets.
 */

export class CronError extends Error {
  override name = "CronError";
}

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12,
};
const DAYS: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

const FIELDS: [string, Bounds][] = [
  ["minute", { min: 0, max: 59 }],
  ["hour", { min: 0, max: 23 }],
  ["day of month", { min: 1, max: 31 }],
  ["month", { min: 1, max: 12, names: MONTHS }],
  ["day of week", { min: 0, max: 6, names: DAYS }],
];

const DESCRIPTORS: Record<string, string> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};

interface Field {
  values: Set<number>;
  /** Written as `*` or `?` (or `*` with step 1): robfig's star bit, which changes how the day fields combine. */
  star: boolean;
}

export type CronSchedule =
  | { kind: "spec"; minute: Field; hour: Field; dom: Field; month: Field; dow: Field; timeZone: string }
  | { kind: "every"; seconds: number };

function parseNumber(text: string, bounds: Bounds, expr: string): number {
  const named = bounds.names?.[text.toLowerCase()];
  if (named !== undefined) return named;
  if (!/^\d+$/.test(text)) throw new CronError(`failed to parse int from ${text} in "${expr}"`);
  return Number(text);
}

function parseRange(expr: string, bounds: Bounds, field: Field): void {
  const [rangePart, stepPart, ...tooMany] = expr.split("/");
  if (tooMany.length > 0) throw new CronError(`too many slashes: ${expr}`);
  const lowHigh = rangePart!.split("-");
  let start: number;
  let end: number;
  let star = false;
  if (lowHigh[0] === "*" || lowHigh[0] === "?") {
    start = bounds.min;
    end = bounds.max;
    star = true;
  } else {
    if (lowHigh.length > 2) throw new CronError(`too many hyphens: ${expr}`);
    start = parseNumber(lowHigh[0]!, bounds, expr);
    end = lowHigh.length === 2 ? parseNumber(lowHigh[1]!, bounds, expr) : start;
  }
  let step = 1;
  if (stepPart !== undefined) {
    if (!/^\d+$/.test(stepPart)) throw new CronError(`failed to parse int from ${stepPart} in "${expr}"`);
    step = Number(stepPart);
    if (lowHigh.length === 1) end = bounds.max; // "N/step" means "N-max/step"
    if (step > 1) star = false;
  }
  if (start < bounds.min) throw new CronError(`beginning of range (${start}) below minimum (${bounds.min}): ${expr}`);
  if (end > bounds.max) throw new CronError(`end of range (${end}) above maximum (${bounds.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
  for (let v = start; v <= end; v += step) field.values.add(v);
  if (star) field.star = true;
}

function parseField(text: string, bounds: Bounds): Field {
  const field: Field = { values: new Set(), star: false };
  for (const part of text.split(",")) parseRange(part, bounds, field);
  return field;
}

/** Go's time.ParseDuration for `@every` (units h, m, s, ms, us, ns; fractions allowed). */
function parseGoDuration(text: string): number {
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 1e-3, us: 1e-6, "µs": 1e-6, ns: 1e-9 };
  if (!/^(\d+(\.\d*)?(h|m|s|ms|us|µs|ns))+$/.test(text)) throw new CronError(`failed to parse duration @every ${text}`);
  let total = 0;
  for (const m of text.matchAll(/(\d+(?:\.\d*)?)(ms|us|µs|ns|h|m|s)/g)) total += Number(m[1]) * units[m[2]!]!;
  return total;
}

function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Parses a spec, throwing `CronError` with robfig's reason when it is not valid. */
export function parseCron(spec: string): CronSchedule {
  let text = spec.trim();
  let timeZone = "UTC";
  const tz = /^(?:CRON_TZ|TZ)=(\S+)\s*/.exec(text);
  if (tz) {
    timeZone = tz[1]!;
    if (!isValidTimeZone(timeZone)) throw new CronError(`provided bad location ${timeZone}`);
    text = text.slice(tz[0].length);
  }
  if (text === "") throw new CronError("empty spec string");
  if (text.startsWith("@")) {
    if (text.startsWith("@every ")) {
      const seconds = parseGoDuration(text.slice("@every ".length).trim());
      // robfig rounds the delay down to whole seconds, and runs at least once a second
      return { kind: "every", seconds: Math.max(1, Math.floor(seconds)) };
    }
    const expanded = DESCRIPTORS[text]; // robfig matches descriptors exactly, lower case
    if (!expanded) throw new CronError(`unrecognized descriptor: ${text}`);
    text = expanded;
  }
  const parts = text.split(/\s+/);
  if (parts.length !== 5) throw new CronError(`expected exactly 5 fields, found ${parts.length}: ${text}`);
  const [minute, hour, dom, month, dow] = parts.map((p, i) => parseField(p, FIELDS[i]![1]));
  return { kind: "spec", minute: minute!, hour: hour!, dom: dom!, month: month!, dow: dow!, timeZone };
}

/** The spec's error message, or undefined when it is valid. */
export function validateCron(spec: string): string | undefined {
  try {
    parseCron(spec);
    return undefined;
  } catch (err) {
    if (err instanceof CronError) return err.message;
    throw err;
  }
}

/** The zone's offset from UTC in seconds at an instant. */
function zoneOffset(unixSeconds: number, timeZone: string): number {
  if (timeZone === "UTC") return 0;
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric",
  }).formatToParts(new Date(unixSeconds * 1000));
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const wall = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second")) / 1000;
  return wall - unixSeconds;
}

function dayMatches(s: Extract<CronSchedule, { kind: "spec" }>, d: Date): boolean {
  const domMatch = s.dom.values.has(d.getUTCDate());
  const dowMatch = s.dow.values.has(d.getUTCDay());
  // robfig: with either day field a star both must match, otherwise either may
  return s.dom.star || s.dow.star ? domMatch && dowMatch : domMatch || dowMatch;
}

/** The first run strictly after `afterUnixSeconds` (whole seconds); throws when the spec never fires. */
export function nextRun(spec: string | CronSchedule, afterUnixSeconds: number): number {
  const s = typeof spec === "string" ? parseCron(spec) : spec;
  if (s.kind === "every") return Math.floor(afterUnixSeconds) + s.seconds;
  // Work on the wall clock of the spec's zone, kept in a Date's UTC fields.
  const offset = zoneOffset(afterUnixSeconds, s.timeZone);
  const d = new Date((Math.floor(afterUnixSeconds / 60) * 60 + 60 + offset) * 1000);
  const limitYear = d.getUTCFullYear() + 5;
  while (d.getUTCFullYear() <= limitYear) {
    if (!s.month.values.has(d.getUTCMonth() + 1)) {
      d.setUTCMonth(d.getUTCMonth() + 1, 1);
      d.setUTCHours(0, 0, 0, 0);
      continue;
    }
    if (!dayMatches(s, d)) {
      d.setUTCDate(d.getUTCDate() + 1);
      d.setUTCHours(0, 0, 0, 0);
      continue;
    }
    if (!s.hour.values.has(d.getUTCHours())) {
      d.setUTCHours(d.getUTCHours() + 1, 0, 0, 0);
      continue;
    }
    if (!s.minute.values.has(d.getUTCMinutes())) {
      d.setUTCMinutes(d.getUTCMinutes() + 1, 0, 0);
      continue;
    }
    const wall = d.getTime() / 1000;
    // wall clock → instant: the offset that holds at the instant itself (two rounds settle DST changes)
    let instant = wall - zoneOffset(wall - offset, s.timeZone);
    instant = wall - zoneOffset(instant, s.timeZone);
    if (instant > afterUnixSeconds) return instant;
    d.setUTCMinutes(d.getUTCMinutes() + 1, 0, 0);
  }
  throw new CronError(`the schedule never fires: ${typeof spec === "string" ? spec : "(parsed spec)"}`);
}
