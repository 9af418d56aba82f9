import { NotFound } from "../../../lib/errors.ts";
import { bzip2Compress } from "../../../lib/bzip2-compress.ts";
import { isCondaPackageFileName, parseCondaDownloadPath, parseCondaUploadPath } from "../../../lib/conda.ts";
import { openBlob } from "../../../services/packages/lookup.ts";
import { condaRepoData, findCondaFile } from "../../../services/packages/conda/repodata.ts";
import { uploadCondaPackage } from "../../../services/packages/conda/upload.ts";
import type { RegistryErrorFormat } from "../../doors/packages.ts";
import { endpoint, readPackages, writePackages } from "../registry.ts";
import { servePackageBlob } from "../serve.ts";

// Gitea's conda registry (routers/api/packages/conda and its routes in api.go): channels are
// optional path segments before the subdir; repodata is generated from the stored files.

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Request Entity Too Large",
  415: "Unsupported Media Type",
  500: "Internal Server Error",
};

/** Gitea's conda apiError: `{"reason": <status text>, "message": ...}`. */
const condaErrors: RegistryErrorFormat = (status, message) =>
  Response.json({ reason: STATUS_TEXT[status] ?? "", message }, { status });

/** The path below `conda/`, as the router left it (escaped). */
function subPath(params: Record<string, string>): string {
  const raw = params["*"] ?? "";
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * `GET|HEAD …/conda/[{channel}/]{subdir}/{file}`: `repodata.json` and `current_repodata.json`
 * generated for the subdir (404 without files), also bzip2-compressed (`.bz2`), or a package
 * file, counted as a download on GET.
 */
export const download = endpoint({
  type: "conda",
  access: readPackages,
  errors: condaErrors,
  handler(ctx) {
    const path = parseCondaDownloadPath(subPath(ctx.params));
    if (!path) throw new NotFound("");
    const { channel, subdir, filename } = path;
    const repodata = /^(?:current_)?repodata\.json(\.bz2)?$/.exec(filename);
    if (repodata) {
      const json = Buffer.from(JSON.stringify(condaRepoData(ctx.env, ctx.packageOwner, channel, subdir)) + "\n");
      const body = repodata[1] ? bzip2Compress(json) : json;
      return new Response(ctx.request.method === "HEAD" ? null : body, {
        headers: { "Content-Type": repodata[1] ? "application/x-bzip2" : "application/json", "Content-Length": String(body.length) },
      });
    }
    if (!isCondaPackageFileName(filename)) throw new NotFound("");
    const { blob, version } = findCondaFile(ctx.env, ctx.packageOwner, channel, subdir, filename);
    const head = ctx.request.method === "HEAD";
    return servePackageBlob(ctx.request, blob, openBlob(ctx.env, blob, head ? undefined : version));
  },
});

/** `PUT …/conda/[{channel}/]{file}.conda|.tar.bz2`: the package, read from its info files (201; 409 for a file already there). */
export const upload = endpoint({
  type: "conda",
  access: writePackages,
  errors: condaErrors,
  async handler(ctx) {
    const path = parseCondaUploadPath(subPath(ctx.params));
    if (!path) throw new NotFound("");
    await uploadCondaPackage(ctx.env, {
      owner: ctx.packageOwner,
      creator: ctx.doer,
      channel: path.channel,
      filename: path.filename,
      body: ctx.request.body ?? (async function* () {})(),
    });
    return new Response(null, { status: 201 });
  },
});
