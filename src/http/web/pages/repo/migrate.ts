/**
 * `/repo/migrate` (Gitea's routers/web/repo/migrate.go): without `?service_type=` the chooser of
 * sources, with it the form of one service; the form posts to the same path and, once the
 * migration service has brought the repository in, redirects to it. A refusal shows the form
 * again with the message and what was typed, never the password or the token.
 */
import type { UserRow } from "../../../../db/schema/index.ts";
import { formatGoDuration } from "../../../../config/go-duration.ts";
import { Conflict, Forbidden, HearthError } from "../../../../lib/errors.ts";
import { maskUrlCredentials } from "../../../../lib/url-credentials.ts";
import { migrateRepo } from "../../../../services/migration/migrate.ts";
import { isOrgOwner } from "../../../../services/org/lookup.ts";
import { listMyOrgs } from "../../../../services/org/org.ts";
import { page, type PageContext } from "../../page.ts";
import {
  MIGRATE_SERVICES,
  chooserBody,
  migrateFormBody,
  serviceByType,
  serviceOfField,
  type MigrateItem,
  type MigrateService,
  type MigrateValues,
} from "../../views/migrate-form.ts";

const signedIn = { scope: "public", signIn: true } as const;

type Ctx = PageContext & { doer: UserRow };

/** More organizations than anyone owns: the owner list is one query, never paged. */
const MAX_ORGS = 1000;

/** Gitea's DisableMigrations answers every migrate page with 403. */
function refuseIfDisabled(ctx: Ctx): void {
  if (ctx.env.settings.repository.disableMigrations) throw new Forbidden("Migrate: the site administrator has disabled migrations");
}

/**
 * Where the doer may put the repository besides their own account: the organizations they own,
 * the owners migrateRepo accepts (Gitea's API asks organization ownership too).
 */
function ownedOrgs(ctx: Ctx): UserRow[] {
  const { rows } = listMyOrgs(ctx.env, ctx.doer, { offset: 0, limit: MAX_ORGS });
  return rows.filter((org) => isOrgOwner(ctx.env, org, ctx.doer));
}

/** A checkbox as browsers send it ("on") or as Gitea's links prefill it ("1"). */
const ticked = (v: string | null) => v === "on" || v === "1" || v === "true";

function valuesFrom(fields: URLSearchParams, service: MigrateService, ownerId: number): MigrateValues {
  const items = new Set<MigrateItem>(service.items.filter((i) => ticked(fields.get(i))));
  return {
    cloneAddr: fields.get("clone_addr") ?? "",
    authUsername: fields.get("auth_username") ?? "",
    ownerId,
    repoName: fields.get("repo_name") ?? "",
    isPrivate: ticked(fields.get("private")),
    description: fields.get("description") ?? "",
    mirror: ticked(fields.get("mirror")),
    mirrorInterval: fields.get("mirror_interval") ?? "",
    items,
  };
}

function renderForm(ctx: Ctx, service: MigrateService, values: MigrateValues, error?: string): Response {
  const { env } = ctx;
  return ctx.render({
    title: "New Migration",
    width: "medium",
    status: error ? 422 : 200,
    flash: error ? [{ kind: "error", text: error }] : undefined,
    body: migrateFormBody({
      base: ctx.base,
      state: ctx.state,
      service,
      doer: ctx.doer,
      orgs: ownedOrgs(ctx),
      values,
      defaultInterval: formatGoDuration(env.settings.mirror.defaultIntervalNs),
      minInterval: formatGoDuration(env.settings.mirror.minIntervalNs),
      allowMirror: !env.settings.mirror.disableNewPull,
    }),
  });
}

/** Gitea's `?org=`: an organization id (or name) the doer owns preselects it; anything else is the doer. */
function preselectedOwner(ctx: Ctx, raw: string | null): number {
  if (!raw) return ctx.doer.id;
  const orgs = ownedOrgs(ctx);
  return (orgs.find((o) => String(o.id) === raw) ?? orgs.find((o) => o.name.toLowerCase() === raw.toLowerCase()))?.id ?? ctx.doer.id;
}

