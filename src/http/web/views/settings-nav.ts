import { html, type Html, type HtmlValue } from "../../../lib/html.ts";

export type SettingsSection = "profile" | "account" | "applications" | "security" | "packages";

const SECTIONS: readonly { id: SettingsSection; path: string; label: string }[] = [
  { id: "profile", path: "/user/settings", label: "Profile" },
  { id: "account", path: "/user/settings/account", label: "Account" },
  { id: "applications", path: "/user/settings/applications", label: "Applications" },
  { id: "security", path: "/user/settings/security", label: "Security" },
  { id: "packages", path: "/user/settings/packages", label: "Packages" },
];

/**
 * A user settings page: the side navigation between the sections (the current one marked with
 * aria-current, a list of links that becomes a row of tabs on a narrow screen) beside the body.
 * On a page below a section (two-factor enrolment under Security) the section is marked
 * `aria-current="true"` rather than "page".
 */
export function settingsLayout(base: string, current: SettingsSection, body: HtmlValue, opts: { below?: boolean } = {}): Html {
  return html`<div class="settings-layout">
<nav class="settings-nav" aria-label="User settings"><ul>${SECTIONS.map(
    (s) => html`<li><a href="${base}${s.path}"${s.id === current ? html` aria-current="${opts.below ? "true" : "page"}"` : ""}>${s.label}</a></li>`,
  )}</ul></nav>
<div class="settings-body">${body}</div>
</div>`;
}
