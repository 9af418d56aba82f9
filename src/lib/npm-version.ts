/**
 * Versions as Gitea's npm registry reads them (hashicorp/go-version): `NewSemver` for a published
 * version (one to three numeric parts, a pre-release, build metadata, an optional `v`), printed
 * back normalised (`v1.2` → `1.2.0`), compared by parts with a pre-release below its release;
 * `NewVersion`'s looser form is what a dist-tag must not look like.
 */

const PART = "[0-9A-Za-z\\-~]+";
const SEMVER = new RegExp(`^v?([0-9]+(?:\\.[0-9]+){0,2})(?:-(${PART}(?:\\.${PART})*))?(?:\\+(${PART}(?:\\.${PART})*))?$`);
const LOOSE = new RegExp(
  `^v?[0-9]+(?:\\.[0-9]+)*?(?:-[0-9]+[0-9A-Za-z\\-~]*(?:\\.${PART})*|-?[A-Za-z\\-~]+[0-9A-Za-z\\-~]*(?:\\.${PART})*)?(?:\\+${PART}(?:\\.${PART})*)?$`,
);

export interface NpmVersion {
  /** The numeric parts, at least three. */
  parts: bigint[];
  prerelease: string;
  metadata: string;
  /** The normalised spelling (go-version's String()). */
  text: string;
}

/** go-version's NewSemver; undefined for anything it refuses. */
export function parseSemver(raw: string): NpmVersion | undefined {
  const m = SEMVER.exec(raw);
  if (!m) return undefined;
  const parts = m[1]!.split(".").map((p) => BigInt(p));
  while (parts.length < 3) parts.push(0n);
  const prerelease = m[2] ?? "";
  const metadata = m[3] ?? "";
  const text = parts.join(".") + (prerelease ? `-${prerelease}` : "") + (metadata ? `+${metadata}` : "");
  return { parts, prerelease, metadata, text };
}

/** Whether go-version's NewVersion accepts `s` (Gitea refuses such a string as a dist-tag). */
export function looksLikeVersion(s: string): boolean {
  return LOOSE.test(s);
}

function comparePrereleasePart(a: string, b: string): number {
  const an = /^[0-9]+$/.test(a);
  const bn = /^[0-9]+$/.test(b);
  if (an && bn) {
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (an) return -1;
  if (bn) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** go-version's Compare: numeric parts, then a release above its pre-releases, pre-releases part by part. */
export function compareVersions(a: NpmVersion, b: NpmVersion): number {
  const n = Math.max(a.parts.length, b.parts.length);
  for (let i = 0; i < n; i++) {
    const x = a.parts[i] ?? 0n;
    const y = b.parts[i] ?? 0n;
    if (x !== y) return x < y ? -1 : 1;
  }
  if (a.prerelease === b.prerelease) return 0;
  if (!a.prerelease) return 1;
  if (!b.prerelease) return -1;
  const ap = a.prerelease.split(".");
  const bp = b.prerelease.split(".");
  for (let i = 0; i < Math.min(ap.length, bp.length); i++) {
    const c = comparePrereleasePart(ap[i]!, bp[i]!);
    if (c !== 0) return c;
  }
  return ap.length === bp.length ? 0 : ap.length < bp.length ? -1 : 1;
}
