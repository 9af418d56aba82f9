import { isImageName, parseContentRange, parseOciPath, type OciPath } from "../../../lib/oci.ts";
import type { UserRow } from "../../../db/schema/index.ts";
import {
  appendChunk,
  cancelUpload,
  createUpload,
  deleteImageBlob,
  findImageBlob,
  finishUpload,
  mountBlob,
  uploadMonolithic,
  uploadStatus,
} from "../../../services/packages/container/blobs.ts";
import { deleteManifest, findManifest, listRepositories, listTags, putManifest } from "../../../services/packages/container/manifests.ts";
import { errBlobUnknown, errNameInvalid, errUnsupported } from "../../../services/packages/container/errors.ts";
import { createRegistryToken, GHOST_USER_ID } from "../../../services/packages/container/token.ts";
import { openBlob } from "../../../services/packages/lookup.ts";
import { Unauthorized } from "../../../lib/errors.ts";
import { endpoint, readPackages, writePackages, type RegistryContext } from "../registry.ts";
import { servePackageBlob } from "../serve.ts";

// Gitea's container registry (routers/api/packages/container), the OCI distribution API at the
// site root: `/v2/` and its token endpoint, then everything below `/v2/{owner}/{image...}/`. The
// image name may hold `/`, so one route per method takes the rest of the path and it is parsed
// here (lib/oci.ts). Every answer carries Docker-Distribution-Api-Version (container-run.ts).

/** Access of the endpoints that name no owner: anyone through the door, the package scope. */
const anyCaller = { scope: "package", signIn: false } as const;

const empty = (status: number, headers: Record<string, string> = {}) => new Response(null, { status, headers: { "Content-Length": "0", ...headers } });

function json(body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(`${JSON.stringify(body)}\n`, { headers: { "Content-Type": "application/json", ...headers } });
}

/** The path below `/v2/{owner}/`, with a valid image name (NAME_INVALID otherwise). */
function target(ctx: RegistryContext): OciPath {
  const path = parseOciPath(ctx.params["*"] ?? "");
  if (!path) throw errUnsupported(undefined, 404);
  if (!isImageName(path.image)) throw errNameInvalid();
  return path;
}

/** An integer query value as Gitea's FormInt reads it (0 for anything else). */
function formInt(url: URL, name: string): number {
  const n = Number.parseInt(url.searchParams.get(name)?.trim() ?? "", 10);
  return Number.isSafeInteger(n) ? n : 0;
}

/** `GET /v2/`: the registry is here (Gitea's DetermineSupport); a caller without credentials got the challenge. */
export const base = endpoint({
  type: "container",
  access: anyCaller,
  handler: () => empty(200),
});

/**
 * `GET /v2/token`: Gitea's Authenticate. A registry token for the caller (Basic or an access
 * token), carrying its token's scope; for an anonymous caller the ghost user's, unless
 * REQUIRE_SIGNIN_VIEW is set.
 */
export const token = endpoint({
  type: "container",
  access: anyCaller,
  handler(ctx) {
    let userId = GHOST_USER_ID;
    let scope = "";
    if (ctx.principal) {
      userId = ctx.principal.user.id;
      scope = ctx.principal.scope ? ctx.principal.rawScope : "";
    } else if (ctx.env.settings.service.requireSigninView) throw new Unauthorized("authentication required");
    const t = createRegistryToken(ctx.env, { userId, scope });
    return json({ token: t, access_token: t });
  },
});

/** `GET /v2/_catalog?n=&last=`: the images of the owners the caller may see, 100 at most a page. */
export const catalog = endpoint({
  type: "container",
  access: anyCaller,
  handler(ctx) {
    let n = formInt(ctx.url, "n");
    if (n <= 0 || n > 100) n = 100;
    const repositories = listRepositories(ctx.env, ctx.doer, n, ctx.url.searchParams.get("last")?.trim() ?? "");
    const headers: Record<string, string> = {};
    if (repositories.length === n) {
      const v = new URLSearchParams({ last: repositories[repositories.length - 1]!, n: String(n) });
      headers.Link = `</v2/_catalog?${v}>; rel="next"`;
    }
    return json({ repositories }, headers);
  },
});

function serveManifest(ctx: RegistryContext, owner: UserRow, image: string, reference: string): Response {
  const m = findManifest(ctx.env, owner, image, reference);
  const headers = { "Content-Type": m.mediaType, "Docker-Content-Digest": m.digest, ETag: `"${m.digest}"` };
  if (ctx.request.method === "HEAD") return new Response(null, { headers: { ...headers, "Content-Length": String(m.blob.size) } });
  // The manifest is the version's lead file: its GET counts a download of the version, as Gitea's does.
  return servePackageBlob(ctx.request, m.blob, openBlob(ctx.env, m.blob, m.version), headers);
}