export const migrateForm = page({
  access: signedIn,
  handler(ctx) {
    refuseIfDisabled(ctx);
    const service = serviceByType(ctx.query.get("service_type"));
    if (!service) {
      return ctx.render({
        title: "New Migration",
        width: "medium",
        body: chooserBody(ctx.base, { org: ctx.query.get("org") ?? "", mirror: ctx.query.get("mirror") ?? "" }),
      });
    }
    return renderForm(ctx, service, valuesFrom(ctx.query, service, preselectedOwner(ctx, ctx.query.get("org"))));
  },
});

/** The owner the form names by id (`uid`, Gitea's field), else by name (`repo_owner`, the API's), else the doer. */
function ownerOf(ctx: Ctx): { ownerId?: number; ownerName?: string } {
  const uid = ctx.form.get("uid") ?? "";
  if (/^[1-9]\d{0,14}$/.test(uid)) return { ownerId: Number(uid) };
  const name = ctx.form.get("repo_owner");
  return name ? { ownerName: name } : { ownerId: ctx.doer.id };
}

/** The words a refusal is shown in: Gitea's form messages where they differ from the API's. */
function refusalText(err: unknown): string | undefined {
  if (err instanceof Conflict) return "The repository name is already used.";
  if (err instanceof HearthError && err.status < 500) return maskUrlCredentials(err.message);
  return undefined;
}

export const migratePost = page({
  access: signedIn,
  async handler(ctx) {
    refuseIfDisabled(ctx);
    const service = serviceOfField(ctx.form.get("service")) ?? MIGRATE_SERVICES[0]!;
    const owner = ownerOf(ctx);
    const values = valuesFrom(ctx.form, service, owner.ownerId ?? 0);
    if (!values.cloneAddr.trim()) return renderForm(ctx, service, values, "Migrate / Clone From URL cannot be empty.");
    if (!values.repoName.trim()) return renderForm(ctx, service, values, "Repository Name cannot be empty.");
    if ([...values.description].length > 2048) return renderForm(ctx, service, values, "Description must contain at most 2048 characters.");
    try {
      const repo = await migrateRepo(ctx.env, {
        doer: ctx.doer,
        ...owner,
        repoName: values.repoName.trim(),
        service: service.name,
        cloneAddr: values.cloneAddr,
        authUsername: service.auth === "password" ? values.authUsername : "",
        authPassword: service.auth === "password" ? (ctx.form.get("auth_password") ?? "") : "",
        authToken: service.auth === "token" ? (ctx.form.get("auth_token") ?? "") : "",
        mirror: values.mirror,
        mirrorInterval: values.mirror ? values.mirrorInterval.trim() || undefined : undefined,
        isPrivate: values.isPrivate,
        description: values.description,
        milestones: values.items.has("milestones"),
        labels: values.items.has("labels"),
        issues: values.items.has("issues"),
        pullRequests: values.items.has("pull_requests"),
        releases: values.items.has("releases"),
      });
      return ctx.redirect(`/${encodeURIComponent(repo.ownerName)}/${encodeURIComponent(repo.name)}`);
    } catch (err) {
      const text = refusalText(err);
      if (text !== undefined) return renderForm(ctx, service, values, text);
      // Something the service did not foresee (a git or disk failure): still the form, with the
      // message stripped of credentials, and the details in the log rather than a 500 page.
      ctx.env.log.error(`web migration of ${values.cloneAddr ? maskUrlCredentials(values.cloneAddr) : "?"} failed: ${err instanceof Error ? err.stack : String(err)}`);
      return renderForm(ctx, service, values, `Migration failed: ${maskUrlCredentials(err instanceof Error ? err.message : String(err))}`);
    }
  },
});
