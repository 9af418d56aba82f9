import { BadRequest, NotFound, TooLarge } from "../../../lib/errors.ts";
import { contentDisposition } from "../../../lib/content-disposition.ts";
import { parseNpmPublish, splitNpmPath } from "../../../lib/npm-package.ts";
import { openBlob } from "../../../services/packages/lookup.ts";
import { npmPackument, npmSearch, npmVersionManifest } from "../../../services/packages/npm/documents.ts";
import { findNpmTarball } from "../../../services/packages/npm/files.ts";
import { publishNpmPackage, unpublishNpmPackage, unpublishNpmVersion } from "../../../services/packages/npm/publish.ts";
import { addNpmTag, deleteNpmTag, listNpmTags } from "../../../services/packages/npm/tags.ts";
import type { RegistryErrorFormat } from "../../doors/packages.ts";
import { endpoint, readPackages, writePackages, type RegistryContext } from "../registry.ts";
import { servePackageBlob } from "../serve.ts";

// Gitea's npm registry (routers/api/packages/npm): package documents, tarballs, publish and
// unpublish, dist-tags, search. Package paths are read from the rest of the path, where npm spells
// a scoped name `@scope%2fname` and other clients `@scope/name`.

/** Gitea's npm apiError: `{"error": message}`. */
const npmErrors: RegistryErrorFormat = (status, message) => Response.json({ error: message }, { status });

/** The most a publish document may be when LIMIT_SIZE_NPM sets no bound (its tarball is base64 inside). */
const MAX_PUBLISH_BODY = 512 * 1024 * 1024;
/** A dist-tag's body is a quoted version. */
const MAX_TAG_BODY = 4 * 1024;

/** The package name and the segments after it, or Gitea's 404 for a path that names none. */
function packagePath(ctx: RegistryContext): { name: string; tail: string[] } {
  const parsed = splitNpmPath(ctx.params["*"] ?? "");
  if (!parsed) throw new NotFound("package does not exist");
  return parsed;
}

/** The request body as text, refused (413) past `limit` bytes before more is read. */
async function readBody(request: Request, limit: number, tooLarge: string): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > limit) throw new TooLarge(tooLarge);
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.byteLength;
    if (size > limit) throw new TooLarge(tooLarge);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString("utf8");
}

/** As Gitea bounds a publish: twice LIMIT_SIZE_NPM and 64 KiB of metadata (base64 and JSON around the tarball). */
function publishLimit(ctx: RegistryContext): number {
  const l = ctx.env.settings.packages.limitSize.npm;
  return l > 0 ? Math.min(l * 2 + 64 * 1024, MAX_PUBLISH_BODY) : MAX_PUBLISH_BODY;
}

const emptyOk = () => new Response(null, { status: 200 });

/**
 * `GET …/npm/{pkg}` the package document, `{pkg}/{version}` one version's manifest,
 * `{pkg}/-/{version}/{file}` and `{pkg}/-/{file}` the tarball (a download on GET, not on HEAD).
 */
export const read = endpoint({
  type: "npm",
  access: readPackages,
  errors: npmErrors,
  handler(ctx) {
    const { name, tail } = packagePath(ctx);
    if (tail.length === 0) return Response.json(npmPackument(ctx.env, ctx.packageOwner, name));
    if (tail.length === 1) return Response.json(npmVersionManifest(ctx.env, ctx.packageOwner, name, tail[0]!));
    if (tail[0] !== "-" || tail.length > 3) throw new NotFound("package does not exist");
    const [version, filename] = tail.length === 3 ? [tail[1], tail[2]!] : [undefined, tail[1]!];
    const t = findNpmTarball(ctx.env, ctx.packageOwner, name, version, filename);
    const head = ctx.request.method === "HEAD";
    return servePackageBlob(ctx.request, t.blob, openBlob(ctx.env, t.blob, head ? undefined : t.version), {
      "Content-Disposition": contentDisposition("attachment", t.file.name),
    });
  },
});

/**
 * `PUT …/npm/{pkg}`: npm publish (201); `PUT {pkg}/-rev/{revision}`: the document npm sends
 * back while unpublishing one version, answered 200 and left alone (Gitea's DeletePreview).
 */
