/**
 * Pure pieces of the OCI distribution protocol as Gitea's container registry reads them
 * (routers/api/packages/container): image names, references, digests, the path below
 * `/v2/{owner}/`, chunk ranges and the media types of manifests.
 */

/** Gitea's imageNamePattern: lower-case path components joined by `/`. */
const IMAGE_NAME = /^[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*$/;
/** The distribution spec's tag. */
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const SHA256_DIGEST = /^sha256:[a-f0-9]{64}$/;
const ANY_DIGEST = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$/;

export function isImageName(name: string): boolean {
  return IMAGE_NAME.test(name);
}

export function isTag(ref: string): boolean {
  return TAG.test(ref);
}

/** A digest hearth can hold: sha256 only (what every blob is stored by). */
export function isSha256Digest(d: string): boolean {
  return SHA256_DIGEST.test(d);
}

/** A well-formed digest of any algorithm (go-digest's Validate, loosely). */
export function isDigest(d: string): boolean {
  return ANY_DIGEST.test(d);
}

export function sha256Digest(hex: string): string {
  return `sha256:${hex}`;
}

/** What a path below `/v2/{owner}/` asks for: the image name may hold `/`, the action is at the end. */
export type OciPath =
  | { kind: "manifest"; image: string; reference: string }
  | { kind: "blob"; image: string; digest: string }
  | { kind: "uploads"; image: string }
  | { kind: "upload"; image: string; uuid: string }
  | { kind: "tags"; image: string };

/**
 * Splits the rest of `/v2/{owner}/{rest}` (still percent-encoded, as the router leaves `*`) into
 * the image and what is asked of it; undefined when the shape is none of the protocol's.
 */
export function parseOciPath(rest: string): OciPath | undefined {
  let parts: string[];
  try {
    parts = rest.replace(/\/+$/, "").split("/").map(decodeURIComponent);
  } catch {
    return undefined;
  }
  if (parts.some((p) => p === "")) return undefined;
  const n = parts.length;
  const image = (end: number) => parts.slice(0, end).join("/");
  if (n >= 3 && parts[n - 2] === "tags" && parts[n - 1] === "list") return { kind: "tags", image: image(n - 2) };
  if (n >= 3 && parts[n - 2] === "blobs" && parts[n - 1] === "uploads") return { kind: "uploads", image: image(n - 2) };
  if (n >= 4 && parts[n - 3] === "blobs" && parts[n - 2] === "uploads") return { kind: "upload", image: image(n - 3), uuid: parts[n - 1]! };
  if (n >= 3 && parts[n - 2] === "blobs") return { kind: "blob", image: image(n - 2), digest: parts[n - 1]! };
  if (n >= 3 && parts[n - 2] === "manifests") return { kind: "manifest", image: image(n - 2), reference: parts[n - 1]! };
  return undefined;
}

/**
 * A PATCH's `Content-Range` as Gitea reads it (`fmt.Sscanf("%d-%d")`): `start-end`, also with a
 * `bytes ` or `bytes=` prefix docker clients send; undefined when it does not parse.
 */
export function parseContentRange(header: string): { start: number; end: number } | undefined {
  const m = /^(?:bytes[ =])?(\d+)-(\d+)(?:\/(?:\d+|\*))?$/.exec(header.trim());
  if (!m) return undefined;
  const start = Number(m[1]);
  const end = Number(m[2]);
  return Number.isSafeInteger(start) && Number.isSafeInteger(end) ? { start, end } : undefined;
}

export const MediaType = {
  OciManifest: "application/vnd.oci.image.manifest.v1+json",
  OciIndex: "application/vnd.oci.image.index.v1+json",
  DockerManifest: "application/vnd.docker.distribution.manifest.v2+json",
  DockerManifestList: "application/vnd.docker.distribution.manifest.list.v2+json",
} as const;

/** Gitea's isValidMediaType: a docker or OCI media type. */
export function isValidMediaType(mt: string): boolean {
  return mt.startsWith("application/vnd.docker.") || mt.startsWith("application/vnd.oci.");
}

export function isImageManifestMediaType(mt: string): boolean {
  const l = mt.toLowerCase();
  return l === MediaType.OciManifest || l === MediaType.DockerManifest;
}

export function isImageIndexMediaType(mt: string): boolean {
  const l = mt.toLowerCase();
  return l === MediaType.OciIndex || l === MediaType.DockerManifestList;
}

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: { os?: string; architecture?: string; variant?: string };
}

/** An image manifest or an index, as much of it as the registry reads. */
export type ParsedManifest =
  | { kind: "image"; mediaType: string; config: Descriptor; layers: Descriptor[] }
  | { kind: "index"; mediaType: string; manifests: Descriptor[] };

/** Why a manifest was refused: Gitea's error code for it and its message. */
export class ManifestError extends Error {
  constructor(
    readonly code: "MANIFEST_INVALID" | "UNSUPPORTED",
    message: string,
  ) {
    super(message);
  }
}

function descriptor(v: unknown): Descriptor {
  const o = v as Record<string, unknown> | null;
  if (!o || typeof o !== "object" || typeof o.digest !== "string" || !isDigest(o.digest)) throw new ManifestError("MANIFEST_INVALID", "manifest invalid");
  const size = typeof o.size === "number" && Number.isSafeInteger(o.size) ? o.size : -1;
  const platform = o.platform && typeof o.platform === "object" ? (o.platform as Descriptor["platform"]) : undefined;
  return { mediaType: typeof o.mediaType === "string" ? o.mediaType : "", digest: o.digest, size, ...(platform ? { platform } : {}) };
}

/**
 * Gitea's processManifest: the schema version must be 2; the media type is the request's
 * Content-Type when it is a docker or OCI one, else the document's `mediaType`; image manifests
 * name a config and layers, indexes name manifests.
 */
export function parseManifest(body: Uint8Array, contentType: string): ParsedManifest {
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    throw new ManifestError("MANIFEST_INVALID", "manifest invalid");
  }
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) throw new ManifestError("MANIFEST_INVALID", "manifest invalid");
  if (doc.schemaVersion !== 2) throw new ManifestError("UNSUPPORTED", "Schema version is not supported");
  let mediaType = contentType.split(";")[0]!.trim();
  if (!isValidMediaType(mediaType)) {
    mediaType = typeof doc.mediaType === "string" ? doc.mediaType : "";
    if (!isValidMediaType(mediaType)) throw new ManifestError("MANIFEST_INVALID", "MediaType not recognized");
  }
  if (isImageManifestMediaType(mediaType)) {
    const layers = Array.isArray(doc.layers) ? doc.layers.map(descriptor) : [];
    return { kind: "image", mediaType, config: descriptor(doc.config), layers };
  }
  if (isImageIndexMediaType(mediaType)) {
    const manifests = Array.isArray(doc.manifests) ? doc.manifests.map(descriptor) : [];
    for (const m of manifests) if (!isImageManifestMediaType(m.mediaType)) throw new ManifestError("MANIFEST_INVALID", "manifest invalid");
    return { kind: "index", mediaType, manifests };
  }
  throw new ManifestError("MANIFEST_INVALID", "manifest invalid");
}

/** Gitea's platform of an index entry: `os/arch[/variant]`, `unknown/unknown` without one. */
export function platformOf(d: Descriptor): string {
  if (!d.platform) return "unknown/unknown";
  const p = `${d.platform.os ?? ""}/${d.platform.architecture ?? ""}`;
  return d.platform.variant ? `${p}/${d.platform.variant}` : p;
}
