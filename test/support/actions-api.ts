import { mkdtempSync } from "node:fs";
import { dirname, join } from "node:path";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import type { TestApp } from "./app.ts";
import { authUrl, gitOk } from "./git.ts";

import { settled as settledActions } from "./actions.ts";

/** Waits until a push's background work (its announcement, pull syncs, events and the runs they start) is done. */
export { settledActions };

/** A clone of a hearth repository over smart HTTP, pushing as `user` with `token`. */
export class Checkout {
  private constructor(
    private readonly t: Pick<TestApp, "env">,
    readonly dir: string,
  ) {}

  static async clone(t: Pick<TestApp, "env"> & { baseUrl: string }, repo: string, user: string, token: string): Promise<Checkout> {
    const dir = mkdtempSync(join(tmpdir(), "hearth-actions-"));
    await gitOk(["clone", "-q", authUrl(t.baseUrl, `${repo}.git`, user, token), dir]);
    return new Checkout(t, dir);
  }

  /** Writes the files, commits them and pushes the branch; returns the new commit's id once the push's events settled. */
  async push(files: Record<string, string>, message: string, branch = "main"): Promise<string> {
    for (const [path, content] of Object.entries(files)) {
      const abs = join(this.dir, path);
      await mkdir(dirname(abs), { recursive: true });
      await Bun.write(abs, content);
      await gitOk(["add", path], { cwd: this.dir });
    }
    await gitOk(["commit", "-q", "--allow-empty", "-m", message], { cwd: this.dir });
    await gitOk(["push", "-q", "origin", `HEAD:refs/heads/${branch}`], { cwd: this.dir });
    await settledActions(this.t);
    return (await gitOk(["rev-parse", "HEAD"], { cwd: this.dir })).trim();
  }
}
