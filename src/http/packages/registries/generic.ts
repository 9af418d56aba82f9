import { BadRequest } from "../../../lib/errors.ts";
import { contentDisposition } from "../../../lib/content-disposition.ts";
import { storePackageFile } from "../../../services/packages/store.ts";
import { deleteFile, deleteVersion, findFile, findPackage, findVersion, openBlob, versionFiles } from "../../../services/packages/lookup.ts";
import { endpoint, readPackages, writePackages, type RegistryContext } from "../registry.ts";
import { servePackageBlob } from "../serve.ts";

// Gitea's generic registry (routers/api/packages/generic): any file, under a name and a version.
const NAME = /^[-_+.\w]+$/;
const FILENAME = /^[-_+=:;.()[\]{}~!@#$%^& \w]+$/;

/** The name, version and file of the path, refused with Gitea's 400s when malformed. */
function target(ctx: RegistryContext, withFile: boolean): { name: string; version: string; file: string } {
  const { name = "", version = "", file = "" } = ctx.params;
  if (!NAME.test(name)) throw new BadRequest("invalid package name");
  if (version === "" || version.trim() !== version) throw new BadRequest("invalid package version");
  if (withFile && (!FILENAME.test(file) || file.trim() !== file)) throw new BadRequest("invalid filename");
  return { name, version, file };
}

/** `GET|HEAD …/generic/{name}/{version}/{file}`: the file, counted as a download on GET. */
export const download = endpoint({
  type: "generic",
  access: readPackages,
  handler(ctx) {
    const t = target(ctx, true);
    const pkg = findPackage(ctx.env, ctx.packageOwner, "generic", t.name);
    const version = findVersion(ctx.env, pkg, t.version);
    const { file, blob } = findFile(ctx.env, version, t.file);
    const head = ctx.request.method === "HEAD";
    return servePackageBlob(ctx.request, blob, openBlob(ctx.env, blob, head ? undefined : version), {
      "Content-Disposition": contentDisposition("attachment", file.name),
    });
  },
});

/** `PUT …/generic/{name}/{version}/{file}`: the body, streamed into a new file of the version (201; 409 for a file already there). */
export const upload = endpoint({
  type: "generic",
  access: writePackages,
  async handler(ctx) {
    const t = target(ctx, true);
    if (!ctx.request.body) throw new BadRequest("the request has no body");
    await storePackageFile(ctx.env, {
      owner: ctx.packageOwner,
      creator: ctx.doer,
      type: "generic",
      name: t.name,
      version: t.version,
      existingVersion: "add",
      file: { name: t.file, isLead: true, data: ctx.request.body },
    });
    return new Response(null, { status: 201 });
  },
});

/** `DELETE …/generic/{name}/{version}`: the version and all its files. */
export const deleteVersionEndpoint = endpoint({
  type: "generic",
  access: writePackages,
  handler(ctx) {
    const t = target(ctx, false);
    deleteVersion(ctx.env, findVersion(ctx.env, findPackage(ctx.env, ctx.packageOwner, "generic", t.name), t.version), ctx.doer);
    return new Response(null, { status: 204 });
  },
});

/** `DELETE …/generic/{name}/{version}/{file}`: one file; the version goes with its last file. */
export const deleteFileEndpoint = endpoint({
  type: "generic",
  access: writePackages,
  handler(ctx) {
    const t = target(ctx, true);
    const version = findVersion(ctx.env, findPackage(ctx.env, ctx.packageOwner, "generic", t.name), t.version);
    deleteFile(ctx.env, findFile(ctx.env, version, t.file).file);
    if (versionFiles(ctx.env, version).length === 0) deleteVersion(ctx.env, version, ctx.doer);
    return new Response(null, { status: 204 });
  },
});

export { deleteVersionEndpoint as deleteVersion, deleteFileEndpoint as deleteFile };
