import { html, type Html } from "../../../lib/html.ts";
import { fileSize } from "../../../lib/file-size.ts";
import { listOwnerPackages, listVersionsOfPackage, packageVersionFiles, packageVersionView, type PackageView } from "../../../services/packages/api.ts";
import type { UserRow } from "../../../db/schema/index.ts";
import { page, type PageContext } from "../page.ts";
import { avatarImg } from "../layout.ts";
import { pageNumber, pager } from "../views/pager.ts";
import { timeAgo } from "../views/time.ts";
import { keywordOf } from "../views/list-search.ts";

/** The packages of `:owner`, for whoever may read them (Gitea's reqPackageAccess(read)). */
const readsPackages = { scope: "public", signIn: false, package: "read" } as const;

const TYPE_NAMES: Record<string, string> = {
  cargo: "Cargo",
  chef: "Chef",
  conda: "Conda",
  container: "Container",
  generic: "Generic",
  maven: "Maven",
  npm: "npm",
  pypi: "PyPI",
};

const packagesPath = (base: string, owner: UserRow) => `${base}/${encodeURIComponent(owner.name)}/-/packages`;
const versionPath = (base: string, v: PackageView) =>
  `${packagesPath(base, v.owner)}/${encodeURIComponent(v.pkg.type)}/${encodeURIComponent(v.pkg.name)}/${encodeURIComponent(v.version.version)}`;

function head(ctx: PageContext, owner: UserRow, title: Html | string): Html {
  return html`<div class="page-head">${avatarImg(ctx.env, owner, 32)}<h1><a href="${ctx.base}/${encodeURIComponent(owner.name)}">${owner.name}</a> / ${title}</h1></div>`;
}

/** `/{owner}/-/packages`: the owner's package versions, newest first, searchable by name and type. */
export const list = page({
  access: readsPackages,
  handler(ctx) {
    const { env, base, packageOwner: owner } = ctx;
    const perPage = env.settings.ui.explorePagingNum;
    const pageNo = pageNumber(ctx.query);
    const q = keywordOf(ctx.query);
    const type = ctx.query.get("type") ?? "";
    const { items, total } = listOwnerPackages(env, ctx.doer, owner, { query: q, type }, { offset: (pageNo - 1) * perPage, limit: perPage });
    const form = html`<form class="inline-form filters" method="get" action="${packagesPath(base, owner)}" role="search">
<label class="sr-only" for="pkg-q">Search packages</label><input id="pkg-q" type="search" name="q" value="${q}" placeholder="Search packages…">
<label class="sr-only" for="pkg-type">Type</label><select id="pkg-type" name="type"><option value="">All types</option>${Object.entries(TYPE_NAMES).map(
      ([value, label]) => html`<option value="${value}"${type === value ? html` selected` : ""}>${label}</option>`,
    )}</select>
<button type="submit">Search</button></form>`;
    const rows = items.map(
      (v) => html`<li><a href="${versionPath(base, v)}"><strong>${v.pkg.name}</strong></a> <span class="tag">${TYPE_NAMES[v.pkg.type] ?? v.pkg.type}</span>
<div class="muted small">${v.version.version} · published ${timeAgo(v.version.createdUnix)} by ${v.creator.name}${
        v.repo ? html` · <a href="${base}/${encodeURIComponent(v.repo.rc.owner.name)}/${encodeURIComponent(v.repo.rc.repo.name)}">${v.repo.rc.repo.name}</a>` : ""
      }</div></li>`,
    );
    return ctx.render({
      title: `Packages - ${owner.name}`,
      body: html`${head(ctx, owner, "Packages")}
${form}
${rows.length ? html`<div class="box"><ul>${rows}</ul></div>` : html`<div class="box"><p class="empty">${q || type ? "No package matches your search." : "There are no packages yet."}</p></div>`}
${pager(ctx.url, pageNo, perPage, total)}`,
    });
  },
});

