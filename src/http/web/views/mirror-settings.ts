import { html, type Html } from "../../../lib/html.ts";
import { formatGoDuration } from "../../../config/go-duration.ts";
import type { PullMirrorRow } from "../../../db/schema/index.ts";
import type { WebState } from "../state.ts";
import { field, postForm } from "./form.ts";
import { timeAgo } from "./time.ts";

/**
 * A pull mirror's part of the repository settings page (Gitea's "Mirror Settings" section of
 * templates/repo/settings/options.tmpl, and the convert entry of its danger zone). Every form posts
 * to the settings page with Gitea's `action` (`mirror-sync`, `mirror`, `convert`).
 */

export interface MirrorSettingsView {
  state: WebState;
  /** The settings page's path (`/{owner}/{repo}/settings` below ROOT_URL's path). */
  action: string;
  mirror: PullMirrorRow;
  /** The interval as typed before a refusal; the stored one otherwise. */
  interval?: string;
  minInterval: string;
  now: number;
}

const hidden = (action: string) => html`<input type="hidden" name="action" value="${action}">`;

/** A moment to come as people read it ("2026-11-26 17:58 UTC"): timeAgo speaks only of the past. */
function exactTime(unix: number): Html {
  const iso = new Date(unix * 1000).toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace("T", " ")} UTC</time>`;
}

/** A stored interval as Gitea's field shows it: a Go duration, "" for none (periodic sync off). */
const intervalText = (ns: number) => (ns > 0 ? formatGoDuration(ns) : "");

export function mirrorSettingsSection(v: MirrorSettingsView): Html {
  const { mirror: m, now } = v;
  const last = m.updatedUnix > 0 ? timeAgo(m.updatedUnix, now) : html`Never`;
  const next =
    m.intervalNs > 0 && m.nextUpdateUnix > 0 ? html`<p class="small muted">Next periodic synchronization: ${exactTime(m.nextUpdateUnix)}</p>` : "";
  return html`<section aria-labelledby="mirror-settings-title"><h2 id="mirror-settings-title">Mirror Settings</h2>
<table class="list mirror-table">
<thead><tr><th scope="col">Mirrored repository</th><th scope="col">Direction</th><th scope="col">Last update</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody><tr><td class="mono mirror-address">${m.remoteAddress}</td><td>Pull</td><td>${last}${
    m.lastError ? html` <span class="tag warn">Error</span>` : ""
  }</td>
<td>${postForm(v.state, v.action, html`${hidden("mirror-sync")}<button class="primary" type="submit">Synchronize Now</button>`, html` class="inline"`)}</td></tr></tbody>
</table>
${m.lastError ? html`<div class="flash error" role="note"><strong>Last error:</strong> <code class="mirror-error">${m.lastError}</code></div>` : ""}
${next}
${postForm(
  v.state,
  v.action,
  html`${hidden("mirror")}${field("interval", "Mirror Interval", {
    value: v.interval ?? intervalText(m.intervalNs),
    autocomplete: "off",
    help: `Valid time units are 'h', 'm', 's'. 0 or empty to disable periodic sync. (Minimum interval: ${v.minInterval})`,
  })}
<div class="form-actions"><button class="primary" type="submit">Update Mirror Settings</button></div>`,
)}</section>`;
}

/** The danger zone's conversion (the repository's owner only, as Gitea's `convert`): confirmed by typing the name. */
export function convertMirrorEntry(state: WebState, action: string, repoName: string): Html {
  return html`<details class="confirm">
<summary class="button danger">Convert to Regular Repository</summary>
<div class="confirm-body">
<p>This operation will convert the mirror into a regular repository and cannot be undone.</p>
${postForm(
  state,
  action,
  html`${hidden("convert")}${field("repo_name", `Type the repository name (${repoName}) to confirm`, { required: true, autocomplete: "off" })}
<div class="form-actions"><button class="danger" type="submit">Convert Repository</button></div>`,
)}
</div>
</details>`;
}
