import { pipeline, Readable } from "node:stream";
import { createInflateRaw, createZstdDecompress } from "node:zlib";
import { BadRequest } from "../../../lib/errors.ts";
import { tarEntries } from "../../../lib/tar-entries.ts";
import { bunzip2, InvalidBzip2 } from "../../../lib/bzip2.ts";
import { InvalidZip, zipEntries, zipEntryData, type RandomAccess } from "../../../lib/zip.ts";
import { condaPackage, InvalidCondaPackage, parseAboutJson, parseIndexJson, type CondaAbout, type CondaIndex, type CondaPackage } from "../../../lib/conda.ts";

/** index.json and about.json are metadata; anything near this size is not one. */
const MAX_INFO_FILE = 16 << 20;

/** A stored file read at offsets, never whole. */
function fileAccess(path: string): RandomAccess {
  const file = Bun.file(path);
  return {
    size: file.size,
    async read(offset, length) {
      return new Uint8Array(await file.slice(offset, offset + length).arrayBuffer());
    },
  };
}

/**
 * Gitea's parsePackageTar over a stream: `info/index.json` (required, its name and version
 * checked) and `info/about.json` (optional) from the regular files of the tar; stops reading once
 * both are found.
 */
async function parseInfoTar(tar: AsyncIterable<Uint8Array>, isConda: boolean): Promise<CondaPackage> {
  let index: CondaIndex | undefined;
  let about: CondaAbout | undefined;
  for await (const entry of tarEntries(tar)) {
    if (entry.type !== "0" || (entry.name !== "info/index.json" && entry.name !== "info/about.json")) continue;
    if (entry.size > MAX_INFO_FILE) throw new BadRequest(`${entry.name} is too large`);
    if (entry.name === "info/index.json") index = parseIndexJson(await entry.bytes(MAX_INFO_FILE));
    else about = parseAboutJson(await entry.bytes(MAX_INFO_FILE));
    if (index !== undefined && about !== undefined) break;
  }
  if (!index) throw new BadRequest("package structure is invalid");
  return condaPackage(index, about, isConda);
}

/** Malformed archives and metadata are the uploader's fault: 400 with the reason. */
async function badRequestOnInvalid<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof InvalidCondaPackage || err instanceof InvalidZip || err instanceof InvalidBzip2) throw new BadRequest(err.message);
    if (err instanceof Error && "code" in err && typeof err.code === "string" && /^(Z_|ERR_ZSTD|ZSTD)/.test(err.code)) {
      throw new BadRequest(`corrupt compressed data: ${err.message}`);
    }
    throw err;
  }
}

/**
 * Gitea's ParsePackageConda: a `.conda` is a zip whose `info-*.tar.zst` member holds the info
 * files. Reads the stored file at `path`: its zip directory, then that member's bytes streamed
 * through inflate (when deflated) and zstd into the tar reader.
 */
export function parseCondaFile(path: string): Promise<CondaPackage> {
  return badRequestOnInvalid(async () => {
    const access = fileAccess(path);
    const entries = await zipEntries(access);
    const info = entries.find((e) => e.name.startsWith("info-") && e.name.endsWith(".tar.zst"));
    if (!info) throw new BadRequest("package structure is invalid");
    if (info.method !== 0 && info.method !== 8) throw new BadRequest("zip: unsupported compression algorithm");
    const { start, end } = await zipEntryData(access, info);
    const raw = Readable.fromWeb(Bun.file(path).slice(start, end).stream() as never);
    const done = () => {}; // errors reach the reader of the last stream
    const tar = info.method === 8 ? pipeline(raw, createInflateRaw(), createZstdDecompress(), done) : pipeline(raw, createZstdDecompress(), done);
    try {
      return await parseInfoTar(tar, true);
    } finally {
      tar.destroy();
    }
  });
}

/**
 * Gitea's ParsePackageBZ2: a `.tar.bz2` is the package's tar, bzip2-compressed, its info files
 * among the others. Reads the stored file at `path` as a stream, decompressed block by block,
 * and stops once both info files are found.
 */
export function parseTarBz2File(path: string): Promise<CondaPackage> {
  return badRequestOnInvalid(() => parseInfoTar(bunzip2(Bun.file(path).stream()), false));
}
