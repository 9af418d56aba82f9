import { html, type Html } from "../../../lib/html.ts";
import type { UserRow } from "../../../db/schema/index.ts";
import type { WebState } from "../state.ts";
import { field, postForm } from "./form.ts";

/**
 * The new-migration pages of Gitea (templates/repo/migrate/*.tmpl): a chooser of the services
 * hearth can migrate from, and one form per service. The services differ in how one signs in
 * (plain git: a user name and password; the forges: an access token) and in what besides the
 * code can come along (Gogs has no pull requests or releases to give).
 */

export type MigrateItem = "milestones" | "labels" | "issues" | "pull_requests" | "releases";

export interface MigrateService {
  /** Gitea's GitServiceType number, the chooser's `?service_type=`. */
  type: number;
  /** Gitea's service name, the form's hidden `service` field. */
  name: string;
  title: string;
  description: string;
  /** How the form asks for credentials: Gitea's git.tmpl asks a password, the forges' templates a token. */
  auth: "password" | "token";
  items: readonly MigrateItem[];
  /** What the pull requests are called there (GitLab's merge requests). */
  pullsLabel?: string;
}

const ALL_ITEMS: readonly MigrateItem[] = ["milestones", "labels", "issues", "pull_requests", "releases"];

/** In the chooser's order: plain git first, then Gitea's SupportedFullGitService that hearth speaks. */
export const MIGRATE_SERVICES: readonly MigrateService[] = [
  { type: 1, name: "git", title: "Git", description: "Migrate a repository only from any Git service.", auth: "password", items: [] },
  { type: 2, name: "github", title: "GitHub", description: "Migrate data from github.com or GitHub Enterprise server.", auth: "token", items: ALL_ITEMS },
  { type: 3, name: "gitea", title: "Gitea", description: "Migrate data from gitea.com or other Gitea instances.", auth: "token", items: ALL_ITEMS },
  {
    type: 4,
    name: "gitlab",
    title: "GitLab",
    description: "Migrate data from gitlab.com or other GitLab instances.",
    auth: "token",
    items: ALL_ITEMS,
    pullsLabel: "Merge Requests",
  },
  { type: 5, name: "gogs", title: "Gogs", description: "Migrate data from notabug.org or other Gogs instances.", auth: "token", items: ["milestones", "labels", "issues"] },
];

export function serviceByType(type: string | null): MigrateService | undefined {
  return MIGRATE_SERVICES.find((s) => String(s.type) === type);
}

/** The form's `service` field: Gitea posts the number; a name is taken too (scripts copying the API's field). */
export function serviceOfField(value: string | null): MigrateService | undefined {
  return serviceByType(value) ?? MIGRATE_SERVICES.find((s) => s.name === (value ?? "").toLowerCase());
}

const ITEM_LABELS: Record<MigrateItem, string> = {
  milestones: "Milestones",
  labels: "Labels",
  issues: "Issues",
  pull_requests: "Pull Requests",
  releases: "Releases",
};

/** What the form shows again after a refusal: everything typed but the secrets. */
export interface MigrateValues {
  cloneAddr: string;
  authUsername: string;
  ownerId: number;
  repoName: string;
  isPrivate: boolean;
  description: string;
  mirror: boolean;
  mirrorInterval: string;
  items: ReadonlySet<MigrateItem>;
}

export function chooserBody(base: string, query: { org: string; mirror: string }): Html {
  const keep = (s: MigrateService) => {
    const q = new URLSearchParams({ service_type: String(s.type) });
    if (query.org) q.set("org", query.org);
    if (query.mirror) q.set("mirror", query.mirror);
    return `${base}/repo/migrate?${q}`;
  };
  return html`<h1>New Migration</h1>
<p class="muted">Choose where the repository comes from.</p>
<ul class="rows box migrate-services">${MIGRATE_SERVICES.map(
    (s) => html`<li><a class="migrate-service" href="${keep(s)}"><strong>${s.title}</strong></a>
<div class="small muted">${s.description}</div></li>`,
  )}</ul>`;
}

export interface MigrateFormView {
  base: string;
  state: WebState;
  service: MigrateService;
  doer: UserRow;
  /** Organizations where the doer may create repositories. */
  orgs: readonly UserRow[];
  values: MigrateValues;
  /** Interval hints from `[mirror]`, as Go durations ("8h0m0s", "10m0s"). */
  defaultInterval: string;
  minInterval: string;
  allowMirror: boolean;
}

const check = (name: string, label: string, checked: boolean, help?: string) =>
  html`<label class="check"><input type="checkbox" name="${name}"${checked ? html` checked` : ""}> ${label}</label>${
    help ? html`<p class="field-help">${help}</p>` : ""
  }`;

export function migrateFormBody(v: MigrateFormView): Html {
  const { service: s, values } = v;
  const auth =
    s.auth === "password"
      ? html`${field("auth_username", "Username", { value: values.authUsername, autocomplete: "off" })}
${field("auth_password", "Password", { type: "password", autocomplete: "new-password" })}`
      : html`${field("auth_token", "Access Token", {
          type: "password",
          autocomplete: "new-password",
          help: s.items.length ? "An access token is required to migrate additional items." : undefined,
        })}`;
  const owners = [v.doer, ...v.orgs];
  const items = s.items.length
    ? html`<fieldset class="choices"><legend>Migration Items</legend>
${s.items.map((i) => check(i, i === "pull_requests" && s.pullsLabel ? s.pullsLabel : ITEM_LABELS[i], values.items.has(i)))}
<p class="field-help">A mirror brings the code only: these items are not migrated for a mirror.</p></fieldset>`
    : "";
  const mirror = v.allowMirror
    ? html`<fieldset class="choices"><legend>Migration Options</legend>
${check("mirror", "This repository will be a mirror", values.mirror)}
${field("mirror_interval", "Mirror Interval", {
  value: values.mirrorInterval,
  autocomplete: "off",
  help: `Valid time units are 'h', 'm', 's'. 0 to disable periodic sync. Empty: ${v.defaultInterval}. (Minimum interval: ${v.minInterval})`,
})}</fieldset>`
    : "";
  const form = postForm(
    v.state,
    `${v.base}/repo/migrate`,
    html`<input type="hidden" name="service" value="${s.type}">
${field("clone_addr", "Migrate / Clone From URL", {
  value: values.cloneAddr,
  required: true,
  autofocus: !values.cloneAddr,
  autocomplete: "off",
  help: "The HTTP(S) or Git 'clone' URL of an existing repository",
})}
${auth}
${mirror}
${items}
<label for="f-uid">Owner</label>
<select id="f-uid" name="uid" required>${owners.map(
      (o) => html`<option value="${o.id}"${o.id === values.ownerId ? html` selected` : ""}>${o.name}</option>`,
    )}</select>
${field("repo_name", "Repository Name", { value: values.repoName, required: true, maxlength: 100, autocomplete: "off" })}
<fieldset class="choices"><legend>Visibility</legend>${check("private", "Make repository private", values.isPrivate)}</fieldset>
<label for="f-description">Description</label>
<textarea id="f-description" name="description" maxlength="2048">${values.description}</textarea>
<div class="form-actions"><button class="primary" type="submit">Migrate Repository</button>
<a class="button" href="${v.base}/repo/migrate">Cancel</a></div>`,
  );
  return html`<div class="settings-body migrate-form"><h1>Migrate From ${s.title}</h1>
<p class="muted"><a href="${v.base}/repo/migrate">All migration sources</a></p>
${form}</div>`;
}
