import { BadRequest } from "./errors.ts";
import { parseSemver } from "./npm-version.ts";

// npm packages as Gitea's npm registry reads them (modules/packages/npm/creator.go): names, the
// paths clients spell them in, and the document `npm publish` sends.

const NAME = /^(@[a-z0-9-][a-z0-9-._]*\/)?[a-z0-9-][a-z0-9-._]*$/;

/** Gitea's validateName: npm's rules for a (possibly scoped) lower-case name of at most 214 characters. */
export function isValidNpmName(name: string): boolean {
  return name.trim() === name && name.length > 0 && name.length <= 214 && NAME.test(name);
}

/** The scope (`@scope`, or "") and the name without it. */
export function splitScope(name: string): { scope: string; name: string } {
  const i = name.startsWith("@") ? name.indexOf("/") : -1;
  return i < 0 ? { scope: "", name } : { scope: name.slice(0, i), name: name.slice(i + 1) };
}

/**
 * A registry path below `…/npm/` (still percent-escaped, as the router leaves a rest): the package
 * name and the decoded segments after it. A scoped name comes as one segment (`@scope%2fname`, npm's
 * own spelling) or as two (`@scope/name`). Undefined when a segment does not decode.
 */
export function splitNpmPath(rest: string): { name: string; tail: string[] } | undefined {
  const raw = rest.endsWith("/") ? rest.slice(0, -1) : rest;
  const segments: string[] = [];
  for (const s of raw.split("/")) {
    try {
      segments.push(decodeURIComponent(s));
    } catch {
      return undefined;
    }
  }
  const first = segments[0] ?? "";
  if (first === "") return undefined;
  if (first.startsWith("@") && !first.includes("/")) {
    if (segments.length < 2 || segments[1] === "") return undefined;
    return { name: `${first}/${segments[1]}`, tail: segments.slice(2) };
  }
  return { name: first, tail: segments.slice(1) };
}

/** Gitea's npm Metadata, stored as the version's metadata JSON under Gitea's own keys. */
export interface NpmMetadata {
  scope?: string;
  name?: string;
  description?: string;
  author?: string;
  license?: string;
  project_url?: string;
  keywords?: string[];
  dependencies?: Record<string, string>;
  bundleDependencies?: string[];
  development_dependencies?: Record<string, string>;
  peer_dependencies?: Record<string, string>;
  peer_dependencies_meta?: Record<string, unknown>;
  optional_dependencies?: Record<string, string>;
  bin?: Record<string, string>;
  readme?: string;
  repository: { type: string; url: string };
  has_install_script?: boolean;
  engines?: Record<string, string>;
  cpu?: string[];
  os?: string[];
  libc?: string[];
  directories?: Record<string, string>;
  funding?: unknown;
  deprecated?: string;
}

export type IntegrityAlgorithm = "sha1" | "sha512";

