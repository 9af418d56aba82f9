import { BadRequest, TooLarge } from "../../../lib/errors.ts";
import { contentDisposition } from "../../../lib/content-disposition.ts";
import { checksumOf, InvalidPom, mavenContentType, parseMavenPath, parsePom, type MavenMetadata, type MavenPath } from "../../../lib/maven.ts";
import { openBlob } from "../../../services/packages/lookup.ts";
import { blobChecksum, findMavenFile, mavenArtifactMetadata, uploadMavenFile, verifyMavenChecksum } from "../../../services/packages/maven/files.ts";
import type { RegistryErrorFormat } from "../../doors/packages.ts";
import { endpoint, readPackages, writePackages, type RegistryContext } from "../registry.ts";
import { servePackageBlob } from "../serve.ts";

// Gitea's maven registry (routers/api/packages/maven): PUT, GET and HEAD on any path below
// /maven/, which names a file of a version, a SNAPSHOT version's maven-metadata.xml or the
// artifact's maven-metadata.xml (generated; a client's upload of it is ignored).

/** Gitea's apiError for maven: the message as plain text. */
const mavenErrors: RegistryErrorFormat = (status, message) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain;charset=utf-8" } });

/** A pom is a metadata document read whole to be parsed; anything near this size is not one. */
const MAX_POM_BYTES = 16 * 1024 * 1024;
/** A checksum file holds one hex digest (sha512: 128 characters). */
const MAX_CHECKSUM_BYTES = 1024;

function pathOf(ctx: RegistryContext): MavenPath {
  const path = parseMavenPath(ctx.params["*"] ?? "");
  if (!path) throw new BadRequest("request parameters are invalid");
  return path;
}

function plainText(body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, { headers: { "Content-Type": "text/plain;charset=utf-8", ...headers } });
}

function httpDate(unix: number): string {
  return new Date(unix * 1000).toUTCString();
}

/** The request body, whole, when it has at most `cap` bytes; `undefined` past that (the rest is not read). */
async function readAtMost(request: Request, cap: number): Promise<Uint8Array | undefined> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > cap) {
    await request.body?.cancel().catch(() => {});
    return undefined;
  }
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.byteLength;
    if (size > cap) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

/**
 * `GET|HEAD …/maven/{group path}/{artifact}/…`: the generated artifact-level maven-metadata.xml
 * (or its digest), a stored file with Content-Type by extension, Content-Length and Last-Modified,
 * or a file's `.md5|.sha1|.sha256|.sha512` from its blob's digests. A GET of a version's lead file
 * (its pom) counts a download; a HEAD answers the same headers and counts nothing.
 */
export const download = endpoint({
  type: "maven",
  access: readPackages,
  errors: mavenErrors,
  handler(ctx) {
    const path = pathOf(ctx);
    const checksum = checksumOf(path.filename, true);
    if (path.isMeta && path.version === "") {
      const { xml, lastModifiedUnix } = mavenArtifactMetadata(ctx.env, ctx.packageOwner, path);
      const bytes = Buffer.from(xml);
      const lastModified = httpDate(lastModifiedUnix);
      if (checksum) return plainText(new Bun.CryptoHasher(checksum.kind).update(bytes).digest("hex"), { "Last-Modified": lastModified });
      return new Response(bytes, {
        headers: { "Content-Type": "text/xml", "Content-Length": String(bytes.byteLength), "Last-Modified": lastModified },
      });
    }
    const { version, file, blob } = findMavenFile(ctx.env, ctx.packageOwner, path, checksum ? checksum.of : path.filename);
    if (checksum) return plainText(blobChecksum(blob, checksum.kind));
    const count = ctx.request.method === "GET" && file.isLead ? version : undefined;
    return servePackageBlob(ctx.request, blob, openBlob(ctx.env, blob, count), {
      "Content-Type": mavenContentType(file.name) ?? "application/octet-stream",
      "Last-Modified": httpDate(file.createdUnix),
      "Content-Disposition": contentDisposition("attachment", file.name),
    });
  },
});

/**
 * `PUT …/maven/{group path}/{artifact}/{version}/{file}`: 201 for a new file (a `.pom` is parsed:
 * 400 when invalid, its metadata the version's), 409 for one already there; 200 for a checksum
 * file that matches the stored file's digest (400 "hash mismatch", 404 without the file), and 200
 * for the artifact's maven-metadata.xml, which hearth generates and so ignores.
 */
export const upload = endpoint({
  type: "maven",
  access: writePackages,
  errors: mavenErrors,
  async handler(ctx) {
    const path = pathOf(ctx);
    if (path.isMeta && path.version === "") {
      await ctx.request.body?.cancel().catch(() => {});
      return new Response(null, { status: 200 });
    }
    const checksum = checksumOf(path.filename, false);
    if (checksum) {
      const body = await readAtMost(ctx.request, MAX_CHECKSUM_BYTES);
      const given = body && new TextDecoder().decode(body);
      verifyMavenChecksum(ctx.env, ctx.packageOwner, path, checksum.of, checksum.kind, given);
      return new Response(null, { status: 200 });
    }
    let data: AsyncIterable<Uint8Array>;
    let pom: MavenMetadata | undefined;
    if (path.filename.endsWith(".pom")) {
      const bytes = await readAtMost(ctx.request, MAX_POM_BYTES);
      if (!bytes) throw new TooLarge(`the pom is larger than ${MAX_POM_BYTES} bytes`);
      try {
        pom = parsePom(bytes);
      } catch (err) {
        if (err instanceof InvalidPom) throw new BadRequest(err.message);
        throw err;
      }
      data = once(bytes);
    } else {
      data = ctx.request.body ?? once(new Uint8Array());
    }
    await uploadMavenFile(ctx.env, { owner: ctx.packageOwner, creator: ctx.doer, path, data, pom });
    return new Response(null, { status: 201 });
  },
});
