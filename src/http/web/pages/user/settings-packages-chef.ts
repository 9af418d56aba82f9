import type { UserRow } from "../../../../db/schema/index.ts";
import { contentDisposition } from "../../../../lib/content-disposition.ts";
import { regenerateChefKeyPair } from "../../../../services/packages/chef/keys.ts";
import { page } from "../../page.ts";

// The Chef key form of the package settings (Gitea's RegenerateChefKeyPair, routers/web/user/
// setting/packages.go and its org twin): a new key pair for the owner, whose public half the Chef
// registry checks signatures against; the private half is answered once, as the download
// `{owner}.priv` knife's `client_key` points at, and kept nowhere.

const signedIn = { scope: "public", signIn: true } as const;
const orgOwner = { scope: "public", signIn: true, org: "owner" } as const;

async function regenerate(env: Parameters<typeof regenerateChefKeyPair>[0], owner: UserRow): Promise<Response> {
  const privatePem = await regenerateChefKeyPair(env, owner);
  return new Response(privatePem, {
    headers: {
      "Content-Type": "application/x-pem-file",
      "Content-Disposition": contentDisposition("attachment", `${owner.name}.priv`),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** POST /user/settings/packages/chef/regenerate_keypair */
export const userRegenerateKeypair = page({ access: signedIn, handler: (ctx) => regenerate(ctx.env, ctx.doer) });
/** POST /org/{org}/settings/packages/chef/regenerate_keypair (organization owners). */
export const orgRegenerateKeypair = page({ access: orgOwner, handler: (ctx) => regenerate(ctx.env, ctx.org) });
