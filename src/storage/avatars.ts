import { mkdirSync, renameSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";

/**
 * Uploaded avatars, one file per image under `APP_DATA_PATH/avatars`, named by a content hash (as
 * Gitea names them), so a name can be served and cached forever.
 */
export class AvatarStore {
  constructor(private readonly dir: string) {}

  private pathOf(name: string): string | undefined {
    return /^[0-9a-f]{32,64}$/.test(name) ? join(this.dir, name) : undefined;
  }

  /** Writes atomically: a reader never sees half an image. */
  save(name: string, data: Uint8Array): void {
    const path = this.pathOf(name);
    if (!path) throw new Error(`bad avatar name ${name}`);
    mkdirSync(this.dir, { recursive: true });
    const tmp = `${path}.tmp-${process.pid}`;
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  }

  remove(name: string): void {
    const path = this.pathOf(name);
    if (path) rmSync(path, { force: true });
  }

  /** The file of a stored avatar, or undefined. */
  file(name: string): string | undefined {
    const path = this.pathOf(name);
    return path && existsSync(path) ? path : undefined;
  }
}
