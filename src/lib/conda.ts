/**
 * Conda packages as Gitea reads them (modules/packages/conda/metadata.go): the name, version
 * and subdir of `info/index.json`, the version's metadata (with `info/about.json`'s) and the
 * file's, and conda-build's name and version rules.
 */

/** Gitea's VersionMetadata (stored as the version's JSON; empty fields left out). */
export interface CondaVersionMetadata {
  description?: string;
  summary?: string;
  project_url?: string;
  repository_url?: string;
  documentation_url?: string;
  license?: string;
  license_family?: string;
}

/** Gitea's FileMetadata (stored in the file's `conda.metdata` property; empty fields left out). */
export interface CondaFileMetadata {
  is_conda: boolean;
  architecture?: string;
  noarch?: string;
  build?: string;
  build_number?: number;
  dependencies?: string[];
  platform?: string;
  timestamp?: number;
}

export interface CondaPackage {
  name: string;
  version: string;
  subdir: string;
  versionMetadata: CondaVersionMetadata;
  fileMetadata: CondaFileMetadata;
}

/** Gitea's property names (its spelling of "metdata" included: rows are shared with it). */
export const CondaProperty = {
  name: "conda.name",
  channel: "conda.channel",
  subdir: "conda.subdir",
  metadata: "conda.metdata",
} as const;

export class InvalidCondaPackage extends Error {}

const BAD = /[=@#$%^&*:;"'\\|<>?/ ]/;

/** conda-build's name check: not empty, lower case, none of the bad characters nor `!`. */
export function isValidCondaName(name: string): boolean {
  return name !== "" && name === name.toLowerCase() && !BAD.test(name) && !name.includes("!");
}

/** conda-build's version check: not empty, none of the bad characters nor `-`. */
export function isValidCondaVersion(version: string): boolean {
  return version !== "" && !BAD.test(version) && !version.includes("-");
}

/** Gitea's validation.IsValidURL: an absolute http(s) URL. */
function validUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === "http:" || u.protocol === "https:") && u.host !== "";
  } catch {
    return false;
  }
}

function object(bytes: Uint8Array, what: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new InvalidCondaPackage(`${what} is not valid JSON`);
  }
  // Go decodes `null` into a nil pointer; anything else but an object fails its decode.
  if (v === null) return {};
  if (typeof v !== "object" || Array.isArray(v)) throw new InvalidCondaPackage(`${what} is not a JSON object`);
  return v as Record<string, unknown>;
}

/** A field Go would decode into a string: absent or null is "", another type fails. */
function str(o: Record<string, unknown>, key: string, what: string): string {
  const v = o[key];
  if (v === undefined || v === null) return "";
  if (typeof v !== "string") throw new InvalidCondaPackage(`${what}: ${key} is not a string`);
  return v;
}

function int(o: Record<string, unknown>, key: string, what: string): number {
  const v = o[key];
  if (v === undefined || v === null) return 0;
  if (typeof v !== "number" || !Number.isSafeInteger(v)) throw new InvalidCondaPackage(`${what}: ${key} is not an integer`);
  return v;
}

function strings(o: Record<string, unknown>, key: string, what: string): string[] | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((s) => typeof s !== "string")) throw new InvalidCondaPackage(`${what}: ${key} is not a list of strings`);
  return v as string[];
}

/** The parsed `info/index.json`, its name and version checked (Gitea's ErrInvalidName/ErrInvalidVersion). */
export interface CondaIndex {
  name: string;
  version: string;
  arch: string;
  noarch: string;
  build: string;
  buildNumber: number;
  depends?: string[];
  license: string;
  licenseFamily: string;
  platform: string;
  subdir: string;
  timestamp: number;
}

export class InvalidCondaName extends InvalidCondaPackage {
  constructor() {
    super("package name is invalid");
  }
}
export class InvalidCondaVersion extends InvalidCondaPackage {
  constructor() {
    super("package version is invalid");
  }
}

