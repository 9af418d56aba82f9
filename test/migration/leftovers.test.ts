import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hearthOk, startWeb, type WebProcess } from "../support/cli.ts";

/**
 * A migration cut short by a stop or a crash leaves no half-made repository and no download: the
 * next `hearth web` removes the repository still marked being migrated (Gitea's status 1) and the
 * scratch directory before it answers anything.
 */

const dir = mkdtempSync(join(tmpdir(), "hearth-leftovers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function stop(web: WebProcess): Promise<void> {
  web.proc.kill("SIGTERM");
  await web.proc.exited;
}

describe("leftovers of a migration cut short", () => {
  test("the next start removes the half-made repository and the download, and keeps the rest", async () => {
    const config = join(dir, "app.ini");
    writeFileSync(config, "[server]\nHTTP_ADDR = 127.0.0.1\n[log]\nLEVEL = info\n");
    let web = await startWeb(dir, config);
    let base = `http://127.0.0.1:${web.port}/api/v1`;
    await hearthOk(dir, ["admin", "user", "create", "--admin", "-u", "kim", "-e", "kim@example.com", "-p", "password123", "--config", config]);
    const token = (await hearthOk(dir, ["admin", "user", "generate-access-token", "-u", "kim", "--raw", "-c", config])).trim();
    const headers = { Authorization: `token ${token}`, "Content-Type": "application/json" };
    try {
      for (const name of ["done", "halfway"]) {
        const res = await fetch(`${base}/user/repos`, { method: "POST", headers, body: JSON.stringify({ name, auto_init: true }) });
        expect(res.status).toBe(201);
      }
    } finally {
      await stop(web);
    }
    // What a crash in the middle of an import leaves: the repository still marked, a download on disk.
    const db = new Database(join(dir, "data", "hearth.db"));
    db.run("UPDATE repository SET status = 1 WHERE lower_name = 'halfway'");
    db.close();
    const scratch = join(dir, "data", "tmp", "migrate", "cut-short");
    mkdirSync(join(scratch, "git"), { recursive: true });
    writeFileSync(join(scratch, "repo.yml"), "name: halfway\n");
    const gitDir = join(dir, "data", "repositories", "kim", "halfway.git");
    expect(existsSync(gitDir)).toBe(true);

    web = await startWeb(dir, config);
    base = `http://127.0.0.1:${web.port}/api/v1`;
    try {
      expect((await fetch(`${base}/repos/kim/halfway`, { headers })).status).toBe(404);
      expect((await fetch(`${base}/repos/kim/done`, { headers })).status).toBe(200);
      expect(existsSync(gitDir)).toBe(false);
      expect(existsSync(scratch)).toBe(false);
      expect(web.log()).toContain("removing a repository whose migration was cut short");
    } finally {
      await stop(web);
    }
  });
});
