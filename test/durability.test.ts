import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hearthOk, startWeb, type WebProcess } from "./support/cli.ts";

/**
 * An acknowledged write survives kill -9 of the server. The database commits with
 * synchronous=NORMAL (src/db/client.ts): the commit is in the WAL, in the kernel's page cache,
 * before the 201 goes out, so a process that dies at once loses none of it. A real `hearth web`
 * answers creations 8 at a time, is SIGKILLed right after the last 201 (its event worker still
 * busy with the backlog), and a fresh server on the same work directory shows every one.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const IN_FLIGHT = 8;
const ISSUES = 48;
const COMMENTS = 48;

/** Runs `make(i)` for i in [0, n) with IN_FLIGHT calls at a time; returns the results by i. */
async function inFlight<T>(n: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await make(i);
      }
    }),
  );
  return out;
}

describe("kill -9", () => {
  test("every issue and comment answered 201 is there after the server is killed right after the last answer", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hearth-durability-"));
    dirs.push(dir);
    const config = join(dir, "app.ini");
    writeFileSync(config, "[server]\nHTTP_ADDR = 127.0.0.1\n[log]\nLEVEL = info\n");
    let web: WebProcess | undefined = await startWeb(dir, config);
    try {
      await hearthOk(dir, ["admin", "user", "create", "--admin", "-u", "kim", "-e", "kim@example.com", "-p", "password123", "--config", config]);
      const token = (await hearthOk(dir, ["admin", "user", "generate-access-token", "-u", "kim", "--raw", "-c", config])).trim();
      const headers = { Authorization: `token ${token}`, "Content-Type": "application/json" };
      const post = async (base: string, path: string, body: unknown) => {
        const res = await fetch(`${base}/api/v1${path}`, { method: "POST", headers, body: JSON.stringify(body) });
        expect(res.status).toBe(201);
        return (await res.json()) as { id: number; number: number };
      };
      let base = `http://127.0.0.1:${web.port}`;
      await post(base, "/user/repos", { name: "r" });

      // Issues first, then comments spread over them, all acknowledged; the kill follows the last.
      const issues = await inFlight(ISSUES, (i) => post(base, "/repos/kim/r/issues", { title: `issue ${i}`, body: `body ${i}` }));
      const comments = await inFlight(COMMENTS, (i) =>
        post(base, `/repos/kim/r/issues/${issues[i % ISSUES]!.number}/comments`, { body: `comment ${i}` }),
      );
      web.proc.kill("SIGKILL");
      await web.proc.exited;
      expect(web.proc.signalCode).toBe("SIGKILL");

      web = await startWeb(dir, config);
      base = `http://127.0.0.1:${web.port}`;
      const get = async (path: string) => {
        const res = await fetch(`${base}/api/v1${path}`, { headers });
        expect(res.status).toBe(200);
        return res.json();
      };
      const listed: { number: number; title: string; comments: number }[] = [];
      for (let page = 1; listed.length < ISSUES + 1; page++) {
        const rows = (await get(`/repos/kim/r/issues?state=all&type=issues&limit=50&page=${page}`)) as typeof listed;
        if (rows.length === 0) break;
        listed.push(...rows);
      }
      expect(listed.map((i) => i.number).sort((a, b) => a - b)).toEqual(issues.map((i) => i.number).sort((a, b) => a - b));
      // The counters moved with the rows: one comment per issue, ISSUES open issues.
      expect(listed.every((i) => i.comments === COMMENTS / ISSUES)).toBe(true);
      expect(((await get("/repos/kim/r")) as { open_issues_count: number }).open_issues_count).toBe(ISSUES);

      const seen: number[] = [];
      for (let page = 1; ; page++) {
        const rows = (await get(`/repos/kim/r/issues/comments?limit=50&page=${page}`)) as { id: number }[];
        if (rows.length === 0) break;
        seen.push(...rows.map((c) => c.id));
      }
      expect(seen.sort((a, b) => a - b)).toEqual(comments.map((c) => c.id).sort((a, b) => a - b));

      web.proc.kill("SIGTERM");
      expect(await web.proc.exited).toBe(0);
      web = undefined;
    } finally {
      web?.proc.kill("SIGKILL");
    }
  });
});