/** How each client installs a version, as Gitea's package pages tell it. */
function installation(ctx: PageContext, v: PackageView, fileNames: string[]): Html {
  const root = `${ctx.env.settings.server.rootUrl}api/packages/${encodeURIComponent(v.owner.name)}`;
  const name = v.pkg.name;
  const version = v.version.version;
  const steps: Record<string, string> = {
    generic: fileNames.map((f) => `curl -OJ ${root}/generic/${encodeURIComponent(name)}/${encodeURIComponent(version)}/${encodeURIComponent(f)}`).join("\n"),
    npm: `npm config set registry ${root}/npm/\nnpm install ${name}@${version}`,
    pypi: `pip install --index-url ${root}/pypi/simple/ ${name}==${version}`,
    maven: `<repositories>\n  <repository>\n    <id>hearth</id>\n    <url>${root}/maven</url>\n  </repository>\n</repositories>\n<dependency>\n  <groupId>${name.split(":")[0]}</groupId>\n  <artifactId>${name.split(":")[1] ?? ""}</artifactId>\n  <version>${version}</version>\n</dependency>`,
    cargo: `# ~/.cargo/config.toml\n[registries.hearth]\nindex = "sparse+${root}/cargo/"\n\ncargo add ${name}@${version} --registry hearth`,
    chef: `knife supermarket install ${name} ${version} --supermarket-site ${root}/chef`,
    conda: `conda install --channel ${root}/conda ${name}=${version}`,
    container: `docker pull ${new URL(ctx.env.settings.server.rootUrl).host}/${v.owner.name.toLowerCase()}/${name}:${version}`,
  };
  const text = steps[v.pkg.type];
  return text ? html`<section class="box"><header><h2>Installation</h2></header><div class="body"><pre class="commands"><code>${text}</code></pre></div></section>` : html``;
}

/** `/{owner}/-/packages/{type}/{name}/{version}`: one version, its files with digests, how to install it, and the other versions. */
export const version = page({
  access: readsPackages,
  handler(ctx) {
    const { env, base, packageOwner: owner } = ctx;
    const { type = "", name = "", version: wanted = "" } = ctx.params;
    const v = packageVersionView(env, ctx.doer, owner, type, name, wanted);
    const files = packageVersionFiles(env, owner, type, name, wanted);
    const others = listVersionsOfPackage(env, ctx.doer, owner, type, name, { offset: 0, limit: 20 });
    const fileRows = files.map(
      (f) => html`<tr><td class="name">${f.file.name}</td><td>${fileSize(f.blob.size)}</td><td class="mono small">${f.blob.hashSha256}</td></tr>`,
    );
    return ctx.render({
      title: `${name} ${v.version.version} - ${owner.name}`,
      body: html`${head(ctx, owner, html`<a href="${packagesPath(base, owner)}">Packages</a> / ${name}`)}
<p class="muted"><span class="tag">${TYPE_NAMES[v.pkg.type] ?? v.pkg.type}</span> ${v.version.version} · published ${timeAgo(v.version.createdUnix)} by ${v.creator.name} · ${v.version.downloadCount} download${v.version.downloadCount === 1 ? "" : "s"}</p>
<div class="layout-2">
<div>${installation(ctx, v, files.map((f) => f.file.name))}
<section class="box"><header><h2>Files</h2></header><table class="list"><thead><tr><th scope="col">Name</th><th scope="col">Size</th><th scope="col">SHA-256</th></tr></thead><tbody>${fileRows}</tbody></table></section></div>
<aside class="sidebar"><section><h2>Versions <span class="counter">${others.total}</span></h2><ul class="rows">${others.items.map(
        (o) =>
          html`<li>${o.version.id === v.version.id ? html`<strong aria-current="page">${o.version.version}</strong>` : html`<a href="${versionPath(base, o)}">${o.version.version}</a>`} <span class="muted small">${timeAgo(o.version.createdUnix)}</span></li>`,
      )}</ul></section>${
        v.repo ? html`<section><h2>Repository</h2><a href="${base}/${encodeURIComponent(v.repo.rc.owner.name)}/${encodeURIComponent(v.repo.rc.repo.name)}">${v.repo.rc.owner.name}/${v.repo.rc.repo.name}</a></section>` : ""
      }</aside>
</div>`,
    });
  },
});
