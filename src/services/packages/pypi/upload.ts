import type { Env } from "../../env.ts";
import type { UserRow } from "../../../db/schema/index.ts";
import type { Doer } from "../../access/permission.ts";
import type { FormPart } from "../../../lib/multipart-stream.ts";
import { BadRequest } from "../../../lib/errors.ts";
import { displayName, homepageOf, isValidProjectName, isValidVersion } from "../../../lib/pypi.ts";
import type { BlobHashes, StagedBlob } from "../../../storage/package-blobs.ts";
import { packageBlobStore, stageUpload, storePackageFile, storeStagedFile, type StagedPackageFile } from "../store.ts";
import type { PyPIMetadata } from "./metadata.ts";

/** The form fields an upload records, read once each (Go's FormValue takes the first). */
const SINGLE = new Set([
  "name",
  "version",
  "sha256_digest",
  "author",
  "author_email",
  "maintainer",
  "maintainer_email",
  "description",
  "long_description",
  "description_content_type",
  "summary",
  "home_page",
  "license",
  "keywords",
  "requires_python",
]);
/** The fields an upload may repeat. */
const MULTI = new Set(["classifiers", "project_urls"]);
/** All plain values together may have this many bytes (Go's allowance beside the file: 10 MB). */
const VALUES_LIMIT = 10 << 20;

/** The plain fields of the upload form, bounded in size; fields nothing reads are skipped unread. */
class FormValues {
  private readonly values = new Map<string, string[]>();
  private budget = VALUES_LIMIT;

  /** The part is a field still to be read. */
  wants(part: FormPart): boolean {
    return part.filename === undefined && (MULTI.has(part.name) || (SINGLE.has(part.name) && !this.values.has(part.name)));
  }

  async read(part: FormPart): Promise<void> {
    const value = await part.text(this.budget);
    this.budget -= Buffer.byteLength(value);
    this.values.set(part.name, [...(this.values.get(part.name) ?? []), value]);
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  get(name: string): string {
    return this.values.get(name)?.[0] ?? "";
  }

  all(name: string): string[] {
    return this.values.get(name) ?? [];
  }
}

/** Gitea's checks, in its order: the digest of the bytes, then the name and version. */
function checkDigest(form: FormValues, hashes: BlobHashes): void {
  if (form.get("sha256_digest").toLowerCase() !== hashes.sha256) throw new BadRequest("hash mismatch");
}

function target(form: FormValues): { name: string; version: string } {
  const name = displayName(form.get("name"));
  const version = form.get("version");
  if (!isValidProjectName(name) || !isValidVersion(version)) throw new BadRequest("invalid name or version");
  return { name, version };
}

function metadataOf(form: FormValues): PyPIMetadata {
  return {
    author: form.get("author"),
    description: form.get("description"),
    long_description: form.get("long_description"),
    summary: form.get("summary"),
    project_url: homepageOf(form.all("project_urls"), form.get("home_page")),
    license: form.get("license"),
    requires_python: form.get("requires_python"),
    author_email: form.get("author_email"),
    maintainer: form.get("maintainer"),
    maintainer_email: form.get("maintainer_email"),
    keywords: form.get("keywords"),
    description_content_type: form.get("description_content_type"),
    classifiers: form.all("classifiers"),
    project_urls: form.all("project_urls"),
  };
}

/** The file's bytes, then the rest of the form, which may not carry a field the upload records. */
async function* fileThenRest(file: FormPart, rest: AsyncIterator<FormPart>, form: FormValues): AsyncGenerator<Uint8Array> {
  yield* file.chunks();
  for (let next = await rest.next(); !next.done; next = await rest.next()) {
    // Recorded when the file's version is made, so they must have come first (twine and every
    // other client send them first; a form that starts with the file is kept aside instead).
    if (form.wants(next.value)) throw new BadRequest(`the form field ${next.value.name} must come before the file`);
  }
}

export interface PyPIUpload {
  owner: UserRow;
  creator: Doer;
  /** The multipart/form-data parts of the upload (twine's `:action=file_upload` form). */
  parts: AsyncIterable<FormPart>;
}

/**
 * Gitea's PyPI UploadPackageFile over a streamed form: the `content` file (its name is the
 * file's), `name`, `version` and a `sha256_digest` that must be the file's (400 "hash mismatch"),
 * the project's metadata from the other fields; the version is made by its first file, a file
 * already in it is a 409. When the name, version and digest come before the file, as twine sends
 * them, the file's bytes go straight to the blob store; a form that starts with its file has the
 * file kept aside, hashed, until the fields after it are read.
 */
export async function uploadDistribution(env: Env, upload: PyPIUpload): Promise<void> {
  const form = new FormValues();
  const parts = upload.parts[Symbol.asyncIterator]();
  let aside: { staged: StagedBlob; filename: string } | undefined;
  /** The file as the package core stores it, named and described by the fields read so far. */
  const describe = (filename: string): StagedPackageFile => {
    const { name, version } = target(form);
    if (filename === "." || filename === ".." || filename === "/") throw new BadRequest("invalid filename");
    return {
      owner: upload.owner,
      creator: upload.creator,
      type: "pypi",
      name,
      version,
      semverCompatible: false,
      metadata: metadataOf(form),
      existingVersion: "add",
      file: { name: filename, isLead: true },
    };
  };
  try {
    for (let next = await parts.next(); !next.done; next = await parts.next()) {
      const part = next.value;
      if (part.name === "content" && part.filename !== undefined) {
        if (aside) continue; // Go's FormFile: the first file of the field
        if (form.has("name") && form.has("version") && form.has("sha256_digest")) {
          const file = describe(part.filename);
          await storePackageFile(env, {
            ...file,
            file: { ...file.file, data: fileThenRest(part, parts, form) },
            verify: (hashes: BlobHashes) => checkDigest(form, hashes),
          });
          return;
        }
        aside = { staged: await stageUpload(env, "pypi", part.chunks()), filename: part.filename };
      } else if (form.wants(part)) {
        await form.read(part);
      }
    }
    if (!aside) throw new BadRequest("http: no such file");
    const { staged, filename } = aside;
    checkDigest(form, staged.hashes);
    const file = describe(filename);
    aside = undefined; // storeStagedFile keeps or drops it from here on
    await storeStagedFile(env, file, staged);
  } finally {
    if (aside) await packageBlobStore(env).discard(aside.staged);
    await parts.return?.(undefined);
  }
}
