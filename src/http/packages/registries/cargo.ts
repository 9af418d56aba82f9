import { BadRequest } from "../../../lib/errors.ts";
import { contentDisposition } from "../../../lib/content-disposition.ts";
import { openBlob } from "../../../services/packages/lookup.ts";
import { crateIndexFile, crateOwners, findCrateFile, searchCrates, setCrateYanked, sparseConfig } from "../../../services/packages/cargo/index.ts";
import { publishCrate } from "../../../services/packages/cargo/publish.ts";
import { updateCargoGitIndexIfExists } from "../../../services/packages/cargo/git-index.ts";
import type { RegistryErrorFormat } from "../../doors/packages.ts";
import { endpoint, readPackages, writePackages, type RegistryContext } from "../registry.ts";
import { servePackageBlob } from "../serve.ts";

// Gitea's cargo registry (routers/api/packages/cargo): the sparse index (config.json and a file
// per crate), publish, download, yank and unyank, search and owners. Errors are cargo's
// `{"errors":[{"detail":…}]}`.

/** Gitea's cargo apiError: a StatusResponse with the message as the one error's detail. */
const cargoErrors: RegistryErrorFormat = (status, message) => Response.json({ ok: false, errors: [{ detail: message }] }, { status });

const ok = () => Response.json({ ok: true });

/** Go's FormInt: the integer, 0 for anything else. */
const formInt = (v: string | null) => (v !== null && /^[-+]?\d+$/.test(v.trim()) ? Number.parseInt(v.trim(), 10) : 0);

/** `GET …/cargo/config.json`. */
export const config = endpoint({
  type: "cargo",
  access: readPackages,
  errors: cargoErrors,
  handler(ctx) {
    return Response.json(sparseConfig(ctx.env, ctx.packageOwner));
  },
});

/** `GET …/cargo/{1,2}/{name}`, `3/{c}/{name}`, `{ab}/{cd}/{name}`: the crate's index file. */
export const index = endpoint({
  type: "cargo",
  access: readPackages,
  errors: cargoErrors,
  handler(ctx) {
    return new Response(crateIndexFile(ctx.env, ctx.packageOwner, ctx.params.package ?? ""), {
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  },
});

/** `GET …/cargo/api/v1/crates?q=&page=&per_page=`. */
export const search = endpoint({
  type: "cargo",
  access: readPackages,
  errors: cargoErrors,
  handler(ctx) {
    const q = ctx.url.searchParams;
    return Response.json(searchCrates(ctx.env, ctx.packageOwner, { query: (q.get("q") ?? "").trim(), page: formInt(q.get("page")), perPage: formInt(q.get("per_page")) }));
  },
});

/** `PUT …/cargo/api/v1/crates/new`: cargo publish's framed body; the .crate streams to the blob store. */
export const publish = endpoint({
  type: "cargo",
  access: writePackages,
  errors: cargoErrors,
  async handler(ctx) {
    if (!ctx.request.body) throw new BadRequest("unexpected EOF");
    await publishCrate(ctx.env, ctx.packageOwner, ctx.doer, ctx.request.body);
    return ok();
  },
});

/** `GET …/cargo/api/v1/crates/{name}/{version}/download`: the .crate, counted as a download. */
export const download = endpoint({
  type: "cargo",
  access: readPackages,
  errors: cargoErrors,
  handler(ctx) {
    const found = findCrateFile(ctx.env, ctx.packageOwner, ctx.params.package ?? "", ctx.params.version ?? "");
    const head = ctx.request.method === "HEAD";
    return servePackageBlob(ctx.request, found.blob, openBlob(ctx.env, found.blob, head ? undefined : found.version), {
      "Content-Disposition": contentDisposition("attachment", found.file.name),
    });
  },
});

async function yank(ctx: RegistryContext & { packageOwner: Parameters<typeof setCrateYanked>[1]; doer: Parameters<typeof publishCrate>[2] }, yanked: boolean) {
  const pkg = setCrateYanked(ctx.env, ctx.packageOwner, ctx.params.package ?? "", ctx.params.version ?? "", yanked);
  await updateCargoGitIndexIfExists(ctx.env, ctx.doer, ctx.packageOwner, pkg.id);
  return ok();
}

/** `DELETE …/cargo/api/v1/crates/{name}/{version}/yank`. */
export const yankVersion = endpoint({
  type: "cargo",
  access: writePackages,
  errors: cargoErrors,
  handler: (ctx) => yank(ctx, true),
});

/** `PUT …/cargo/api/v1/crates/{name}/{version}/unyank`. */
export const unyankVersion = endpoint({
  type: "cargo",
  access: writePackages,
  errors: cargoErrors,
  handler: (ctx) => yank(ctx, false),
});

/** `GET …/cargo/api/v1/crates/{name}/owners`: Gitea answers with the registry's owner for any crate. */
export const owners = endpoint({
  type: "cargo",
  access: readPackages,
  errors: cargoErrors,
  handler(ctx) {
    return Response.json(crateOwners(ctx.packageOwner));
  },
});