/** What a publish document carries: one version, its tags, its metadata and its tarball (base64). */
export interface NpmPublish {
  name: string;
  version: string;
  distTags: string[];
  metadata: NpmMetadata;
  /** Gitea's file name: `{name without scope}-{version}.tgz`, lower case. */
  filename: string;
  /** The tarball, base64 (checked to be well-formed). */
  data: string;
  /** The digest the client claims for the tarball, hex. */
  integrity: { algorithm: IntegrityAlgorithm; hex: string };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

function strMap(v: unknown): Record<string, string> | undefined {
  if (!isObject(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) if (typeof x === "string") out[k] = x;
  return Object.keys(out).length ? out : undefined;
}

function strList(v: unknown): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out = v.filter((x): x is string => typeof x === "string");
  return out.length ? out : undefined;
}

/** npm's "person": a string (`Name <mail> (url)`) or an object with a name. */
const personName = (v: unknown): string => (isObject(v) ? str(v.name) : str(v));

/** Gitea's IsValidURL: an absolute http(s) URL. */
function isWebUrl(s: string): boolean {
  if (!URL.canParse(s)) return false;
  const { protocol } = new URL(s);
  return protocol === "http:" || protocol === "https:";
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Whether `s` is standard, padded base64 (Go's StdEncoding). */
export function isBase64(s: string): boolean {
  return s.length % 4 === 0 && BASE64.test(s);
}

/** `sha512-<base64>` (or sha1) as the algorithm and the hex digest; undefined when malformed. */
export function parseIntegrity(integrity: string): { algorithm: IntegrityAlgorithm; hex: string } | undefined {
  const dash = integrity.indexOf("-");
  if (dash < 0) return undefined;
  const algorithm = integrity.slice(0, dash);
  const digest = integrity.slice(dash + 1);
  if ((algorithm !== "sha1" && algorithm !== "sha512") || !isBase64(digest)) return undefined;
  const hex = Buffer.from(digest, "base64").toString("hex");
  return hex.length === (algorithm === "sha1" ? 40 : 128) ? { algorithm, hex } : undefined;
}

function metadataOf(meta: Record<string, unknown>, scope: string, name: string): NpmMetadata {
  const homepage = str(meta.homepage);
  const repository = isObject(meta.repository)
    ? { type: str(meta.repository.type), url: str(meta.repository.url) }
    : { type: "", url: str(meta.repository) };
  let bin = strMap(meta.bin);
  if (!bin && typeof meta.bin === "string" && meta.bin) bin = { [name]: meta.bin };
  const scripts = isObject(meta.scripts) ? meta.scripts : {};
  const license = isObject(meta.license) ? str(meta.license.type) : str(meta.license);
  const out: NpmMetadata = {
    scope: scope || undefined,
    name,
    description: str(meta.description) || undefined,
    author: personName(meta.author) || undefined,
    license: license || undefined,
    project_url: isWebUrl(homepage) ? homepage : undefined,
    keywords: strList(meta.keywords),
    dependencies: strMap(meta.dependencies),
    bundleDependencies: strList(meta.bundleDependencies ?? meta.bundledDependencies),
    development_dependencies: strMap(meta.devDependencies),
    peer_dependencies: strMap(meta.peerDependencies),
    peer_dependencies_meta: isObject(meta.peerDependenciesMeta) ? meta.peerDependenciesMeta : undefined,
    optional_dependencies: strMap(meta.optionalDependencies),
    bin,
    readme: str(meta.readme) || undefined,
    repository,
    has_install_script: ["preinstall", "install", "postinstall"].some((s) => typeof scripts[s] === "string") || undefined,
    engines: strMap(meta.engines),
    cpu: strList(meta.cpu),
    os: strList(meta.os),
    libc: strList(meta.libc),
    directories: strMap(meta.directories),
    funding: meta.funding ?? undefined,
    deprecated: str(meta.deprecated) || undefined,
  };
  for (const k of Object.keys(out) as (keyof NpmMetadata)[]) if (out[k] === undefined) delete out[k];
  return out;
}

/**
 * Gitea's ParsePackage over the parsed JSON of a publish: the first version of `versions` (a
 * valid name, a semantic version, normalised), every tag of `dist-tags`, the first attachment
 * (well-formed base64) and the integrity the version's `dist` claims. Throws Gitea's 400s.
 */
export function parseNpmPublish(doc: unknown): NpmPublish {
  if (!isObject(doc)) throw new BadRequest("package is invalid");
  const versions = isObject(doc.versions) ? Object.values(doc.versions) : [];
  const meta = versions[0];
  if (!isObject(meta)) throw new BadRequest("package is invalid");
  const fullName = str(meta.name);
  if (!isValidNpmName(fullName)) throw new BadRequest("package name is invalid");
  const version = parseSemver(str(meta.version));
  if (!version) throw new BadRequest("package version is invalid");
  const { scope, name } = splitScope(fullName);
  const attachment = isObject(doc._attachments) ? Object.values(doc._attachments)[0] : undefined;
  const data = isObject(attachment) ? str(attachment.data) : "";
  if (data === "" || !isBase64(data)) throw new BadRequest("package attachment is invalid");
  const dist = isObject(meta.dist) ? meta.dist : {};
  const integrity = parseIntegrity(str(dist.integrity));
  if (!integrity) throw new BadRequest("failed to validate integrity");
  return {
    name: fullName,
    version: version.text,
    distTags: isObject(doc["dist-tags"]) ? Object.keys(doc["dist-tags"]) : [],
    metadata: metadataOf(meta, scope, name),
    filename: `${name}-${version.text}.tgz`.toLowerCase(),
    data,
    integrity,
  };
}

/** The bytes of base64 `data`, decoded a slice at a time (`chunkChars`, a multiple of 4). */
export async function* base64Chunks(data: string, chunkChars = 1 << 20): AsyncGenerator<Uint8Array> {
  if (chunkChars <= 0 || chunkChars % 4 !== 0) throw new RangeError("chunkChars must be a positive multiple of 4");
  for (let i = 0; i < data.length; i += chunkChars) {
    yield Buffer.from(data.slice(i, i + chunkChars), "base64");
  }
}

/**
 * Gitea's GetRepositoryByURL for a manifest's `repository.url`: the owner and repository of a URL
 * under this site's `appUrl` (also with npm's `git+` prefix), `.git` optional; undefined for any
 * other URL.
 */
export function repositoryOfUrl(url: string, appUrl: string): { owner: string; repo: string } | undefined {
  const bare = url.startsWith("git+") ? url.slice(4) : url;
  if (!bare.startsWith(appUrl)) return undefined;
  const segments = bare.slice(appUrl.length).split("/");
  if (segments.length !== 2 || !segments[0]) return undefined;
  const repo = segments[1]!.endsWith(".git") ? segments[1]!.slice(0, -4) : segments[1]!;
  return repo ? { owner: segments[0], repo } : undefined;
}
