import { AccountMoved, Redirect } from "../../../lib/errors.ts";
import type { UserRow } from "../../../db/schema/index.ts";
import { avatarAccount } from "../../../services/user/explore.ts";
import { avatarUrl } from "../../../convert/user.ts";
import type { Doer } from "../../../services/access/permission.ts";
import { page, type PageContext } from "../page.ts";

const anyone = { scope: "public", signIn: false } as const;

/**
 * Where an account's avatar lives: its uploaded picture, else (as the API's `avatar_url`) Gravatar
 * when the site is online and the account has an address, else the default picture; Gitea's system
 * users always have the default one. `size` is passed on as Gitea does (`?size=` here, `s=` to
 * Gravatar), except to the default picture, whose link Gitea gives without one.
 */
export function avatarLocation(ctx: PageContext, user: UserRow, size: number): string {
  const fallback = `${ctx.base}/assets/img/avatar_default.png`;
  if (user.id < 0) return fallback;
  const { rootUrl } = ctx.env.settings.server;
  const url = avatarUrl(ctx.env.settings, user);
  const local = url.startsWith(rootUrl);
  const at = local ? `${ctx.base}/${url.slice(rootUrl.length)}` : url;
  // Gitea's default link carries no size.
  if (size <= 0 || at === fallback) return at;
  return `${at}${at.includes("?") ? "&" : "?"}${local ? "size" : "s"}=${size}`;
}

/**
 * Gitea's cacheableRedirect: a 303 to the picture, kept five minutes, so a changed avatar shows soon.
 * A renamed account is found under its current name (`path` rebuilds this route for it).
 */
export function avatarRedirect(ctx: PageContext & { doer: Doer | undefined }, name: string, size: number, path: (name: string) => string): Response {
  let user: UserRow;
  try {
    user = avatarAccount(ctx.env, ctx.doer, name);
  } catch (err) {
    // The door would replace the old name's path segment, which `{name}.png` does not have alone.
    if (err instanceof AccountMoved) throw new Redirect(`${ctx.base}${path(err.newName)}`);
    throw err;
  }
  return new Response(null, {
    status: 303,
    headers: { Location: avatarLocation(ctx, user, size), "Cache-Control": "private, max-age=300" },
  });
}

/** The `{size}` of an avatar route: Gitea reads it as a number, 0 (the default size) when it is not one. */
function sizeOf(raw: string | undefined): number {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? Math.min(n, 4096) : 0;
}

/**
 * `/user/avatar/{username}/{size}`: a redirect to the account's avatar; `ghost` and `gitea-actions`
 * have Gitea's default one; an unknown account, or one the visitor may not see, is a 404.
 */
export const avatarByName = page({
  access: anyone,
  handler(ctx) {
    const size = sizeOf(ctx.params.size);
    return avatarRedirect(ctx, ctx.params.username ?? "", size, (name) => `/user/avatar/${encodeURIComponent(name)}/${encodeURIComponent(ctx.params.size ?? "")}`);
  },
});
