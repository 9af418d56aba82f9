import type { Env } from "../../../services/env.ts";
import type { Principal } from "../../../auth/principal.ts";
import { BadRequest } from "../../../lib/errors.ts";
import { contentDisposition } from "../../../lib/content-disposition.ts";
import { toRFC3339 } from "../../../lib/time.ts";
import { formParts, multipartBoundary } from "../../../lib/multipart-stream.ts";
import { openBlob } from "../../../services/packages/lookup.ts";
import { signedBody, verifyChefRequest } from "../../../services/packages/chef/auth.ts";
import {
  allCookbookVersions,
  chefApiUrl,
  chefMetadataOf,
  cookbookVersion,
  cookbookVersions,
  deleteCookbook,
  deleteCookbookVersion,
  searchCookbooks,
  uploadCookbook,
} from "../../../services/packages/chef/cookbooks.ts";
import { endpoint, readPackages, writePackages, type RegistryContext } from "../registry.ts";
import { servePackageBlob } from "../serve.ts";

// Gitea's Chef registry (routers/api/packages/chef), what knife's supermarket commands and
// Berkshelf speak under `chef/api/v1`. Requests are authenticated by mixlib-authentication's
// signed headers against the owner's key as well as by the registries' usual credentials.

/** Gitea's chef apiError: `{"error_messages":[message]}`. */
const chefError = (status: number, message: string) => Response.json({ error_messages: [message] }, { status });

/** Gitea's chef Auth: a signed request is its signer's (the door's credentials otherwise). */
function chefAuthenticate(env: Env, request: Request): Principal | undefined {
  const user = verifyChefRequest(env, request);
  return user && { user, method: "basic", scope: undefined, rawScope: "all" };
}

const chef = { type: "chef", errors: chefError, authenticate: chefAuthenticate } as const;

/** Gitea's NewAbsoluteListOptions: a negative start is 0, items default to the API's page size and are capped. */
function page(ctx: RegistryContext): { start: number; items: number } {
  const int = (k: string) => {
    const n = parseInt(ctx.url.searchParams.get(k)?.trim() ?? "", 10);
    return Number.isFinite(n) ? n : 0;
  };
  const api = ctx.env.settings.api;
  const items = int("items");
  return { start: Math.max(0, int("start")), items: items <= 0 ? api.defaultPagingNum : Math.min(items, api.maxResponseItems) };
}

/** `GET …/universe`: every version of every cookbook, with its download and dependencies (Berkshelf). */
export const universe = endpoint({
  ...chef,
  access: readPackages,
  handler(ctx) {
    const base = chefApiUrl(ctx.env, ctx.packageOwner);
    const out: Record<string, Record<string, unknown>> = {};
    for (const { pkg, version } of allCookbookVersions(ctx.env, ctx.packageOwner)) {
      (out[pkg.name] ??= {})[version.version] = {
        location_type: "opscode",
        location_path: base,
        download_url: `${base}/cookbooks/${encodeURIComponent(pkg.name)}/versions/${version.version}/download`,
        dependencies: chefMetadataOf(version).dependencies ?? null,
      };
    }
    return Response.json(out);
  },
});

/** `GET …/search` and `GET …/cookbooks`: the latest version of each cookbook matching `q`, paged by `start`/`items`. */
export const search = endpoint({
  ...chef,
  access: readPackages,
  handler(ctx) {
    const { start, items } = page(ctx);
    const q = ctx.url.searchParams;
    const found = searchCookbooks(ctx.env, ctx.packageOwner, {
      query: q.get("q")?.trim() ?? "",
      order: (q.get("order")?.trim() ?? "").toLowerCase(),
      start,
      items,
    });
    const base = `${chefApiUrl(ctx.env, ctx.packageOwner)}/cookbooks/`;
    return Response.json({
      start,
      total: found.total,
      items: found.rows.map(({ pkg, version }) => {
        const m = chefMetadataOf(version);
        return { cookbook_name: pkg.name, cookbook_maintainer: m.author ?? "", cookbook_description: m.description ?? "", cookbook: base + encodeURIComponent(pkg.name) };
      }),
    });
  },
});