export const write = endpoint({
  type: "npm",
  access: writePackages,
  errors: npmErrors,
  async handler(ctx) {
    const { name: _, tail } = packagePath(ctx);
    if (tail.length === 2 && tail[0] === "-rev") return emptyOk();
    if (tail.length !== 0) throw new NotFound("package does not exist");
    const text = await readBody(ctx.request, publishLimit(ctx), "npm publish payload exceeds size limit");
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (err) {
      throw new BadRequest(err instanceof Error ? err.message : "invalid JSON");
    }
    await publishNpmPackage(ctx.env, ctx.packageOwner, ctx.doer, parseNpmPublish(doc));
    return new Response(null, { status: 201 });
  },
});

/** `DELETE …/npm/{pkg}/-rev/{revision}`: the whole package; `{pkg}/-/{version}/{file}[/-rev/{revision}]`: one version. */
export const remove = endpoint({
  type: "npm",
  access: writePackages,
  errors: npmErrors,
  handler(ctx) {
    const { name, tail } = packagePath(ctx);
    if (tail.length === 2 && tail[0] === "-rev") {
      unpublishNpmPackage(ctx.env, ctx.packageOwner, ctx.doer, name);
      return emptyOk();
    }
    // npm sends `/-rev/{revision}` after the tarball's path; the bare tarball path is taken too.
    if (tail[0] === "-" && (tail.length === 3 || (tail.length === 5 && tail[3] === "-rev"))) {
      unpublishNpmVersion(ctx.env, ctx.packageOwner, ctx.doer, name, tail[1]!);
      return emptyOk();
    }
    throw new NotFound("package does not exist");
  },
});

/** The package and the tag of `…/npm/-/package/{pkg}/dist-tags[/{tag}]`. */
function tagPath(ctx: RegistryContext, withTag: boolean): { name: string; tag: string } {
  const { name, tail } = packagePath(ctx);
  if (tail[0] !== "dist-tags" || tail.length !== (withTag ? 2 : 1)) throw new NotFound("package does not exist");
  return { name, tag: tail[1] ?? "" };
}

/** `GET …/npm/-/package/{pkg}/dist-tags`: every tag and its version. */
export const listTags = endpoint({
  type: "npm",
  access: readPackages,
  errors: npmErrors,
  handler(ctx) {
    return Response.json(listNpmTags(ctx.env, ctx.packageOwner, tagPath(ctx, false).name));
  },
});

/** `PUT …/npm/-/package/{pkg}/dist-tags/{tag}` with `"version"`: the tag points there. */
export const addTag = endpoint({
  type: "npm",
  access: writePackages,
  errors: npmErrors,
  async handler(ctx) {
    const { name, tag } = tagPath(ctx, true);
    const body = await readBody(ctx.request, MAX_TAG_BODY, "request body too large");
    addNpmTag(ctx.env, ctx.packageOwner, name, tag, body.replace(/^"+|"+$/g, ""));
    return emptyOk();
  },
});

/** `DELETE …/npm/-/package/{pkg}/dist-tags/{tag}`. */
export const deleteTag = endpoint({
  type: "npm",
  access: writePackages,
  errors: npmErrors,
  handler(ctx) {
    const { name, tag } = tagPath(ctx, true);
    deleteNpmTag(ctx.env, ctx.packageOwner, name, tag);
    return emptyOk();
  },
});

/** Go's FormInt: the integer, 0 for anything else. */
const formInt = (v: string | null) => (v !== null && /^[-+]?\d+$/.test(v.trim()) ? Number.parseInt(v.trim(), 10) : 0);

/** `GET …/npm/-/v1/search?text=&from=&size=`. */
export const search = endpoint({
  type: "npm",
  access: readPackages,
  errors: npmErrors,
  handler(ctx) {
    const q = ctx.url.searchParams;
    return Response.json(
      npmSearch(ctx.env, ctx.packageOwner, { text: (q.get("text") ?? "").trim(), from: formInt(q.get("from")), size: formInt(q.get("size")) }),
    );
  },
});

/** `GET …/npm/-/whoami`: the signed-in user, as npm whoami asks (401 for the anonymous). */
export const whoami = endpoint({
  type: "npm",
  access: { scope: "package", signIn: true, package: "read" },
  errors: npmErrors,
  handler(ctx) {
    return Response.json({ username: ctx.doer.name });
  },
});
