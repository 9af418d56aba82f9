import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import {
  access,
  COLUMN_NAMES,
  COLUMNS,
  expectedPermissions,
  inUserRepos,
  ORG_NAMES,
  orgVisible,
  ROWS,
  setupMatrix,
  type Column,
  type Row,
} from "../support/permission-matrix.ts";

/**
 * The permission matrix over the REST API: every viewer (row) against every repository (column) for
 * every operation. The expected values are the tables in test/support/permission-matrix.ts; each test
 * builds the observed matrix of one operation and compares it whole, so a failure shows every wrong cell.
 */

const t = makeTestApp();
const viewers = await setupMatrix(t);
const full = (c: Column) => `${COLUMNS[c].org}/${COLUMNS[c].repo}`;

async function get(row: Row, path: string) {
  return t.json("GET", path, { token: viewers[row].token });
}

/** Runs `cell` for every row and column, returning { row: { column: value } }. */
async function matrix<T>(cell: (row: Row, col: Column) => Promise<T> | T): Promise<Record<Row, Record<Column, T>>> {
  const out = {} as Record<Row, Record<Column, T>>;
  for (const row of ROWS) {
    out[row] = {} as Record<Column, T>;
    for (const col of COLUMN_NAMES) out[row][col] = await cell(row, col);
  }
  return out;
}

const visible = (row: Row, col: Column) => access(row, col) !== "-";

describe("single repository", () => {
  test("GET /repos/{owner}/{repo}: 200 where the viewer has access, 404 elsewhere", async () => {
    const observed = await matrix(async (row, col) => (await get(row, `/api/v1/repos/${full(col)}`)).status);
    expect(observed).toEqual(await matrix((row, col) => (visible(row, col) ? 200 : 404)));
  });

  test("the permissions object: pull for readers, push for writers, admin for org owners and site admins", async () => {
    const observed = await matrix(async (row, col) => {
      const r = await get(row, `/api/v1/repos/${full(col)}`);
      return r.status === 200 ? r.body.permissions : undefined;
    });
    expect(observed).toEqual(await matrix((row, col) => expectedPermissions(access(row, col))));
  });

  test("GET contents and raw of a file: 200 where the viewer has access, 404 elsewhere", async () => {
    const observed = await matrix(async (row, col) => {
      const contents = await get(row, `/api/v1/repos/${full(col)}/contents/README.md`);
      const raw = await t.request("GET", `/api/v1/repos/${full(col)}/raw/README.md`, { token: viewers[row].token });
      const text = await raw.text();
      return {
        contents: contents.status,
        path: contents.status === 200 ? contents.body.path : undefined,
        raw: raw.status,
        text: raw.status === 200 ? text.startsWith(`# ${COLUMNS[col].repo}`) : undefined,
      };
    });
    expect(observed).toEqual(
      await matrix((row, col) =>
        visible(row, col)
          ? { contents: 200, path: "README.md", raw: 200, text: true }
          : { contents: 404, path: undefined, raw: 404, text: undefined },
      ),
    );
  });
});

