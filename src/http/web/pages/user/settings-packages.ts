import type { UserRow } from "../../../../db/schema/index.ts";
import { html, type Html } from "../../../../lib/html.ts";
import { indexRepoOf } from "../../../../services/packages/cargo/git-index.ts";
import { page, type PageContext } from "../../page.ts";
import { postForm } from "../../views/form.ts";
import { settingsLayout } from "../../views/settings-nav.ts";

/**
 * Gitea's package settings (`/user/settings/packages`, `/org/{org}/settings/packages`): the forms
 * the registries need that have no API — the Cargo git index repository made or rebuilt, and the
 * Chef key pair regenerated (its private key answered as a download).
 */
function body(ctx: PageContext, owner: UserRow, formsAt: string): Html {
  const { base } = ctx;
  const index = indexRepoOf(ctx.env, owner);
  const indexLink = `${base}/${encodeURIComponent(owner.name)}/${encodeURIComponent(index?.name ?? "")}`;
  return html`<h1>Packages</h1>
<section class="box" aria-labelledby="cargo-title"><header><h2 id="cargo-title">Cargo index</h2></header><div class="body">
<p>Cargo reads the sparse index at <code>${ctx.env.settings.server.rootUrl}api/packages/${owner.name}/cargo/</code>. Clients that read a git index instead need the index repository.</p>
${
  index
    ? html`<p>The index repository is <a href="${indexLink}">${owner.name}/${index.name}</a>. Rebuild it if it was changed by hand or fell out of step.</p>
${postForm(ctx.state, `${base}${formsAt}/cargo/rebuild`, html`<button type="submit">Rebuild Index</button>`)}`
    : html`<p>There is no index repository yet.</p>
${postForm(ctx.state, `${base}${formsAt}/cargo/initialize`, html`<button class="primary" type="submit">Initialize Index</button>`)}`
}
</div></section>
<section class="box" aria-labelledby="chef-title"><header><h2 id="chef-title">Chef</h2></header><div class="body">
<p>knife signs its requests with a private key whose public half is kept here. Regenerating the key pair replaces the public key and downloads the new private key (<code>${owner.name}.priv</code>): the old one stops working.</p>
${postForm(ctx.state, `${base}${formsAt}/chef/regenerate_keypair`, html`<button type="submit">Regenerate Key Pair</button>`)}
</div></section>`;
}

/** `/user/settings/packages`. */
export const userPackages = page({
  access: { scope: "public", signIn: true },
  handler: (ctx) =>
    ctx.render({ title: "Packages settings", width: "medium", body: settingsLayout(ctx.base, "packages", body(ctx, ctx.doer, "/user/settings/packages")) }),
});

/** `/org/{org}/settings/packages`: for the organization's owners. */
export const orgPackages = page({
  access: { scope: "public", signIn: true, org: "owner" },
  handler: (ctx) =>
    ctx.render({
      title: `Packages settings - ${ctx.org.name}`,
      width: "medium",
      body: body(ctx, ctx.org, `/org/${encodeURIComponent(ctx.org.name)}/settings/packages`),
    }),
});
