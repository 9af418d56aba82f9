/**
 * git-lfs pointer files (https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md), read as
 * Gitea's lfs.ReadPointerFromBuffer reads them, for the contents and blob APIs. Pure.
 */

/** Gitea's blobSizeCutoff: a blob this large or larger is never taken for a pointer. */
export const LFS_POINTER_MAX_SIZE = 1024;

const SPEC_LINE = "version https://git-lfs.github.com/spec/v1";

export interface LfsPointer {
  /** The sha256 of the object's content, hex. */
  oid: string;
  size: number;
}

/** The pointer a small blob is, or undefined when it is anything else. */
export function parseLfsPointer(content: Uint8Array | string): LfsPointer | undefined {
  const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  if (bytes.length === 0 || bytes.length >= LFS_POINTER_MAX_SIZE) return undefined;
  const text = Buffer.from(bytes).toString("utf8");
  if (!text.startsWith(SPEC_LINE)) return undefined;
  const lines = text.split("\n");
  if (lines.length < 3) return undefined;
  const oid = lines[1]!.startsWith("oid sha256:") ? lines[1]!.slice("oid sha256:".length) : lines[1]!;
  if (!/^[a-f0-9]{64}$/.test(oid)) return undefined;
  const sizeText = lines[2]!.startsWith("size ") ? lines[2]!.slice("size ".length) : lines[2]!;
  if (!/^[+-]?\d{1,18}$/.test(sizeText)) return undefined;
  const size = Number(sizeText);
  return size >= 0 ? { oid, size } : undefined;
}
