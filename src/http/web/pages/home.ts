import { html } from "../../../lib/html.ts";
import { listAccessibleRepos } from "../../../services/repo/list.ts";
import { listMyOrgs } from "../../../services/org/org.ts";
import { page } from "../page.ts";
import { avatarImg } from "../layout.ts";
import { repoList } from "../views/repo-list.ts";
import { pageNumber, pager } from "../views/pager.ts";

const anyone = { scope: "public", signIn: false } as const;

/** `/`: a landing page signed out; signed in, your repositories and organizations. */
export const home = page({
  access: anyone,
  handler(ctx) {
    const { env, base, doer } = ctx;
    if (!doer) {
      return ctx.render({
        title: env.settings.appName,
        body: html`<section class="landing">
<h1>${env.settings.appName}</h1>
<p class="muted">A painless, self-hosted Git service.</p>
<p class="form-actions"><a class="button primary" href="${base}/explore/repos">Explore repositories</a> <a class="button" href="${base}/user/login">Sign in</a></p>
</section>`,
      });
    }
    const perPage = env.settings.ui.explorePagingNum;
    const pageNo = pageNumber(ctx.query);
    const repos = listAccessibleRepos(env, doer, { offset: (pageNo - 1) * perPage, limit: perPage });
    const orgs = listMyOrgs(env, doer, { offset: 0, limit: 50 });
    return ctx.render({
      title: "Dashboard",
      body: html`<div class="layout-2">
<section aria-labelledby="repos-title"><h1 id="repos-title">Repositories <span class="counter">${repos.total}</span></h1>
${repoList(base, repos.rows, "You have no repositories yet.")}
${pager(ctx.url, pageNo, perPage, repos.total)}</section>
<aside class="sidebar" aria-labelledby="orgs-title"><section><h2 id="orgs-title">Organizations</h2>${
        orgs.rows.length
          ? html`<ul class="rows">${orgs.rows.map((o) => html`<li><a href="${base}/${o.name}">${avatarImg(env, o)} ${o.name}</a></li>`)}</ul>`
          : html`<p class="muted small">You are not a member of any organization.</p>`
      }</section></aside>
</div>`,
    });
  },
});

/** `/robots.txt`: crawlers keep out of the heavy pages (archives, raw history) and sign-in forms. */
export const robots = page({
  access: anyone,
  signInExempt: true,
  handler: ({ base }) =>
    new Response(
      ["User-agent: *", `Disallow: ${base}/user/`, `Disallow: ${base}/*/*/archive/`, `Disallow: ${base}/*/*/raw/`, `Disallow: ${base}/*/*/commit/`, `Disallow: ${base}/*/*/compare/`, `Disallow: ${base}/*/*/blame/`, ""].join("\n"),
      { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" } },
    ),
});
