/**
 * Cargo's registry formats (Gitea's modules/packages/cargo and services/packages/cargo): the
 * metadata of `cargo publish`, the index's file paths and lines, and a reader of the publish
 * body's framing (u32 little-endian length, JSON, u32 little-endian length, the .crate).
 */

/** The version property holding whether a version is yanked ("true" / "false"). */
export const CARGO_YANKED = "cargo.yanked";

/** A dependency as the index lists it (Gitea's cargo Dependency). */
export interface CargoDependency {
  name: string;
  req: string;
  features: string[] | null;
  optional: boolean;
  default_features: boolean;
  target: string | null;
  kind: string;
  registry: string | null;
  package: string | null;
}

/** What a version records of its publish metadata (Gitea's cargo Metadata, its JSON names). */
export interface CargoMetadata {
  dependencies?: CargoDependency[];
  features?: Record<string, string[]>;
  authors?: string[];
  description?: string;
  documentation_url?: string;
  project_url?: string;
  readme?: string;
  keywords?: string[];
  categories?: string[];
  license?: string;
  repository_url?: string;
  links?: string;
}

export interface CargoPublish {
  name: string;
  version: string;
  metadata: CargoMetadata;
}

export class CargoFormatError extends Error {}

const NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;
// hashicorp/go-version's semver form, as Gitea's NewSemver takes it.
const SEMVER =
  /^v?(\d+(?:\.\d+)*?)(?:-(\d+[0-9A-Za-z\-~]*(?:\.[0-9A-Za-z\-~]+)*)|(?:-?([A-Za-z\-~]+[0-9A-Za-z\-~]*(?:\.[0-9A-Za-z\-~]+)*)))?(?:\+([0-9A-Za-z\-~]+(?:\.[0-9A-Za-z\-~]+)*))?$/;

export const isValidCrateName = (name: string) => NAME.test(name);
export const isValidCrateVersion = (v: string) => SEMVER.test(v);

/** Gitea's IsValidURL: an http(s) URL with a host. */
function validUrl(v: unknown): string {
  if (typeof v !== "string" || !v) return "";
  try {
    const u = new URL(v);
    return (u.protocol === "http:" || u.protocol === "https:") && u.host ? v : "";
  } catch {
    return "";
  }
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");
const strOrNull = (v: unknown): string | null => (typeof v === "string" ? v : null);
const strList = (v: unknown): string[] | undefined =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined;

function features(v: unknown): Record<string, string[]> | undefined {
  if (!v || typeof v !== "object" || Array.isArray(v)) return undefined;
  const out: Record<string, string[]> = {};
  for (const [k, list] of Object.entries(v)) out[k] = strList(list) ?? [];
  return out;
}

/** Drops the keys Go's omitempty would leave out. */
function compact(m: CargoMetadata): CargoMetadata {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(m)) {
    if (v === undefined || v === "" || (Array.isArray(v) && v.length === 0)) continue;
    if (typeof v === "object" && !Array.isArray(v) && Object.keys(v as object).length === 0) continue;
    out[k] = v;
  }
  return out as CargoMetadata;
}

/**
 * The publish metadata (Gitea's parsePackage): name and version checked, URLs kept only when
 * valid, dependencies in the index's form. A renamed dependency (`explicit_name_in_toml`) is
 * listed under its name in Cargo.toml with `package` the crate's name; any other dependency under
 * the crate's name, as cargo's index format describes.
 */
export function parseCargoMetadata(text: string): CargoPublish {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new CargoFormatError(err instanceof Error ? err.message : "invalid JSON");
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new CargoFormatError("invalid metadata");
  const m = raw as Record<string, unknown>;
  const name = str(m.name);
  const version = str(m.vers);
  if (!isValidCrateName(name)) throw new CargoFormatError("package name is invalid");
  if (!isValidCrateVersion(version)) throw new CargoFormatError("package version is invalid");
  const deps = Array.isArray(m.deps) ? m.deps : [];
  const dependencies: CargoDependency[] = deps
    .filter((d): d is Record<string, unknown> => !!d && typeof d === "object")
    .map((d) => {
      const crate = str(d.name);
      const renamed = str(d.explicit_name_in_toml);
      return {
        name: renamed || crate,
        req: str(d.version_req),
        features: strList(d.features) ?? null,
        optional: d.optional === true,
        default_features: d.default_features === true,
        target: strOrNull(d.target),
        kind: str(d.kind),
        registry: strOrNull(d.registry),
        package: renamed ? crate : null,
      };
    });
  return {
    name,
    version,
    metadata: compact({
      dependencies,
      features: features(m.features),
      authors: strList(m.authors),
      description: str(m.description),
      documentation_url: validUrl(m.documentation),
      project_url: validUrl(m.homepage),
      readme: str(m.readme),
      keywords: strList(m.keywords),
      categories: strList(m.categories),
      license: str(m.license),
      repository_url: validUrl(m.repository),
      links: str(m.links),
    }),
  };
}

