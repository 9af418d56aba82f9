import { html, trusted, type Html } from "../../../lib/html.ts";
import { ActionStatus } from "../../../services/actions/web-views.ts";
import { humanDuration, statusName } from "../../../services/actions/status.ts";

const svg = (paths: string, extra = "") =>
  trusted(
    `<svg class="octicon${extra}" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round">${paths}</svg>`,
  );

/** Gitea's icons for a run's, job's or step's state (octicons in its templates), drawn as strokes. */
const ICONS: Record<string, Html> = {
  success: svg(`<circle cx="8" cy="8" r="6.25"/><path d="M5.3 8.2l1.9 1.9 3.6-3.8"/>`),
  failure: svg(`<circle cx="8" cy="8" r="6.25"/><path d="M5.8 5.8l4.4 4.4M10.2 5.8l-4.4 4.4"/>`),
  cancelled: svg(`<circle cx="8" cy="8" r="6.25"/><path d="M3.6 12.4l8.8-8.8"/>`),
  skipped: svg(`<circle cx="8" cy="8" r="6.25"/><path d="M5.5 8h5"/>`),
  waiting: svg(`<circle cx="8" cy="8" r="6.25"/><circle cx="8" cy="8" r="2" fill="currentColor"/>`),
  running: svg(`<circle cx="8" cy="8" r="6.25" stroke-dasharray="3 2.2"/><circle cx="8" cy="8" r="2" fill="currentColor"/>`),
  blocked: svg(`<circle cx="8" cy="8" r="6.25"/><path d="M8 4.8v3.6M8 10.9v.2"/>`),
  unknown: svg(`<circle cx="8" cy="8" r="6.25"/><path d="M6.3 6.3a1.8 1.8 0 1 1 2.4 1.7c-.5.2-.7.6-.7 1.1M8 11v.2"/>`),
};

/** The words for a state, as Gitea's locale has them (actions.status.*). */
const WORDS: Record<string, string> = {
  success: "Success",
  failure: "Failure",
  cancelled: "Canceled",
  skipped: "Skipped",
  waiting: "Waiting",
  running: "Running",
  blocked: "Blocked",
  unknown: "Unknown",
};

export const statusWords = (status: number): string => WORDS[statusName(status)] ?? "Unknown";

/** A state's icon with its words for screen readers and a tooltip (colour is never the only sign). */
export function actionStatusIcon(status: number): Html {
  const name = statusName(status);
  const words = WORDS[name] ?? "Unknown";
  return html`<span class="run-state ${name}" title="${words}">${ICONS[name] ?? ICONS.unknown}<span class="sr-only">${words}</span></span>`;
}

/** A state as a labelled badge (the run's and the job's headings). */
export function actionStatusBadge(status: number): Html {
  const name = statusName(status);
  return html`<span class="run-badge ${name}">${ICONS[name] ?? ICONS.unknown}${WORDS[name] ?? "Unknown"}</span>`;
}

/** Seconds as Gitea's pages show a duration ("1m 5s"); nothing for what never started. */
export function durationText(seconds: number, started: boolean): string {
  return started || seconds > 0 ? humanDuration(seconds) : "";
}

/** Whether a state still changes on its own (the pages refresh themselves while it does). */
export const isLive = (status: number): boolean =>
  status === ActionStatus.Running || status === ActionStatus.Waiting || status === ActionStatus.Blocked;
