import { BadRequest } from "../../../lib/errors.ts";
import { contentDisposition } from "../../../lib/content-disposition.ts";
import { formParts, multipartBoundary } from "../../../lib/multipart-stream.ts";
import { openBlob } from "../../../services/packages/lookup.ts";
import { findDistribution, simpleProjectPage } from "../../../services/packages/pypi/simple.ts";
import { uploadDistribution } from "../../../services/packages/pypi/upload.ts";
import { endpoint, readPackages, writePackages } from "../registry.ts";
import { servePackageBlob } from "../serve.ts";

// Gitea's PyPI registry (routers/api/packages/pypi): twine's upload form, PEP 503's simple pages
// and the files they link to. Errors are Gitea's plain text.

/** `POST …/pypi/`: twine's `file_upload` form; the file streams to the blob store (201). */
export const upload = endpoint({
  type: "pypi",
  access: writePackages,
  async handler(ctx) {
    const boundary = multipartBoundary(ctx.request.headers.get("content-type"));
    if (!ctx.request.body) throw new BadRequest("http: no such file");
    await uploadDistribution(ctx.env, { owner: ctx.packageOwner, creator: ctx.doer, parts: formParts(ctx.request.body, boundary) });
    return new Response(null, { status: 201 });
  },
});

/** `GET …/pypi/simple/{id}/`: the project's links page (HTML), 404 for an unknown project. */
export const simple = endpoint({
  type: "pypi",
  access: readPackages,
  handler(ctx) {
    const page = simpleProjectPage(ctx.env, ctx.packageOwner, ctx.params.id ?? "");
    return new Response(page, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  },
});

/** `GET …/pypi/files/{id}/{version}/{filename}`: a distribution file, counted as a download. */
export const download = endpoint({
  type: "pypi",
  access: readPackages,
  handler(ctx) {
    const { id = "", version = "", filename = "" } = ctx.params;
    const found = findDistribution(ctx.env, ctx.packageOwner, id, version, filename);
    const head = ctx.request.method === "HEAD";
    return servePackageBlob(ctx.request, found.blob, openBlob(ctx.env, found.blob, head ? undefined : found.version), {
      "Content-Disposition": contentDisposition("attachment", found.file.name),
    });
  },
});