describe("lists", () => {
  /** The matrix repositories in a list, as { column: listed }; anything else listed is ignored. */
  function listed(body: { full_name: string }[]): Record<Column, boolean> {
    const names = new Set(body.map((r) => r.full_name));
    return Object.fromEntries(COLUMN_NAMES.map((c) => [c, names.has(full(c))])) as Record<Column, boolean>;
  }

  async function rowsOf(fn: (row: Row) => Promise<Record<Column, unknown>>, rows: readonly Row[] = ROWS) {
    const out: Partial<Record<Row, Record<Column, unknown>>> = {};
    for (const row of rows) out[row] = await fn(row);
    return out;
  }

  const expectedListed = (rows: readonly Row[] = ROWS) =>
    rowsOf(async (row) => Object.fromEntries(COLUMN_NAMES.map((c) => [c, visible(row, c)])) as Record<Column, boolean>, rows);

  test("GET /repos/search without q lists exactly the repositories the viewer has access to", async () => {
    const observed = await rowsOf(async (row) => {
      const r = await get(row, "/api/v1/repos/search?limit=50");
      expect(r.status).toBe(200);
      return listed(r.body.data);
    });
    expect(observed).toEqual(await expectedListed());
  });

  test("GET /repos/search?q= lists exactly the repositories the viewer has access to", async () => {
    const observed = await rowsOf(async (row) => {
      const r = await get(row, "/api/v1/repos/search?q=mx-&limit=50");
      expect(r.status).toBe(200);
      expect(r.body.data.every((x: { name: string }) => x.name.startsWith("mx-"))).toBe(true);
      return listed(r.body.data);
    });
    expect(observed).toEqual(await expectedListed());
  });

  test("the permissions object in search results matches the single-repository one", async () => {
    const observed = await matrix(async (row, col) => {
      const r = await get(row, "/api/v1/repos/search?q=mx-&limit=50");
      return r.body.data.find((x: { full_name: string }) => x.full_name === full(col))?.permissions;
    });
    expect(observed).toEqual(await matrix((row, col) => expectedPermissions(access(row, col))));
  });

  test("GET /orgs/{org}/repos: 404 for an organization the viewer may not see, else its accessible repositories", async () => {
    const observed: Record<string, Record<string, unknown>> = {};
    const expected: Record<string, Record<string, unknown>> = {};
    for (const row of ROWS) {
      observed[row] = {};
      expected[row] = {};
      for (const org of ORG_NAMES) {
        const r = await get(row, `/api/v1/orgs/${org}/repos?limit=50`);
        const cols = COLUMN_NAMES.filter((c) => COLUMNS[c].org === org);
        observed[row][org] =
          r.status === 200
            ? Object.fromEntries(cols.map((c) => [c, r.body.some((x: { full_name: string }) => x.full_name === full(c))]))
            : r.status;
        expected[row][org] = orgVisible(row, org) ? Object.fromEntries(cols.map((c) => [c, visible(row, c)])) : 404;
      }
    }
    expect(observed).toEqual(expected);
  });

  const signedIn = ROWS.filter((r): r is Exclude<Row, "anonymous"> => r !== "anonymous");

  test("GET /user/repos: owned, team and collaboration repositories, plus public ones of private orgs one belongs to", async () => {
    const observed = await rowsOf(async (row) => {
      const r = await get(row, "/api/v1/user/repos?limit=50");
      expect(r.status).toBe(200);
      return listed(r.body);
    }, signedIn);
    const expected = await rowsOf(
      async (row) =>
        Object.fromEntries(COLUMN_NAMES.map((c) => [c, inUserRepos(row as Exclude<Row, "anonymous">, c)])) as Record<
          Column,
          boolean
        >,
      signedIn,
    );
    expect(observed).toEqual(expected);
  });

  test("GET /user/repos needs sign-in", async () => {
    expect((await get("anonymous", "/api/v1/user/repos")).status).toBe(401);
  });
});

// One issue with one comment per repository, by the organization owner.
for (const col of COLUMN_NAMES) {
  const issue = await t.ok("POST", `/api/v1/repos/${full(col)}/issues`, viewers.owner.token, { title: `issue of ${col}` }, 201);
  await t.ok("POST", `/api/v1/repos/${full(col)}/issues/${issue.number}/comments`, viewers.owner.token, { body: `comment on ${col}` }, 201);
}

describe("issues and comments", () => {
  test("issue list, issue, comments and the repository-wide comment list: readable exactly where the repository is", async () => {
    const observed = await matrix(async (row, col) => {
      const list = await get(row, `/api/v1/repos/${full(col)}/issues`);
      const one = await get(row, `/api/v1/repos/${full(col)}/issues/1`);
      const comments = await get(row, `/api/v1/repos/${full(col)}/issues/1/comments`);
      const repoComments = await get(row, `/api/v1/repos/${full(col)}/issues/comments`);
      return {
        list: list.status === 200 ? list.body.map((i: { title: string }) => i.title) : list.status,
        issue: one.status,
        comments: comments.status === 200 ? comments.body.map((c: { body: string }) => c.body) : comments.status,
        repoComments: repoComments.status === 200 ? repoComments.body.length : repoComments.status,
      };
    });
    expect(observed).toEqual(
      await matrix((row, col) =>
        visible(row, col)
          ? { list: [`issue of ${col}`], issue: 200, comments: [`comment on ${col}`], repoComments: 1 }
          : { list: 404, issue: 404, comments: 404, repoComments: 404 },
      ),
    );
  });

  test("issue search finds an issue exactly where the repository is readable", async () => {
    const observed = await matrix(async (row, col) => {
      const r = await get(row, `/api/v1/repos/issues/search?q=${encodeURIComponent(`issue of ${col}`)}&state=open`);
      return r.body.some((i: { title: string }) => i.title === `issue of ${col}`);
    });
    expect(observed).toEqual(await matrix((row, col) => visible(row, col)));
  });
});
