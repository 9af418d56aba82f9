import { existsSync, mkdirSync, rmSync } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";

/** A blob's size and the four digests Gitea records for every package file. */
export interface BlobHashes {
  size: number;
  md5: string;
  sha1: string;
  sha256: string;
  sha512: string;
}

/** The upload passed the size it may have: nothing was kept. */
export class BlobTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the file is larger than ${limit} bytes`);
  }
}

/** A blob written to a temporary file and hashed, waiting to be kept (`commit`) or dropped. */
export interface StagedBlob {
  hashes: BlobHashes;
  tempPath: string;
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Package blobs under `APP_DATA_PATH/packages`, one file per content, named by its sha256 in
 * Gitea's layout (`ab/cd/abcd…`). An upload streams to a temporary file while all four digests are
 * computed, so nothing is ever held whole in memory; it then takes its place by rename, once.
 */
export class PackageBlobStore {
  private readonly tmp: string;

  constructor(private readonly dir: string) {
    this.tmp = join(dir, "tmp");
  }

  /** Where the blob of `sha256` lives (undefined for anything that is not a sha256). */
  pathOf(sha256: string): string | undefined {
    return SHA256.test(sha256) ? join(this.dir, sha256.slice(0, 2), sha256.slice(2, 4), sha256) : undefined;
  }

  /**
   * Streams `chunks` to a temporary file, hashing as it goes; refuses (and removes what it wrote)
   * past `limit` bytes when a limit is given (-1 for none).
   */
  async stage(chunks: AsyncIterable<Uint8Array>, limit = -1): Promise<StagedBlob> {
    mkdirSync(this.tmp, { recursive: true });
    const tempPath = join(this.tmp, `${process.pid}-${Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString("hex")}`);
    const hashers = ["md5", "sha1", "sha256", "sha512"].map((a) => new Bun.CryptoHasher(a as "md5"));
    const file = await open(tempPath, "wx");
    let size = 0;
    try {
      for await (const chunk of chunks) {
        size += chunk.byteLength;
        if (limit >= 0 && size > limit) throw new BlobTooLarge(limit);
        for (const h of hashers) h.update(chunk);
        let off = 0;
        while (off < chunk.byteLength) off += (await file.write(chunk, off)).bytesWritten;
      }
      await file.sync();
      await file.close();
    } catch (err) {
      await file.close().catch(() => {});
      await rm(tempPath, { force: true });
      throw err;
    }
    const [md5, sha1, sha256, sha512] = hashers.map((h) => h.digest("hex")) as [string, string, string, string];
    return { hashes: { size, md5, sha1, sha256, sha512 }, tempPath };
  }

  /** Keeps a staged blob under its sha256 (a blob already there stays, the copy is dropped). */
  async commit(staged: StagedBlob): Promise<void> {
    const path = this.pathOf(staged.hashes.sha256)!;
    if (existsSync(path)) {
      await rm(staged.tempPath, { force: true });
      return;
    }
    mkdirSync(dirname(path), { recursive: true });
    await rename(staged.tempPath, path);
  }

  async discard(staged: StagedBlob): Promise<void> {
    await rm(staged.tempPath, { force: true });
  }

  /** The blob's file, for streaming (Bun serves ranges of it without reading the rest). */
  file(sha256: string): ReturnType<typeof Bun.file> | undefined {
    const path = this.pathOf(sha256);
    return path && existsSync(path) ? Bun.file(path) : undefined;
  }

  remove(sha256: string): void {
    const path = this.pathOf(sha256);
    if (path) rmSync(path, { force: true });
  }
}
