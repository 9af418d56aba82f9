/**
 * Gitea's human-readable durations (modules/util/sec_to_time.go), used in time-tracking timeline
 * events and stopwatch listings: "1 hour 2 minutes", "3 weeks 1 day".
 */

function unit(value: number, name: string): string {
  if (value === 1) return `1 ${name} `;
  if (value > 1) return `${value} ${name}s `;
  return "";
}

/**
 * Gitea's SecToTime: the two most significant units (years and months, months and weeks, ... minutes
 * and seconds). Months are twelfths of a 365-day year, as Gitea counts them.
 */
export function secToTime(seconds: number): string {
  const duration = Math.trunc(seconds);
  let remainingDays = Math.trunc(duration / 86400);
  const years = Math.trunc(remainingDays / 365);
  remainingDays -= years * 365;
  const months = Math.trunc((remainingDays * 12) / 365);
  remainingDays -= Math.trunc((months * 365) / 12);
  const weeks = Math.trunc(remainingDays / 7);
  remainingDays -= weeks * 7;
  const days = remainingDays;
  const hours = Math.trunc(duration / 3600) % 24;
  const minutes = Math.trunc(duration / 60) % 60;
  const secs = duration % 60;
  let out: string;
  if (years > 0) out = unit(years, "year") + unit(months, "month");
  else if (months > 0) out = unit(months, "month") + unit(weeks, "week");
  else if (weeks > 0) out = unit(weeks, "week") + unit(days, "day");
  else if (days > 0) out = unit(days, "day") + unit(hours, "hour");
  else if (hours > 0) out = unit(hours, "hour") + unit(minutes, "minute");
  else out = unit(minutes, "minute") + unit(secs, "second");
  return out.trimEnd();
}

/** Gitea's SecToHours: hours and minutes only (a working day's sum), seconds below one minute. */
export function secToHours(seconds: number): string {
  const duration = Math.trunc(seconds);
  let out = unit(Math.trunc(duration / 3600), "hour") + unit(Math.trunc(duration / 60) % 60, "minute");
  if (out === "" && duration > 0) out = unit(duration, "second");
  return out.trimEnd();
}
