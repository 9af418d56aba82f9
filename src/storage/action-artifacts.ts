import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { open, readFile, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";

/** One uploaded piece of an artifact, in the order it belongs. */
export interface ArtifactPart {
  path: string;
  size: number;
}

/** A merged artifact file: where it is (relative to the store), its size and SHA-256 (hex). */
export interface MergedArtifact {
  path: string;
  size: number;
  sha256: string;
}

export class MissingBlock extends Error {}

/**
 * Actions artifacts under `APP_DATA_PATH/actions_artifacts`, laid out as Gitea's artifact routes
 * lay them out: uploads arrive in pieces under `tmpv4{run}/` (Azure-style blocks named by their
 * block id, and the block list naming their order) or `tmp{run}/` (pieces appended at an offset),
 * and a finalized artifact is one file `{run % 255}/{artifact % 255}/{nanos}.chunk`. Every file is
 * written to a temporary name and renamed into place, so a piece is either whole or absent.
 */
export class ArtifactStore {
  constructor(private readonly dir: string) {}

  private abs(rel: string): string {
    if (rel.includes("..") || rel.startsWith("/") || rel.includes("\0")) throw new Error("bad artifact path");
    return join(this.dir, rel);
  }

  /** Streams `chunks` into `rel` through a temporary file, hashing as it goes; returns the size, SHA-256 (hex) and MD5 (base64). */
  private async write(rel: string, chunks: AsyncIterable<Uint8Array>): Promise<{ size: number; sha256: string; md5: string }> {
    const path = this.abs(rel);
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.tmp-${process.pid}-${randomBytes(6).toString("hex")}`;
    const file = await open(tmp, "wx");
    const hash = createHash("sha256");
    const md5 = createHash("md5");
    let size = 0;
    try {
      for await (const chunk of chunks) {
        let off = 0;
        while (off < chunk.byteLength) off += (await file.write(chunk, off)).bytesWritten;
        hash.update(chunk);
        md5.update(chunk);
        size += chunk.byteLength;
      }
      await file.sync();
      await file.close();
      await rename(tmp, path);
      return { size, sha256: hash.digest("hex"), md5: md5.digest("base64") };
    } catch (err) {
      await file.close().catch(() => {});
      await rm(tmp, { force: true });
      throw err;
    }
  }

  /** A block id as a file name: URL-safe base64 of its bytes (ids are the client's, any text). */
  private blockRel(runId: number, blockId: string): string {
    return `tmpv4${runId}/block-${runId}-${Buffer.from(blockId).toString("base64url")}`;
  }

  /** Stores one block of a run's upload (a repeated id replaces the earlier block); returns its size. */
  async saveBlock(runId: number, blockId: string, body: AsyncIterable<Uint8Array>): Promise<number> {
    return (await this.write(this.blockRel(runId, blockId), body)).size;
  }

  /** Stores the block list of an artifact's upload (Azure's XML, read at finalize). */
  async saveBlockList(runId: number, artifactId: number, body: AsyncIterable<Uint8Array>): Promise<void> {
    await this.write(`tmpv4${runId}/${runId}-${artifactId}-blocklist`, body);
  }

  /** The stored block list of an artifact, removed as it is read (Gitea's readBlockList); undefined if none. */
  async takeBlockList(runId: number, artifactId: number): Promise<string | undefined> {
    const path = this.abs(`tmpv4${runId}/${runId}-${artifactId}-blocklist`);
    if (!existsSync(path)) return undefined;
    const text = await readFile(path, "utf8");
    await rm(path, { force: true });
    return text;
  }

  /** The blocks named by a block list, in its order; MissingBlock when one was never uploaded. */
  blocks(runId: number, blockIds: readonly string[]): ArtifactPart[] {
    return blockIds.map((id, i) => {
      const path = this.abs(this.blockRel(runId, id));
      if (!existsSync(path)) throw new MissingBlock(`missing Chunk (${i}/${blockIds.length}): ${id}`);
      return { path, size: statSync(path).size };
    });
  }

  /** Stores a piece appended at byte `start` of an artifact (`comp=appendBlock`); returns its size. */
  async appendChunk(runId: number, artifactId: number, start: number, body: AsyncIterable<Uint8Array>): Promise<number> {
    // The end is known only once the piece is in: written under a provisional name, then named.
    const provisional = `tmp${runId}/${runId}-${artifactId}-${start}.part-${randomBytes(4).toString("hex")}`;
    const { size } = await this.write(provisional, body);
    await rename(this.abs(provisional), this.abs(`tmp${runId}/${runId}-${artifactId}-${start}-${start + size - 1}.chunk`));
    return size;
  }

  /**
   * Stores a piece of a v3 upload at the byte range its Content-Range names (an end the body does
   * not reach is the caller's to refuse); returns its size and MD5 (base64).
   */
  async saveRangeChunk(runId: number, artifactId: number, start: number, end: number, body: AsyncIterable<Uint8Array>): Promise<{ size: number; md5: string }> {
    const rel = `tmp${runId}/${runId}-${artifactId}-${start}-${end}.chunk`;
    const { size, md5 } = await this.write(rel, body);
    return { size, md5 };
  }

  /** Removes one stored piece of a v3 upload (a piece whose checks failed). */
  dropRangeChunk(runId: number, artifactId: number, start: number, end: number): void {
    rmSync(this.abs(`tmp${runId}/${runId}-${artifactId}-${start}-${end}.chunk`), { force: true });
  }

  /**
   * The appended pieces of an artifact that line up from byte 0 without a gap (Gitea's
   * mergeChunksForArtifact keeps the first piece at each next offset and ignores the rest).
   */
  appendedChunks(runId: number, artifactId: number): ArtifactPart[] {
    const dir = this.abs(`tmp${runId}`);
    if (!existsSync(dir)) return [];
    const prefix = `${runId}-${artifactId}-`;
    const found: { start: number; end: number; path: string }[] = [];
    for (const name of readdirSync(dir)) {
      const m = name.startsWith(prefix) ? /^(\d+)-(\d+)\.chunk$/.exec(name.slice(prefix.length)) : null;
      if (m) found.push({ start: Number(m[1]), end: Number(m[2]), path: join(dir, name) });
    }
    found.sort((a, b) => a.start - b.start);
    const parts: ArtifactPart[] = [];
    let next = 0;
    for (const c of found) {
      if (c.start !== next) continue;
      parts.push({ path: c.path, size: c.end - c.start + 1 });
      next = c.end + 1;
    }
    return parts;
  }

  /**
   * Concatenates the parts, in order, into the artifact's file (the parts stay; `discard` drops
   * them); a v3 artifact uploaded gzipped is kept as `.chunk.gz`, as Gitea names it.
   */
  async merge(runId: number, artifactId: number, parts: readonly ArtifactPart[], nowNanos: bigint, extension = "chunk"): Promise<MergedArtifact> {
    const rel = `${runId % 255}/${artifactId % 255}/${nowNanos}.${extension}`;
    async function* concatenated(): AsyncGenerator<Uint8Array> {
      for (const part of parts) {
        for await (const chunk of Bun.file(part.path).stream()) yield chunk;
      }
    }
    const { size, sha256 } = await this.write(rel, concatenated());
    return { path: rel, size, sha256 };
  }

  /** Removes upload pieces (absolute paths from `blocks` or `appendedChunks`). */
  discard(parts: readonly ArtifactPart[]): void {
    for (const p of parts) rmSync(p.path, { force: true });
  }

  /** Removes a stored artifact file (relative, as the row keeps it). */
  remove(rel: string): void {
    if (rel) rmSync(this.abs(rel), { force: true });
  }

  /** The absolute path of a stored artifact file, or undefined when it is not there. */
  file(rel: string): string | undefined {
    if (!rel) return undefined;
    const path = this.abs(rel);
    return existsSync(path) ? path : undefined;
  }
}