/** `POST …/cookbooks`: knife's `supermarket share` form (`tarball`), streamed to the blob store (201 `{}`). */
export const upload = endpoint({
  ...chef,
  access: writePackages,
  async handler(ctx) {
    const boundary = multipartBoundary(ctx.request.headers.get("content-type"));
    if (!ctx.request.body) throw new BadRequest("http: no such file");
    const signed = signedBody(ctx.request);
    await uploadCookbook(ctx.env, {
      owner: ctx.packageOwner,
      creator: ctx.doer,
      parts: formParts(signed?.body ?? ctx.request.body, boundary),
      beforeStore: signed?.check,
    });
    return Response.json({}, { status: 201 });
  },
});

/** `GET …/cookbooks/{name}`: the cookbook, its latest version's metadata and every version's URL. */
export const cookbook = endpoint({
  ...chef,
  access: readPackages,
  handler(ctx) {
    const name = ctx.params.name ?? "";
    const { pkg, versions } = cookbookVersions(ctx.env, ctx.packageOwner, name);
    const base = `${chefApiUrl(ctx.env, ctx.packageOwner)}/cookbooks/${encodeURIComponent(name)}/versions/`;
    const latest = versions[versions.length - 1]!;
    const m = chefMetadataOf(latest);
    return Response.json({
      name: pkg.name,
      maintainer: m.author ?? "",
      description: m.description ?? "",
      category: "",
      latest_version: base + latest.version,
      source_url: m.repository_url ?? "",
      created_at: toRFC3339(latest.createdUnix),
      updated_at: toRFC3339(latest.createdUnix),
      deprecated: false,
      versions: versions.map((v) => base + v.version),
    });
  },
});

/** `GET …/cookbooks/{name}/versions/{version}` (knife writes `1_0_1` for `1.0.1`): one version. */
export const cookbookVersionInfo = endpoint({
  ...chef,
  access: readPackages,
  handler(ctx) {
    const version = (ctx.params.version ?? "").replaceAll("_", ".");
    const found = cookbookVersion(ctx.env, ctx.packageOwner, ctx.params.name ?? "", version);
    const base = `${chefApiUrl(ctx.env, ctx.packageOwner)}/cookbooks/${encodeURIComponent(found.pkg.name)}`;
    const m = chefMetadataOf(found.version);
    return Response.json({
      version: found.version.version,
      tarball_file_size: found.blob.size,
      published_at: toRFC3339(found.version.createdUnix),
      cookbook: base,
      file: `${base}/versions/${found.version.version}/download`,
      license: m.license ?? "",
      dependencies: m.dependencies ?? null,
    });
  },
});

/** `GET …/cookbooks/{name}/versions/{version}/download`: the archive, counted as a download. */
export const download = endpoint({
  ...chef,
  access: readPackages,
  handler(ctx) {
    const found = cookbookVersion(ctx.env, ctx.packageOwner, ctx.params.name ?? "", ctx.params.version ?? "");
    const head = ctx.request.method === "HEAD";
    return servePackageBlob(ctx.request, found.blob, openBlob(ctx.env, found.blob, head ? undefined : found.version), {
      "Content-Disposition": contentDisposition("attachment", found.file.name),
    });
  },
});

/** `DELETE …/cookbooks/{name}/versions/{version}`: one version (200, empty). */
export const deleteVersion = endpoint({
  ...chef,
  access: writePackages,
  handler(ctx) {
    deleteCookbookVersion(ctx.env, ctx.packageOwner, ctx.params.name ?? "", ctx.params.version ?? "", ctx.doer);
    return new Response(null, { status: 200 });
  },
});

/** `DELETE …/cookbooks/{name}`: every version of the cookbook (200, empty). */
export const deletePackage = endpoint({
  ...chef,
  access: writePackages,
  handler(ctx) {
    deleteCookbook(ctx.env, ctx.packageOwner, ctx.params.name ?? "", ctx.doer);
    return new Response(null, { status: 200 });
  },
});
