import { html, type Html } from "../../../lib/html.ts";

const UNITS: [number, string][] = [
  [365 * 86400, "year"],
  [30 * 86400, "month"],
  [7 * 86400, "week"],
  [86400, "day"],
  [3600, "hour"],
  [60, "minute"],
];

/** "3 days ago" in a <time> element whose title and datetime carry the exact moment. */
export function timeAgo(unix: number, now = Math.floor(Date.now() / 1000)): Html {
  const iso = new Date(unix * 1000).toISOString();
  const diff = now - unix;
  let text = "just now";
  if (diff < 0) text = "in the future";
  else {
    for (const [seconds, unit] of UNITS) {
      if (diff >= seconds) {
        const n = Math.floor(diff / seconds);
        text = `${n} ${unit}${n === 1 ? "" : "s"} ago`;
        break;
      }
    }
    if (text === "just now" && diff >= 10) text = `${diff} seconds ago`;
  }
  return html`<time datetime="${iso}" title="${iso.replace("T", " ").replace(/\.\d+Z$/, " UTC")}">${text}</time>`;
}

/** A date as people read it: 2026-11-26. */
export function dateOnly(unix: number): string {
  return new Date(unix * 1000).toISOString().slice(0, 10);
}
