import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Attachment files under `APP_DATA_PATH/attachments`, laid out as Gitea lays them out
 * (`{u}/{u}/{uuid}` from the first two characters of the uuid), so a Gitea data directory's
 * attachments can be used as they are.
 */
export class AttachmentStore {
  constructor(private readonly dir: string) {}

  /** Gitea's Attachment.RelativePath; undefined for anything that is not a uuid. */
  private pathOf(uuid: string): string | undefined {
    return UUID.test(uuid) ? join(this.dir, uuid[0]!, uuid[1]!, uuid) : undefined;
  }

  /**
   * Streams `chunks` into the file of `uuid` and returns its size. The bytes go to a temporary file
   * that is synced and then renamed into place, so the file is either complete or absent; if the
   * source fails (too large, a broken upload) nothing is left behind.
   */
  async save(uuid: string, chunks: AsyncIterable<Uint8Array>): Promise<number> {
    const path = this.pathOf(uuid);
    if (!path) throw new Error(`bad attachment uuid ${uuid}`);
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.tmp-${process.pid}-${randomBytes(6).toString("hex")}`;
    const file = await open(tmp, "wx");
    let size = 0;
    try {
      for await (const chunk of chunks) {
        let off = 0;
        while (off < chunk.byteLength) off += (await file.write(chunk, off)).bytesWritten;
        size += chunk.byteLength;
      }
      await file.sync();
      await file.close();
      await rename(tmp, path);
      return size;
    } catch (err) {
      await file.close().catch(() => {});
      await rm(tmp, { force: true });
      throw err;
    }
  }

  remove(uuid: string): void {
    const path = this.pathOf(uuid);
    if (path) rmSync(path, { force: true });
  }

  /** The file of a stored attachment, or undefined. */
  file(uuid: string): string | undefined {
    const path = this.pathOf(uuid);
    return path && existsSync(path) ? path : undefined;
  }
}
