/** Unix seconds now; every stored timestamp uses this unit, as Gitea's timeutil.TimeStamp does. */
export const nowUnix = (): number => Math.floor(Date.now() / 1000);

/**
 * Renders Unix seconds as RFC 3339 with the server's local offset, the way Gitea's JSON does
 * (`2024-01-02T15:04:05+01:00`), never with milliseconds.
 */
export function toRFC3339(unix: number): string {
  const d = new Date(unix * 1000);
  const offsetMin = -d.getTimezoneOffset();
  const local = new Date(d.getTime() + offsetMin * 60_000);
  const base = local.toISOString().slice(0, 19);
  if (offsetMin === 0) return `${base}Z`;
  const sign = offsetMin > 0 ? "+" : "-";
  const abs = Math.abs(offsetMin);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `${base}${sign}${hh}:${mm}`;
}

/** Parses an RFC 3339 / ISO 8601 date-time into Unix seconds; undefined when it is not one. */
export function parseDateTime(value: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}