/** The index file of a crate (lower-cased name): `1/{n}`, `2/{n}`, `3/{c}/{n}`, `{ab}/{cd}/{n}`. */
export function cargoIndexPath(name: string): string {
  const n = name.toLowerCase();
  if (n.length === 0) throw new CargoFormatError("a crate name can not be empty");
  if (n.length === 1) return `1/${n}`;
  if (n.length === 2) return `2/${n}`;
  if (n.length === 3) return `3/${n[0]}/${n}`;
  return `${n.slice(0, 2)}/${n.slice(2, 4)}/${n}`;
}

export interface CargoIndexVersion {
  name: string;
  version: string;
  metadata: CargoMetadata;
  sha256: string;
  yanked: boolean;
}

/** One index line (no newline) in Gitea's IndexVersionEntry order. */
export function cargoIndexLine(v: CargoIndexVersion): string {
  const entry: Record<string, unknown> = {
    name: v.name,
    vers: v.version,
    deps: v.metadata.dependencies ?? [],
    cksum: v.sha256,
    features: v.metadata.features ?? {},
    yanked: v.yanked,
  };
  if (v.metadata.links) entry.links = v.metadata.links;
  return JSON.stringify(entry);
}

/**
 * Reads the publish body: `readFrame(limit)` the next u32-LE length and as many bytes (refused
 * past `limit`), `frameLength()` only the length, and `take(n)` the next n bytes as chunks,
 * streamed as they arrive.
 */
export class FrameReader {
  private buffered: Uint8Array[] = [];
  private size = 0;
  private readonly it: AsyncIterator<Uint8Array>;

  constructor(body: AsyncIterable<Uint8Array>) {
    this.it = body[Symbol.asyncIterator]();
  }

  private async fill(n: number): Promise<boolean> {
    while (this.size < n) {
      const next = await this.it.next();
      if (next.done) return false;
      if (next.value.byteLength) {
        this.buffered.push(next.value);
        this.size += next.value.byteLength;
      }
    }
    return true;
  }

  private split(n: number): Uint8Array {
    const all = this.buffered.length === 1 ? this.buffered[0]! : Buffer.concat(this.buffered, this.size);
    const head = all.subarray(0, n);
    const rest = all.subarray(n);
    this.buffered = rest.byteLength ? [rest] : [];
    this.size = rest.byteLength;
    return head;
  }

  async frameLength(): Promise<number> {
    if (!(await this.fill(4))) throw new CargoFormatError("unexpected EOF");
    const b = this.split(4);
    return new DataView(b.buffer, b.byteOffset, 4).getUint32(0, true);
  }

  async readFrame(limit: number): Promise<Uint8Array> {
    const n = await this.frameLength();
    if (n > limit) throw new CargoFormatError("the metadata is too large");
    if (!(await this.fill(n))) throw new CargoFormatError("unexpected EOF");
    return Uint8Array.from(this.split(n));
  }

  /** The next `n` bytes; ends early (fewer bytes) when the body does. */
  async *take(n: number): AsyncGenerator<Uint8Array> {
    let left = n;
    while (left > 0) {
      if (this.size === 0 && !(await this.fill(1))) return;
      const chunk = this.split(Math.min(left, this.size));
      left -= chunk.byteLength;
      yield chunk;
    }
  }

  async close(): Promise<void> {
    await this.it.return?.(undefined);
  }
}

/** The publish body's framing around `json` and `crate` (what cargo sends; for tests and tools). */
export function cargoPublishBody(json: string, crate: Uint8Array): Uint8Array {
  const meta = Buffer.from(json);
  const out = new Uint8Array(8 + meta.byteLength + crate.byteLength);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, meta.byteLength, true);
  out.set(meta, 4);
  dv.setUint32(4 + meta.byteLength, crate.byteLength, true);
  out.set(crate, 8 + meta.byteLength);
  return out;
}
