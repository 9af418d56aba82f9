import { child, children, decodeXml, escapeXmlText, parseXml, textOf, XmlSyntaxError } from "./xml.ts";

/**
 * Maven repository layout and documents, as Gitea's maven registry reads and writes them
 * (routers/api/packages/maven, modules/packages/maven): the path of a file, a pom's metadata, the
 * artifact-level maven-metadata.xml.
 */

export const MAVEN_METADATA_FILE = "maven-metadata.xml";

export type ChecksumKind = "md5" | "sha1" | "sha256" | "sha512";
const CHECKSUM_KINDS: readonly ChecksumKind[] = ["md5", "sha1", "sha256", "sha512"];

/** What a path below `/maven/` names. */
export interface MavenPath {
  groupId: string;
  artifactId: string;
  /** "" for the artifact-level maven-metadata.xml (and its checksums). */
  version: string;
  filename: string;
  /** maven-metadata.xml or one of its checksum files. */
  isMeta: boolean;
}

/** Gitea's illegalCharacters: refused in a group, an artifact and a version. */
const ILLEGAL = /[\\/:"<>|?*]/;

/**
 * Gitea's extractPathParameters over the route's escaped rest:
 * `{group/path}/{artifact}/maven-metadata.xml[.md5|…]`,
 * `{group/path}/{artifact}/{version}-SNAPSHOT/maven-metadata.xml[.md5|…]` and
 * `{group/path}/{artifact}/{version}/{file}`. Undefined when it names nothing
 * ("request parameters are invalid").
 */
export function parseMavenPath(escapedRest: string): MavenPath | undefined {
  let rest: string;
  try {
    rest = decodeURIComponent(escapedRest);
  } catch {
    return undefined;
  }
  const parts = rest.split("/");
  const filename = parts.pop()!;
  if (filename === "") return undefined;
  const isMeta = filename === MAVEN_METADATA_FILE || CHECKSUM_KINDS.some((k) => filename === `${MAVEN_METADATA_FILE}.${k}`);
  if (parts.length === 0) return undefined;
  let version = parts[parts.length - 1]!;
  if (isMeta && !version.endsWith("-SNAPSHOT")) version = "";
  else parts.pop();
  if (ILLEGAL.test(version)) return undefined;
  if (parts.length < 2) return undefined;
  const artifactId = parts.pop()!;
  const groupId = parts.join(".");
  if (ILLEGAL.test(groupId) || ILLEGAL.test(artifactId)) return undefined;
  return { groupId, artifactId, version, filename, isMeta };
}

/** The package's name in hearth (and in Gitea since 1.23): `groupId:artifactId`. */
export function mavenPackageName(p: Pick<MavenPath, "groupId" | "artifactId">): string {
  return `${p.groupId}:${p.artifactId}`;
}

/**
 * The checksum a file name asks for (`x.jar.sha1` → sha1) and the file it is of. `ignoreCase`:
 * Gitea lower-cases the extension on reads but not on uploads.
 */
export function checksumOf(filename: string, ignoreCase: boolean): { kind: ChecksumKind; of: string } | undefined {
  const dot = filename.lastIndexOf(".");
  if (dot < 0) return undefined;
  const ext = filename.slice(dot + 1);
  const kind = (ignoreCase ? ext.toLowerCase() : ext) as ChecksumKind;
  return CHECKSUM_KINDS.includes(kind) ? { kind, of: filename.slice(0, dot) } : undefined;
}

/**
 * The Content-Type of a stored file by its extension (undefined: the default, octet-stream): Gitea's
 * for `.jar` and `.pom`, and text/xml for a SNAPSHOT's maven-metadata.xml too, as for the artifact's.
 */
export function mavenContentType(filename: string): string | undefined {
  const dot = filename.lastIndexOf(".");
  if (dot < 0) return undefined;
  const ext = filename.slice(dot + 1).toLowerCase();
  if (ext === "jar") return "application/java-archive";
  if (ext === "pom" || ext === "xml") return "text/xml";
  return undefined;
}

/** A pom's metadata as Gitea stores it (the version's metadata JSON; empty fields left out). */
export interface MavenMetadata {
  group_id?: string;
  artifact_id?: string;
  name?: string;
  description?: string;
  project_url?: string;
  licenses?: string[];
  dependencies?: { group_id?: string; artifact_id?: string; version?: string }[];
}

export class InvalidPom extends Error {}

function isWebUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

/** Drops empty strings and empty lists, as Go's `omitempty` does. */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== "" && v !== undefined && !(Array.isArray(v) && v.length === 0))) as T;
}

/**
 * Gitea's ParsePackageMetaData: a `<project>` document (in the encoding it declares); groupId is
 * inherited from `<parent>` when the project has none; a project without an artifactId, a
 * document that is not well-formed XML or whose root is not `<project>` is invalid. The project
 * URL is kept only when it is an http(s) URL.
 */
export function parsePom(bytes: Uint8Array): MavenMetadata {
  let root;
  try {
    root = parseXml(decodeXml(bytes));
  } catch (err) {
    if (err instanceof XmlSyntaxError) throw new InvalidPom(err.message);
    throw err;
  }
  if (root.local !== "project") throw new InvalidPom(`expected element type <project> but have <${root.name}>`);
  const artifactId = textOf(child(root, "artifactId"));
  if (artifactId === "") throw new InvalidPom("invalid argument: the pom has no artifactId");
  const groupId = textOf(child(root, "groupId")) || textOf(child(child(root, "parent"), "groupId"));
  const url = textOf(child(root, "url"));
  const licenses = children(root, "licenses")
    .flatMap((ls) => children(ls, "license"))
    .map((l) => textOf(child(l, "name")))
    .filter((n) => n !== "");
  const dependencies = children(root, "dependencies")
    .flatMap((ds) => children(ds, "dependency"))
    .map((d) =>
      compact({ group_id: textOf(child(d, "groupId")), artifact_id: textOf(child(d, "artifactId")), version: textOf(child(d, "version")) }),
    );
  return compact({
    group_id: groupId,
    artifact_id: artifactId,
    name: textOf(child(root, "name")),
    description: textOf(child(root, "description")),
    project_url: isWebUrl(url) ? url : "",
    licenses,
    dependencies,
  });
}

/** Go's xml.Header, which starts every document Gitea writes. */
export const XML_HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';

/**
 * The artifact-level maven-metadata.xml Gitea generates (createMetadataResponse): `versions` in
 * the order they were created; `latest` is the last of them, `release` the last that is not a
 * SNAPSHOT (left out when there is none). Byte for byte what Go's xml.Marshal writes.
 */
export function artifactMetadataXml(groupId: string, artifactId: string, versions: readonly string[]): string {
  const release = versions.findLast((v) => !v.endsWith("-SNAPSHOT"));
  const latest = versions.at(-1) ?? "";
  const e = escapeXmlText;
  return (
    XML_HEADER +
    `<metadata><groupId>${e(groupId)}</groupId><artifactId>${e(artifactId)}</artifactId><versioning>` +
    (release !== undefined ? `<release>${e(release)}</release>` : "") +
    `<latest>${e(latest)}</latest><versions>${versions.map((v) => `<version>${e(v)}</version>`).join("")}</versions>` +
    `</versioning></metadata>`
  );
}
