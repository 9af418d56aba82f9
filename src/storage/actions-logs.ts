import { existsSync, mkdirSync, rmSync } from "node:fs";
import { appendFile, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** One line of a task's log as the runner sends it. */
export interface LogLine {
  /** Unix milliseconds. */
  time: number;
  content: string;
}

/**
 * Task logs under `APP_DATA_PATH/actions_log`, one file per task (Gitea's layout:
 * `{repo}/{task % 256 in hex}/{task}.log`), a line per row: `RFC 3339 time, space, content`. A
 * running task's log is appended to; once the runner says there is no more it is compressed
 * (zstd, `.log.zst`) and never written again.
 */
export class ActionLogStore {
  constructor(private readonly dir: string) {}

  /** The log file's name relative to the store, as the task row keeps it. */
  static fileName(repoId: number, taskId: number): string {
    return `${repoId}/${(taskId % 256).toString(16).padStart(2, "0")}/${taskId}.log`;
  }

  private abs(name: string): string {
    if (name.includes("..") || name.startsWith("/")) throw new Error("bad log file name");
    return join(this.dir, name);
  }

  /** Appends rows and returns the bytes written. Content with line breaks is kept on one line each (`\n` escaped as Gitea's runner never sends). */
  async append(name: string, rows: readonly LogLine[]): Promise<number> {
    if (rows.length === 0) return 0;
    const path = this.abs(name);
    mkdirSync(dirname(path), { recursive: true });
    const text = rows.map((r) => `${new Date(r.time).toISOString()} ${r.content.replace(/\r?\n/g, " ")}\n`).join("");
    await appendFile(path, text);
    return Buffer.byteLength(text);
  }

  /** Seals a finished log: compressed next to it, then the plain file goes. */
  async seal(name: string): Promise<void> {
    const path = this.abs(name);
    if (!existsSync(path)) {
      mkdirSync(dirname(path), { recursive: true });
      await writeFile(path, "");
    }
    const tmp = `${path}.zst.tmp`;
    await writeFile(tmp, Bun.zstdCompressSync(await readFile(path)));
    await rename(tmp, `${path}.zst`);
    await rm(path, { force: true });
  }

  /** Every row of the log, compressed or not; empty when there is none. */
  async read(name: string): Promise<LogLine[]> {
    const path = this.abs(name);
    let text: string;
    if (existsSync(`${path}.zst`)) text = Buffer.from(Bun.zstdDecompressSync(await readFile(`${path}.zst`))).toString("utf8");
    else if (existsSync(path)) text = await readFile(path, "utf8");
    else return [];
    const rows: LogLine[] = [];
    for (const line of text.split("\n")) {
      if (!line) continue;
      const space = line.indexOf(" ");
      const time = Date.parse(line.slice(0, space));
      rows.push({ time: Number.isNaN(time) ? 0 : time, content: line.slice(space + 1) });
    }
    return rows;
  }

  remove(name: string): void {
    const path = this.abs(name);
    rmSync(path, { force: true });
    rmSync(`${path}.zst`, { force: true });
  }
}