export function parseIndexJson(bytes: Uint8Array): CondaIndex {
  const o = object(bytes, "info/index.json");
  const w = "info/index.json";
  // noarch is a string in Gitea's struct; conda-build also wrote `true` once (old noarch packages).
  const noarch = o.noarch === true ? "generic" : o.noarch === false ? "" : str(o, "noarch", w);
  const index: CondaIndex = {
    name: str(o, "name", w),
    version: str(o, "version", w),
    arch: str(o, "arch", w),
    noarch,
    build: str(o, "build", w),
    buildNumber: int(o, "build_number", w),
    depends: strings(o, "depends", w),
    license: str(o, "license", w),
    licenseFamily: str(o, "license_family", w),
    platform: str(o, "platform", w),
    subdir: str(o, "subdir", w),
    timestamp: int(o, "timestamp", w),
  };
  if (!isValidCondaName(index.name)) throw new InvalidCondaName();
  if (!isValidCondaVersion(index.version)) throw new InvalidCondaVersion();
  return index;
}

export interface CondaAbout {
  description: string;
  summary: string;
  home: string;
  devUrl: string;
  docUrl: string;
}

/** The parsed `info/about.json`; URLs that are not http(s) dropped, as Gitea drops them. */
export function parseAboutJson(bytes: Uint8Array): CondaAbout {
  const o = object(bytes, "info/about.json");
  const w = "info/about.json";
  const url = (k: string) => {
    const v = str(o, k, w);
    return validUrl(v) ? v : "";
  };
  return { description: str(o, "description", w), summary: str(o, "summary", w), home: url("home"), devUrl: url("dev_url"), docUrl: url("doc_url") };
}

const EMPTY_ABOUT: CondaAbout = { description: "", summary: "", home: "", devUrl: "", docUrl: "" };

/** Drops the fields Go's `omitempty` leaves out. */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== "" && v !== 0 && v !== undefined && !(Array.isArray(v) && !v.length))) as T;
}

/** Gitea's Package from the two info files (`about` optional), for a `.conda` (`isConda`) or a `.tar.bz2`. */
export function condaPackage(index: CondaIndex, about: CondaAbout | undefined, isConda: boolean): CondaPackage {
  const a = about ?? EMPTY_ABOUT;
  return {
    name: index.name,
    version: index.version,
    subdir: index.subdir,
    versionMetadata: compact({
      description: a.description,
      summary: a.summary,
      project_url: a.home,
      repository_url: a.devUrl,
      documentation_url: a.docUrl,
      license: index.license,
      license_family: index.licenseFamily,
    }),
    fileMetadata: {
      ...compact({
        architecture: index.arch,
        noarch: index.noarch,
        build: index.build,
        build_number: index.buildNumber,
        dependencies: index.depends,
        platform: index.platform,
        timestamp: index.timestamp,
      }),
      is_conda: isConda,
    },
  };
}

/** Gitea's stored file name: `{name}-{version}-{build}.conda` or `.tar.bz2`. */
export function condaFileName(pkg: CondaPackage): string {
  return `${pkg.name}-${pkg.version}-${pkg.fileMetadata.build ?? ""}${pkg.fileMetadata.is_conda ? ".conda" : ".tar.bz2"}`;
}

/** A file name the registry takes or serves as a package. */
export function isCondaPackageFileName(filename: string): boolean {
  return filename.endsWith(".tar.bz2") || filename.endsWith(".conda");
}

/** Gitea's download path pattern below `conda/`: `[{channel}/]{subdir}/{file}`. */
const DOWNLOAD = /^(.+\/)?(.+)\/([^/]+(?:\.tar\.bz2|\.conda)|(?:current_)?repodata\.json(?:\.bz2)?)$/;
/** Gitea's upload path pattern: `[{channel}/]{file}`. */
const UPLOAD = /^(.+\/)?([^/]+(?:\.tar\.bz2|\.conda))$/;

export function parseCondaDownloadPath(path: string): { channel: string; subdir: string; filename: string } | undefined {
  const m = DOWNLOAD.exec(path);
  if (!m) return undefined;
  return { channel: (m[1] ?? "").replace(/\/$/, ""), subdir: m[2]!, filename: m[3]! };
}

export function parseCondaUploadPath(path: string): { channel: string; filename: string } | undefined {
  const m = UPLOAD.exec(path);
  if (!m) return undefined;
  return { channel: (m[1] ?? "").replace(/\/$/, ""), filename: m[2]! };
}
