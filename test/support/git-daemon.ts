import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A plain git source for migrations and mirrors: `git daemon` serving a fresh directory on loopback. */
export interface GitDaemon {
  /** The directory served: a bare repository put at `{base}/x.git` is `{url}x.git`. */
  base: string;
  /** `git://127.0.0.1:{port}/` */
  url: string;
  stop(): void;
}

export async function startGitDaemon(): Promise<GitDaemon> {
  const base = mkdtempSync(join(tmpdir(), "hearth-gitd-"));
  for (let attempt = 0; ; attempt++) {
    // git daemon cannot be given port 0 and tell which it took: a random high port, another if taken.
    const port = 20000 + Math.floor(Math.random() * 20000);
    const proc = Bun.spawn(["git", "daemon", "--export-all", "--reuseaddr", `--base-path=${base}`, "--listen=127.0.0.1", `--port=${port}`, base], {
      stdout: "ignore",
      stderr: "ignore",
    });
    // Ready once it answers an ls-remote (of a repository that does not exist: any answer will do).
    for (let i = 0; i < 100 && proc.exitCode === null; i++) {
      const probe = Bun.spawnSync(["git", "ls-remote", `git://127.0.0.1:${port}/none`], { stderr: "pipe" });
      if (!probe.stderr.toString().includes("Connection refused")) break;
      await Bun.sleep(100);
    }
    if (proc.exitCode === null) {
      return {
        base,
        url: `git://127.0.0.1:${port}/`,
        stop: () => {
          proc.kill();
          rmSync(base, { recursive: true, force: true });
        },
      };
    }
    if (attempt >= 5) throw new Error("git daemon did not start");
  }
}
