import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp } from "../support/app.ts";
import { authUrl, gitClient, localRepo } from "../support/git.ts";
import {
  access,
  COLUMN_NAMES,
  COLUMNS,
  publicOnlyAccess,
  ROWS,
  setupMatrix,
  type Column,
  type Row,
} from "../support/permission-matrix.ts";

/**
 * The permission matrix over git smart HTTP with the real git client: every viewer (row) clones and
 * pushes every repository (column). Expected: clone wherever the viewer (or anyone signed out) has
 * access (table in test/support/permission-matrix.ts), push only with write access ("w" or "a"). Tokens are the
 * passwords (no argon2 per request) and the cells run a few at a time to keep this quick.
 */

const t = makeTestApp("", { listen: true });
const viewers = await setupMatrix(t);
const scratch = mkdtempSync(join(tmpdir(), "hearth-matrix-"));
/** One local repository with an unrelated commit, pushed to a new branch per viewer (no fetch needed). */
const work = await localRepo("main");
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

/** The clone URL with the viewer's credentials: its full token, or with `publicOnly` its public-only one. */
function url(row: Row, col: Column, publicOnly = false): string {
  const path = `${COLUMNS[col].org}/${COLUMNS[col].repo}.git`;
  const v = viewers[row];
  const token = publicOnly ? v.publicToken : v.token;
  return token ? authUrl(t.baseUrl, path, v.name!, token) : new URL(path, t.baseUrl).href;
}

/** Runs `cell` over every row and column, at most `width` at once, into { row: { column: value } }. */
async function matrix<T>(cell: (row: Row, col: Column) => Promise<T>, width = 8): Promise<Record<Row, Record<Column, unknown>>> {
  const jobs = ROWS.flatMap((row) => COLUMN_NAMES.map((col) => [row, col] as const));
  const out = Object.fromEntries(ROWS.map((r) => [r, {}])) as Record<Row, Record<Column, unknown>>;
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) {
        const [row, col] = jobs[next++]!;
        out[row][col] = await cell(row, col);
      }
    }),
  );
  return out;
}

/**
 * Clone: wherever the viewer has access, and also wherever an anonymous caller has, because git sends
 * no credentials until challenged and Gitea's httpBase challenges no pull of a public repository of a
 * public owner (so the restricted member clones mx-pub/mx-pubpub, which its API calls may not see).
 */
const canClone = (row: Row, col: Column) => access(row, col) !== "-" || access("anonymous", col) !== "-";

const expected = <T>(fn: (row: Row, col: Column) => T): Record<Row, Record<Column, unknown>> =>
  Object.fromEntries(ROWS.map((row) => [row, Object.fromEntries(COLUMN_NAMES.map((col) => [col, fn(row, col)]))])) as Record<
    Row,
    Record<Column, unknown>
  >;

describe("git over smart HTTP", () => {
  test("git clone succeeds exactly where the viewer has access", async () => {
    const observed = await matrix(async (row, col) => {
      const dir = join(scratch, `clone-${row}-${col}`);
      const r = await gitClient(["clone", "-q", "--depth=1", url(row, col), dir]);
      if (r.code !== 0) return "refused";
      return (await Bun.file(join(dir, "README.md")).exists()) ? "cloned" : "empty";
    });
    expect(observed).toEqual(expected((row, col) => (canClone(row, col) ? "cloned" : "refused")));
  });

  test("credentials sent up front do not take away an anonymous pull (Gitea's httpBase asks nothing of one)", async () => {
    const infoRefs = async (row: Row, col: Column) => {
      const { org, repo } = COLUMNS[col];
      const v = viewers[row];
      const res = await fetch(new URL(`${org}/${repo}.git/info/refs?service=git-upload-pack`, t.baseUrl), {
        headers: v.token ? { Authorization: `Basic ${btoa(`${v.name}:${v.token}`)}` } : {},
      });
      await res.arrayBuffer();
      return res.status;
    };
    const observed = await matrix(infoRefs);
    expect(observed).toEqual(expected((row, col) => (canClone(row, col) ? 200 : row === "anonymous" ? 401 : 404)));
  });

  test("git push succeeds exactly where the viewer has write access, and only then lands", async () => {
    const observed = await matrix(async (row, col) => {
      const branch = `push-${row.toLowerCase()}`;
      const r = await gitClient(["push", "-q", url(row, col), `HEAD:refs/heads/${branch}`], { cwd: work });
      const landed = await t.json("GET", `/api/v1/repos/${COLUMNS[col].org}/${COLUMNS[col].repo}/branches/${branch}`, {
        token: viewers.owner.token,
      });
      return { push: r.code === 0 ? "pushed" : "refused", branch: landed.status };
    });
    expect(observed).toEqual(
      expected((row, col) =>
        access(row, col) === "w" || access(row, col) === "a"
          ? { push: "pushed", branch: 200 }
          : { push: "refused", branch: 404 },
      ),
    );
  });
});

describe("git over smart HTTP with a public-only token as the password", () => {
  test("info/refs: public repositories of public owners only; Gitea's 403 where the account could", async () => {
    const observed = await matrix(async (row, col) => {
      const { org, repo } = COLUMNS[col];
      const v = viewers[row];
      const res = await fetch(new URL(`${org}/${repo}.git/info/refs?service=git-upload-pack`, t.baseUrl), {
        headers: v.publicToken ? { Authorization: `Basic ${btoa(`${v.name}:${v.publicToken}`)}` } : {},
      });
      const body = await res.text();
      return res.status === 403 ? body.trim() : res.status;
    });
    expect(observed).toEqual(
      expected((row, col) => {
        const a = publicOnlyAccess(row, col);
        if (a === "refused") return "token scope is limited to public repos";
        if (a !== "-" || access("anonymous", col) !== "-") return 200;
        return row === "anonymous" ? 401 : 404;
      }),
    );
  });

  test("git push lands only in a public repository of a public owner the account may write to", async () => {
    const observed = await matrix(async (row, col) => {
      const branch = `public-only-${row.toLowerCase()}`;
      const r = await gitClient(["push", "-q", url(row, col, true), `HEAD:refs/heads/${branch}`], { cwd: work });
      const landed = await t.json("GET", `/api/v1/repos/${COLUMNS[col].org}/${COLUMNS[col].repo}/branches/${branch}`, {
        token: viewers.owner.token,
      });
      return { push: r.code === 0 ? "pushed" : "refused", branch: landed.status };
    });
    expect(observed).toEqual(
      expected((row, col) => {
        const a = publicOnlyAccess(row, col);
        return a === "w" || a === "a" ? { push: "pushed", branch: 200 } : { push: "refused", branch: 404 };
      }),
    );
  });
});
