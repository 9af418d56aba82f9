import { isAbsolute, join, resolve } from "node:path";
import { ConfigError, type ConfigReader } from "./reader.ts";

/** The package types hearth serves, by Gitea's names (and `LIMIT_SIZE_<TYPE>` keys). */
export const PACKAGE_TYPES = ["cargo", "chef", "conda", "container", "generic", "maven", "npm", "pypi"] as const;
export type PackageType = (typeof PACKAGE_TYPES)[number];

/** `[packages]`: Gitea's keys (modules/setting/packages.go). Sizes in bytes; -1 is no limit. */
export interface PackagesSettings {
  enabled: boolean;
  /** Where chunked uploads (the container registry's) collect their bytes. */
  chunkedUploadPath: string;
  /** Packages (versions) an owner may have in all. */
  limitTotalOwnerCount: number;
  /** Bytes of package files an owner may have in all. */
  limitTotalOwnerSize: number;
  /** The largest file of each type. */
  limitSize: Record<PackageType, number>;
}

const UNITS: Record<string, number> = {
  "": 1,
  b: 1,
  kb: 1e3,
  kib: 1024,
  mb: 1e6,
  mib: 1024 ** 2,
  gb: 1e9,
  gib: 1024 ** 3,
  tb: 1e12,
  tib: 1024 ** 4,
};

/** Gitea's mustBytes: `-1`, or a size such as `500 MB`, `1 GiB`, `1048576`. */
export function parseByteSize(value: string): number | undefined {
  const v = value.trim();
  if (v === "-1") return -1;
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(v);
  if (!m) return undefined;
  const unit = UNITS[m[2]!.toLowerCase()];
  return unit === undefined ? undefined : Math.floor(Number(m[1]) * unit);
}

function bytes(r: ConfigReader, key: string): number {
  const raw = r.string("packages", key, "-1");
  const n = parseByteSize(raw);
  if (n === undefined) throw new ConfigError("packages", key, raw, "expected -1 or a size such as 500 MB or 1 GiB");
  return n;
}

export function readPackages(r: ConfigReader, appDataPath: string): PackagesSettings {
  const chunked = r.string("packages", "CHUNKED_UPLOAD_PATH", join(appDataPath, "tmp", "package-upload"));
  const count = r.int("packages", "LIMIT_TOTAL_OWNER_COUNT", -1, { min: -1 });
  return {
    enabled: r.bool("packages", "ENABLED", true),
    chunkedUploadPath: isAbsolute(chunked) ? chunked : resolve(appDataPath, chunked),
    limitTotalOwnerCount: count,
    limitTotalOwnerSize: bytes(r, "LIMIT_TOTAL_OWNER_SIZE"),
    limitSize: Object.fromEntries(PACKAGE_TYPES.map((t) => [t, bytes(r, `LIMIT_SIZE_${t.toUpperCase()}`)])) as Record<PackageType, number>,
  };
}
