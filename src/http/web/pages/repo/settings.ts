/**
 * `/{owner}/{repo}/settings` (Gitea's routers/web/repo/setting/setting.go, for repository
 * administrators): what the page holds so far is a pull mirror's settings (the remote, the last
 * update and error, "Synchronize Now", the interval) and, in the danger zone, the conversion of a
 * mirror into a regular repository. Forms post to the same path with Gitea's `action` field.
 */
import { html, type Html } from "../../../../lib/html.ts";
import { formatGoDuration } from "../../../../config/go-duration.ts";
import { HearthError, NotFound } from "../../../../lib/errors.ts";
import { nowUnix } from "../../../../lib/time.ts";
import { permitsRepoAccess, type Administers } from "../../../../services/access/repo-access.ts";
import { convertMirrorToNormal, pullMirrorOf, setPullMirrorInterval, syncPullMirrorNow } from "../../../../services/mirror/pull-mirror-admin.ts";
import { page, type PageContext } from "../../page.ts";
import { convertMirrorEntry, mirrorSettingsSection } from "../../views/mirror-settings.ts";
import { repoHeader, repoPath } from "../../views/repo-header.ts";
import type { UserRow } from "../../../../db/schema/index.ts";

/** Gitea's repository settings group: reqRepoAdmin. */
const access = { scope: "public", signIn: true, repo: { admin: true } } as const;

type Ctx = PageContext & { doer: UserRow; repo: Administers };

interface Refusal {
  error: string;
  /** The interval as typed, shown again. */
  interval?: string;
}

function settingsPage(ctx: Ctx, refusal?: Refusal): Response {
  const { env, base, state, repo: rc } = ctx;
  const at = `${repoPath(base, rc)}/settings`;
  const mirror = rc.repo.isMirror ? pullMirrorOf(env, rc.repo.id) : undefined;
  const isOwner = permitsRepoAccess(rc, ctx.doer, { owner: true });
  const facts = html`<section aria-labelledby="repo-settings-title"><h2 id="repo-settings-title">Repository</h2>
<dl class="run-facts"><dt>Name</dt><dd>${rc.repo.name}</dd>
<dt>Visibility</dt><dd>${rc.repo.isPrivate ? "Private" : "Public"}</dd>
<dt>Default branch</dt><dd class="mono">${rc.repo.defaultBranch}</dd></dl></section>`;
  const mirrorPart: Html | "" = mirror
    ? mirrorSettingsSection({ state, action: at, mirror, interval: refusal?.interval, minInterval: formatGoDuration(env.settings.mirror.minIntervalNs), now: nowUnix() })
    : "";
  const danger =
    rc.repo.isMirror && isOwner
      ? html`<section aria-labelledby="danger-zone-title" class="danger-zone"><h2 id="danger-zone-title">Danger Zone</h2>
<h3>Convert to Regular Repository</h3>
<p class="muted">You can convert this mirror into a regular repository. This cannot be undone.</p>
${convertMirrorEntry(state, at, rc.repo.name)}</section>`
      : "";
  return ctx.render({
    title: `Settings - ${rc.owner.name}/${rc.repo.name}`,
    status: refusal ? 422 : 200,
    flash: refusal ? [{ kind: "error", text: refusal.error }] : undefined,
    body: html`${repoHeader(base, rc, "settings")}<div class="settings-body repo-settings">${facts}${mirrorPart}${danger}</div>`,
  });
}

export const settings = page({
  access,
  handler: (ctx) => settingsPage(ctx),
});

/** A refusal of the mirror services in Gitea's words where its settings page has its own. */
function refusalOf(err: unknown, action: string): string | undefined {
  if (!(err instanceof HearthError) || err.status >= 500 || err instanceof NotFound) return undefined;
  return action === "mirror" ? "The mirror interval is not valid." : err.message;
}

export const settingsPost = page({
  access,
  handler(ctx) {
    const { env, repo: rc } = ctx;
    const action = ctx.form.get("action") ?? "";
    const back = `${repoPath("", rc)}/settings`;
    try {
      switch (action) {
        case "mirror-sync":
          // Gitea: a 404 for a repository that is not a mirror, or is archived.
          if (!rc.repo.isMirror || rc.repo.isArchived) throw new NotFound();
          syncPullMirrorNow(env, rc);
          return ctx.redirect(back, { kind: "info", text: `Pulling changes from the remote ${rc.repo.originalUrl} at the moment.` });
        case "mirror": {
          // Gitea's settings take an empty interval as 0: the periodic sync switched off.
          const raw = (ctx.form.get("interval") ?? "").trim();
          try {
            setPullMirrorInterval(env, rc, raw === "" ? "0" : raw);
          } catch (err) {
            const error = refusalOf(err, action);
            if (error === undefined) throw err;
            return settingsPage(ctx, { error, interval: raw });
          }
          return ctx.redirect(back, { kind: "success", text: "The repository settings have been updated." });
        }
        case "convert": {
          // Gitea: the owner only, and a 404 for anyone else.
          if (!permitsRepoAccess(rc, ctx.doer, { owner: true })) throw new NotFound();
          if ((ctx.form.get("repo_name") ?? "") !== rc.repo.name) {
            return settingsPage(ctx, { error: "The repository name you entered is incorrect." });
          }
          convertMirrorToNormal(env, rc);
          return ctx.redirect(repoPath("", rc), { kind: "success", text: "The mirror has been converted into a regular repository." });
        }
        default:
          throw new NotFound();
      }
    } catch (err) {
      const error = refusalOf(err, "");
      if (error === undefined) throw err;
      return settingsPage(ctx, { error });
    }
  },
});
