import { BadRequest } from "./errors.ts";

/**
 * A cookbook's metadata as Gitea stores it (modules/packages/chef/metadata.go, by its JSON names;
 * empty fields left out as Go's `omitempty` does).
 */
export interface ChefMetadata {
  description?: string;
  long_description?: string;
  author?: string;
  license?: string;
  repository_url?: string;
  dependencies?: Record<string, string>;
}

export interface ChefCookbook {
  name: string;
  version: string;
  metadata: ChefMetadata;
}

const NAME = /^\S+$/;
const VERSION = /^\d+\.\d+(?:\.\d+)?$/;

/** Gitea's validation.IsValidURL: an absolute http(s) URL. */
function isValidUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return (u.protocol === "http:" || u.protocol === "https:") && u.host !== "";
  } catch {
    return false;
  }
}

/**
 * Gitea's ParseChefMetadata over a cookbook's `metadata.json`: `name` (no whitespace) and
 * `version` (`1.2` or `1.2.3`), else Gitea's 400s; the maintainer becomes the author, a
 * `source_url` that is no http(s) URL is dropped.
 */
export function parseChefMetadata(text: string): ChefCookbook {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new BadRequest(`invalid metadata.json: ${(err as Error).message}`);
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new BadRequest("invalid metadata.json");
  const o = raw as Record<string, unknown>;
  const str = (k: string) => (typeof o[k] === "string" ? (o[k] as string) : "");
  const name = str("name");
  const version = str("version");
  if (!NAME.test(name)) throw new BadRequest("package name is invalid");
  if (!VERSION.test(version)) throw new BadRequest("package version is invalid");
  const metadata: ChefMetadata = {};
  if (str("description")) metadata.description = str("description");
  if (str("long_description")) metadata.long_description = str("long_description");
  if (str("maintainer")) metadata.author = str("maintainer");
  if (str("license")) metadata.license = str("license");
  if (isValidUrl(str("source_url"))) metadata.repository_url = str("source_url");
  const deps = o.dependencies;
  if (deps && typeof deps === "object" && !Array.isArray(deps)) {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(deps)) if (typeof v === "string") out[k] = v;
    if (Object.keys(out).length) metadata.dependencies = out;
  }
  return { name, version, metadata };
}

/** Gitea's test for the member it reads: a regular file `<dir>/metadata.json`, exactly one level down. */
export function isCookbookMetadataPath(path: string): boolean {
  return (path.match(/\//g) ?? []).length === 1 && path.slice(path.lastIndexOf("/") + 1) === "metadata.json";
}

/** Orders cookbook versions (`1.2` or `1.2.3`, a missing part is 0) as Gitea's semver does. */
export function compareChefVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return d < 0 ? -1 : 1;
  }
  return 0;
}