function serveBlob(ctx: RegistryContext, owner: UserRow, image: string, digest: string): Response {
  const b = findImageBlob(ctx.env, owner, image, digest);
  const headers = { "Docker-Content-Digest": digest, ETag: `"${digest}"` };
  if (ctx.request.method === "HEAD") return new Response(null, { headers: { ...headers, "Content-Length": String(b.blob.size) } });
  return servePackageBlob(ctx.request, b.blob, openBlob(ctx.env, b.blob), headers);
}

/** `GET|HEAD /v2/{owner}/{image}/(manifests/{ref} | blobs/{digest} | blobs/uploads/{uuid} | tags/list)`. */
export const read = endpoint({
  type: "container",
  access: readPackages,
  handler(ctx) {
    const owner = ctx.packageOwner;
    const path = target(ctx);
    switch (path.kind) {
      case "manifest":
        return serveManifest(ctx, owner, path.image, path.reference);
      case "blob":
        return serveBlob(ctx, owner, path.image, path.digest);
      case "upload": {
        const u = uploadStatus(ctx.env, path.uuid);
        return empty(204, { Range: `0-${u.bytesReceived}`, "Docker-Upload-Uuid": u.id });
      }
      case "tags": {
        const n = ctx.url.searchParams.get("n")?.trim() ? formInt(ctx.url, "n") : -1;
        const tags = listTags(ctx.env, owner, path.image, n, ctx.url.searchParams.get("last")?.trim() ?? "");
        const headers: Record<string, string> = {};
        if (tags.length > 0) {
          const v = new URLSearchParams({ last: tags[tags.length - 1]! });
          if (n > 0) v.set("n", String(n));
          headers.Link = `</v2/${owner.lowerName}/${path.image}/tags/list?${v}>; rel="next"`;
        }
        return json({ name: `${owner.lowerName}/${path.image}`, tags }, headers);
      }
      default:
        throw errUnsupported(undefined, 404);
    }
  },
});

/**
 * Writes below `/v2/{owner}/{image}/`: `POST blobs/uploads/` (mount, monolithic, or a new chunked
 * upload), `PATCH|PUT|DELETE blobs/uploads/{uuid}`, `PUT manifests/{ref}`, `DELETE blobs/{digest}`
 * and `DELETE manifests/{ref}`.
 */
export const write = endpoint({
  type: "container",
  access: writePackages,
  async handler(ctx) {
    const owner = ctx.packageOwner;
    const path = target(ctx);
    const method = ctx.request.method;
    const q = ctx.url.searchParams;
    const base = `/v2/${owner.lowerName}/${path.image}`;
    const body = ctx.request.body;
    if (method === "POST" && path.kind === "uploads") {
      const mount = q.get("mount")?.trim() ?? "";
      if (mount && mountBlob(ctx.env, ctx.doer, owner, path.image, mount, q.get("from")?.trim() ?? "")) {
        return empty(201, { Location: `${base}/blobs/${mount}`, "Docker-Content-Digest": mount, ETag: `"${mount}"` });
      }
      const digest = q.get("digest")?.trim() ?? "";
      if (digest) {
        const kept = await uploadMonolithic(ctx.env, owner, path.image, digest, body ?? (async function* () {})());
        return empty(201, { Location: `${base}/blobs/${kept}`, "Docker-Content-Digest": kept, ETag: `"${kept}"` });
      }
      const id = createUpload(ctx.env);
      return empty(202, { Location: `${base}/blobs/uploads/${id}`, Range: "0-0", "Docker-Upload-Uuid": id });
    }
    if (path.kind === "upload") {
      if (method === "PATCH") {
        const header = ctx.request.headers.get("content-range");
        const range = header ? (parseContentRange(header) ?? "invalid") : undefined;
        const size = await appendChunk(ctx.env, path.uuid, range, body);
        return empty(202, { Location: `${base}/blobs/uploads/${path.uuid}`, Range: `0-${size - 1}`, "Docker-Upload-Uuid": path.uuid });
      }
      if (method === "PUT") {
        const kept = await finishUpload(ctx.env, owner, path.image, path.uuid, q.get("digest")?.trim() ?? "", body);
        return empty(201, { Location: `${base}/blobs/${kept}`, "Docker-Content-Digest": kept, ETag: `"${kept}"` });
      }
      if (method === "DELETE") {
        await cancelUpload(ctx.env, path.uuid);
        return empty(204);
      }
    }
    if (method === "PUT" && path.kind === "manifest") {
      const pushed = await putManifest(ctx.env, owner, ctx.doer, path.image, path.reference, ctx.request.headers.get("content-type") ?? "", body ?? (async function* () {})());
      return empty(201, { Location: `${base}/manifests/${pushed.reference}`, "Docker-Content-Digest": pushed.digest, ETag: `"${pushed.digest}"` });
    }
    if (method === "DELETE" && path.kind === "blob") {
      deleteImageBlob(ctx.env, owner, path.image, path.digest);
      return empty(202);
    }
    if (method === "DELETE" && path.kind === "manifest") {
      deleteManifest(ctx.env, ctx.doer, owner, path.image, path.reference);
      return empty(202);
    }
    if (path.kind === "blob") throw errBlobUnknown();
    throw errUnsupported();
  },
});
