import type { UserRow } from "../../../../db/schema/index.ts";
import { initializeCargoIndex, rebuildCargoIndex } from "../../../../services/packages/cargo/git-index.ts";
import { redactServerPaths } from "../../../respond.ts";
import { page, type PageContext } from "../../page.ts";

// The Cargo index forms of the package settings (Gitea's routers/web/shared/packages: the
// InitializeCargoIndex and RebuildCargoIndex posts of /user/settings/packages and
// /org/{org}/settings/packages): the owner's `_cargo-index` repository created or rewritten, with
// Gitea's flash texts, back on the owner's package settings.

const signedIn = { scope: "public", signIn: true } as const;
const orgOwner = { scope: "public", signIn: true, org: "owner" } as const;

type Action = "initialize" | "rebuild";

const TEXTS: Record<Action, { ok: string; failed: string }> = {
  initialize: { ok: "The Cargo index was successfully created.", failed: "Failed to initialize Cargo index: " },
  rebuild: { ok: "The Cargo index was successfully rebuild.", failed: "Failed to rebuild Cargo index: " },
};

async function run(ctx: PageContext & { doer: UserRow }, owner: UserRow, action: Action, back: string): Promise<Response> {
  const texts = TEXTS[action];
  try {
    await (action === "initialize" ? initializeCargoIndex : rebuildCargoIndex)(ctx.env, ctx.doer, owner);
  } catch (err) {
    ctx.env.log.error(`cargo index ${action} failed`, { owner: owner.name, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    const message = redactServerPaths(ctx.env, err instanceof Error ? err.message : String(err));
    return ctx.redirect(back, { kind: "error", text: `${texts.failed}${message}` });
  }
  return ctx.redirect(back, { kind: "success", text: texts.ok });
}

const orgBack = (org: UserRow) => `/org/${encodeURIComponent(org.name)}/settings/packages`;

/** POST /user/settings/packages/cargo/initialize */
export const userInitialize = page({ access: signedIn, handler: (ctx) => run(ctx, ctx.doer, "initialize", "/user/settings/packages") });
/** POST /user/settings/packages/cargo/rebuild */
export const userRebuild = page({ access: signedIn, handler: (ctx) => run(ctx, ctx.doer, "rebuild", "/user/settings/packages") });
/** POST /org/{org}/settings/packages/cargo/initialize (organization owners). */
export const orgInitialize = page({ access: orgOwner, handler: (ctx) => run(ctx, ctx.org, "initialize", orgBack(ctx.org)) });
/** POST /org/{org}/settings/packages/cargo/rebuild (organization owners). */
export const orgRebuild = page({ access: orgOwner, handler: (ctx) => run(ctx, ctx.org, "rebuild", orgBack(ctx.org)) });
