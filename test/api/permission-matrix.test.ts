import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import {
  access,
  COLUMN_NAMES,
  COLUMNS,
  expectedPermissions,
  inPublicReach,
  inUserRepos,
  ORG_NAMES,
  orgVisible,
  publicOnlyAccess,
  publicOnlyOrg,
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

// Repository ids, for GET /repositories/{id}.
const ids = {} as Record<Column, number>;
for (const col of COLUMN_NAMES) ids[col] = (await t.ok("GET", `/api/v1/repos/${full(col)}`, viewers.owner.token)).id;

describe("public-only tokens", () => {
  async function pget(row: Row, path: string) {
    return t.json("GET", path, { token: viewers[row].publicToken });
  }
  /** A single-resource answer: the status, or the message of a 403. */
  const answer = (r: { status: number; body: { message?: string } }) => (r.status === 403 ? r.body.message : r.status);
  /** The expected answer of a read of `col` through a public-only token. */
  const expectedAnswer = (row: Row, col: Column, message = "token scope is limited to public repos") => {
    const a = publicOnlyAccess(row, col);
    return a === "-" ? 404 : a === "refused" ? message : 200;
  };

  test("a repository by name and by id: public repositories of public owners only, Gitea's 403 for the rest the account sees", async () => {
    const observed = await matrix(async (row, col) => ({
      byName: answer(await pget(row, `/api/v1/repos/${full(col)}`)),
      byId: row === "anonymous" ? undefined : answer(await pget(row, `/api/v1/repositories/${ids[col]}`)),
    }));
    expect(observed).toEqual(
      await matrix((row, col) => ({ byName: expectedAnswer(row, col), byId: row === "anonymous" ? undefined : expectedAnswer(row, col) })),
    );
  });

  test("the permissions object of a repository in reach is the account's", async () => {
    const observed = await matrix(async (row, col) => {
      const r = await pget(row, `/api/v1/repos/${full(col)}`);
      return r.status === 200 ? r.body.permissions : undefined;
    });
    expect(observed).toEqual(await matrix((row, col) => (inPublicReach(col) ? expectedPermissions(access(row, col)) : undefined)));
  });

  test("contents, raw files and archives follow the repository", async () => {
    const observed = await matrix(async (row, col) => {
      const token = viewers[row].publicToken;
      const raw = await t.request("GET", `/api/v1/repos/${full(col)}/raw/README.md`, { token });
      const archive = await t.request("GET", `/api/v1/repos/${full(col)}/archive/main.tar.gz`, { token });
      await raw.arrayBuffer();
      await archive.arrayBuffer();
      return {
        contents: answer(await pget(row, `/api/v1/repos/${full(col)}/contents/README.md`)),
        raw: raw.status,
        archive: archive.status,
      };
    });
    expect(observed).toEqual(
      await matrix((row, col) => {
        const status = expectedAnswer(row, col);
        const code = typeof status === "string" ? 403 : status;
        return { contents: status, raw: code, archive: code };
      }),
    );
  });

  test("issues and comments: Gitea's \"public issues\" wording on issue routes", async () => {
    const observed = await matrix(async (row, col) => ({
      list: answer(await pget(row, `/api/v1/repos/${full(col)}/issues`)),
      issue: answer(await pget(row, `/api/v1/repos/${full(col)}/issues/1`)),
      comments: answer(await pget(row, `/api/v1/repos/${full(col)}/issues/1/comments`)),
    }));
    const refused = "token scope is limited to public issues";
    expect(observed).toEqual(
      await matrix((row, col) => ({
        list: expectedAnswer(row, col, refused),
        issue: expectedAnswer(row, col, refused),
        comments: expectedAnswer(row, col, refused),
      })),
    );
  });

  /** The matrix repositories in a list, as { column: listed }. */
  const listed = (body: { full_name: string }[]) =>
    Object.fromEntries(COLUMN_NAMES.map((c) => [c, body.some((r) => r.full_name === full(c))])) as Record<Column, boolean>;
  const reachable = (row: Row) =>
    Object.fromEntries(COLUMN_NAMES.map((c) => [c, inPublicReach(c) && access(row, c) !== "-"])) as Record<Column, boolean>;
  const signedIn = ROWS.filter((r) => r !== "anonymous");

  test("repository lists and searches hold only what is in reach", async () => {
    const observed: Record<string, unknown> = {};
    const expected: Record<string, unknown> = {};
    for (const row of signedIn) {
      const search = await pget(row, "/api/v1/repos/search?q=mx-&limit=50");
      const mine = await pget(row, "/api/v1/user/repos?limit=50");
      const issues = await Promise.all(
        COLUMN_NAMES.map(async (c) => {
          const r = await pget(row, `/api/v1/repos/issues/search?q=${encodeURIComponent(`issue of ${c}`)}&state=open`);
          return [c, r.body.some((i: { title: string }) => i.title === `issue of ${c}`)] as const;
        }),
      );
      observed[row] = { search: listed(search.body.data), mine: listed(mine.body), issues: Object.fromEntries(issues) };
      const inUser = Object.fromEntries(COLUMN_NAMES.map((c) => [c, inPublicReach(c) && inUserRepos(row, c)]));
      expected[row] = { search: reachable(row), mine: inUser, issues: reachable(row) };
    }
    expect(observed).toEqual(expected);
  });

  test("an organization and its repositories: 403 \"public orgs\" for one the account sees that is not public", async () => {
    const observed: Record<string, unknown> = {};
    const expected: Record<string, unknown> = {};
    for (const row of signedIn) {
      for (const org of ORG_NAMES) {
        const one = await pget(row, `/api/v1/orgs/${org}`);
        const repos = await pget(row, `/api/v1/orgs/${org}/repos?limit=50`);
        observed[`${row} ${org}`] = { org: answer(one), repos: repos.status === 200 ? listed(repos.body) : answer(repos) };
        const state = publicOnlyOrg(row, org);
        const refusal = state === "hidden" ? 404 : "token scope is limited to public orgs";
        expected[`${row} ${org}`] = state === "ok" ? { org: 200, repos: reachable(row) } : { org: refusal, repos: refusal };
      }
    }
    expect(observed).toEqual(expected);
  });

  test("organization lists hold public organizations only", async () => {
    const observed: Record<string, unknown> = {};
    for (const row of signedIn) {
      const names = (body: { username: string }[]) => body.map((o) => o.username).filter((n) => n.startsWith("mx-")).sort();
      observed[row] = {
        all: names((await pget(row, "/api/v1/orgs?limit=50")).body),
        mine: names((await pget(row, "/api/v1/user/orgs?limit=50")).body),
      };
    }
    const member = ["member", "reader", "writer", "owner", "rMember", "rReader"];
    expect(observed).toEqual(
      Object.fromEntries(signedIn.map((row) => [row, { all: ["mx-pub"], mine: member.includes(row) ? ["mx-pub"] : [] }])),
    );
  });

  test("teams: only those of public organizations, and a team lists only its public repositories", async () => {
    const teamsOf = async (org: string) =>
      (await t.ok("GET", `/api/v1/orgs/${org}/teams`, viewers.owner.token)) as { id: number; name: string }[];
    const readers = (await teamsOf("mx-pub")).find((x) => x.name === "readers")!.id;
    const limReaders = (await teamsOf("mx-lim")).find((x) => x.name === "readers")!.id;
    const mine = await pget("reader", "/api/v1/user/teams");
    expect(mine.status).toBe(200);
    expect([...new Set(mine.body.map((x: { organization: { username: string } }) => x.organization.username))]).toEqual(["mx-pub"]);
    const repos = await pget("reader", `/api/v1/teams/${readers}/repos`);
    expect(repos.body.map((r: { full_name: string }) => r.full_name)).toEqual([full("pubPub")]);
    expect(answer(await pget("reader", `/api/v1/teams/${limReaders}`))).toBe("token scope is limited to public orgs");
  });

  test("starred and watched repositories: only those in reach, for the account's own lists too", async () => {
    for (const col of COLUMN_NAMES) await t.ok("PUT", `/api/v1/user/starred/${full(col)}`, viewers.owner.token, undefined, 204);
    // Through its full token the account's own list holds more than public repositories of public owners.
    const own = (await t.ok("GET", "/api/v1/user/starred?limit=50", viewers.owner.token)) as { full_name: string }[];
    expect(listed(own).limPub).toBe(true);
    const starred = await pget("owner", "/api/v1/user/starred?limit=50");
    const watched = await pget("owner", "/api/v1/user/subscriptions?limit=50");
    const theirs = await pget("owner", `/api/v1/users/${viewers.owner.name}/starred?limit=50`);
    const only = reachable("owner");
    expect({ starred: listed(starred.body), watched: listed(watched.body), theirs: listed(theirs.body) }).toEqual({
      starred: only,
      watched: only,
      theirs: only,
    });
  });

  test("a public-only token cannot make a repository it could not reach", async () => {
    const token = viewers.owner.publicToken;
    const created = await t.json("POST", "/api/v1/user/repos", { token, body: { name: "mx-po-private", private: true } });
    expect(answer(created)).toBe("token scope is limited to public repos");
    expect((await t.json("GET", `/api/v1/repos/${viewers.owner.name}/mx-po-private`, { token: viewers.owner.token })).status).toBe(404);
    const inOrg = await t.json("POST", "/api/v1/orgs/mx-lim/repos", { token, body: { name: "mx-po-lim" } });
    expect(answer(inOrg)).toBe("token scope is limited to public orgs");
    const hide = await t.json("PATCH", `/api/v1/repos/${full("pubPub")}`, { token, body: { private: true } });
    expect(answer(hide)).toBe("token scope is limited to public repos");
    expect((await t.ok("GET", `/api/v1/repos/${full("pubPub")}`, viewers.owner.token)).private).toBe(false);
    const pub = await t.json("POST", "/api/v1/user/repos", { token, body: { name: "mx-po-public" } });
    expect(pub.status).toBe(201);
  });

  test("a private user: Gitea's 403 \"public users\" on routes that name them, absent from searches", async () => {
    const secret = await t.user("mx-secret");
    await t.ok("PATCH", "/api/v1/admin/users/mx-secret", viewers.admin.token, { login_name: "mx-secret", visibility: "private" });
    const own = t.token(secret, ["public-only", "all"]);
    for (const token of [viewers.admin.publicToken, own]) {
      expect(answer(await t.json("GET", "/api/v1/users/mx-secret", { token }))).toBe("token scope is limited to public users");
      expect(answer(await t.json("GET", "/api/v1/users/mx-secret/repos", { token }))).toBe("token scope is limited to public users");
      expect(answer(await t.json("GET", "/api/v1/users/mx-secret/starred", { token }))).toBe("token scope is limited to public users");
      const found = await t.json("GET", "/api/v1/users/search?q=mx-secret", { token });
      expect(found.body.data).toEqual([]);
    }
    // A stranger's public-only token learns nothing the account does not know: 404, as without the flag.
    expect((await pget("stranger", "/api/v1/users/mx-secret")).status).toBe(404);
    expect((await t.json("GET", "/api/v1/users/mx-secret", { token: viewers.admin.token })).status).toBe(200);
  });
});
