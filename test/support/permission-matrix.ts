import { expect } from "bun:test";
import type { TestApp } from "./app.ts";

/**
 * The permission matrix of the product issue, shared by the API and the git tests: who (rows) may do
 * what with which organization repository (columns), as Gitea decides it.
 *
 * Gitea's rules (models/perm/access/repo_permission.go GetUserRepoPermission, models/organization
 * HasOrgOrUserVisible, models/repo/repo_list.go AccessibleRepositoryCondition):
 * - an owner the viewer may not see hides all its repositories: anonymous callers see public orgs only,
 *   signed-in accounts public and limited orgs, private orgs are for their members (and site admins);
 * - anonymous callers read public repositories of public organizations;
 * - a signed-in, non-restricted account reads every public repository of an organization it may see;
 *   a restricted account reads only fully public repositories (public repository of a public owner,
 *   Gitea 1.25, go-gitea#35693) and what a team or a collaboration gives it;
 * - private repositories need team access (or the owner team, or site admin, or collaboration);
 * - a read team gives pull, a write team push; organization owners and site admins are administrators.
 */

/** Columns: one small repository per kind. The names share "mx-" so that `q=mx-` finds all of them. */
export const COLUMNS = {
  pubPub: { org: "mx-pub", repo: "mx-pubpub", orgVisibility: "public", private: false },
  limPub: { org: "mx-lim", repo: "mx-limpub", orgVisibility: "limited", private: false },
  privPub: { org: "mx-priv", repo: "mx-privpub", orgVisibility: "private", private: false },
  pubPriv: { org: "mx-pub", repo: "mx-pubpriv", orgVisibility: "public", private: true },
  privPriv: { org: "mx-priv", repo: "mx-privpriv", orgVisibility: "private", private: true },
} as const;
export type Column = keyof typeof COLUMNS;
export const COLUMN_NAMES = Object.keys(COLUMNS) as Column[];

export const ORGS = { "mx-pub": "public", "mx-lim": "limited", "mx-priv": "private" } as const;
export type OrgName = keyof typeof ORGS;
export const ORG_NAMES = Object.keys(ORGS) as OrgName[];

/**
 * Rows. Every signed-in row has the same standing in all three organizations:
 * - stranger: signed in, in no organization;
 * - member: in a team of each organization that has no repositories;
 * - reader / writer: in each organization's read / write team, which holds both of its repositories;
 * - owner: created the three organizations (owner team); admin: site administrator, in no organization;
 * - rStranger / rMember / rReader: restricted accounts, placed like stranger / member / reader.
 */
export const ROWS = [
  "anonymous",
  "stranger",
  "member",
  "reader",
  "writer",
  "owner",
  "admin",
  "rStranger",
  "rMember",
  "rReader",
] as const;
export type Row = (typeof ROWS)[number];

/**
 * Access per cell: "-" no access (404 everywhere, absent from every list), "r" pull only,
 * "w" pull and push, "a" administrator (pull, push, admin).
 */
export type Access = "-" | "r" | "w" | "a";

const ACCESS_TABLE: Record<Row, [pubPub: Access, limPub: Access, privPub: Access, pubPriv: Access, privPriv: Access]> = {
  //           pub org   lim org   priv org  pub org   priv org
  //           pub repo  pub repo  pub repo  priv repo priv repo
  anonymous: [ "r",      "-",      "-",      "-",      "-" ],
  stranger:  [ "r",      "r",      "-",      "-",      "-" ],
  member:    [ "r",      "r",      "r",      "-",      "-" ],
  reader:    [ "r",      "r",      "r",      "r",      "r" ],
  writer:    [ "w",      "w",      "w",      "w",      "w" ],
  owner:     [ "a",      "a",      "a",      "a",      "a" ],
  admin:     [ "a",      "a",      "a",      "a",      "a" ],
  rStranger: [ "r",      "-",      "-",      "-",      "-" ],
  rMember:   [ "r",      "-",      "-",      "-",      "-" ],
  rReader:   [ "r",      "r",      "r",      "r",      "r" ],
};

/**
 * GET /user/repos (signed-in rows): Gitea lists what the doer owns, reaches through the access table or a
 * team, and the public repositories of the *private* organizations it belongs to
 * (userOrgPublicRepoCondPrivate); a restricted doer only what it may access; a site admin only its own.
 */
const USER_REPOS_TABLE: Record<Exclude<Row, "anonymous">, [boolean, boolean, boolean, boolean, boolean]> = {
  //           pubPub limPub privPub pubPriv privPriv
  stranger:  [ false, false, false,  false,  false ],
  member:    [ false, false, true,   false,  false ],
  reader:    [ true,  true,  true,   true,   true  ],
  writer:    [ true,  true,  true,   true,   true  ],
  owner:     [ true,  true,  true,   true,   true  ],
  admin:     [ false, false, false,  false,  false ],
  rStranger: [ false, false, false,  false,  false ],
  rMember:   [ false, false, false,  false,  false ],
  rReader:   [ true,  true,  true,   true,   true  ],
};

/** Whether the organization itself is visible (GET /orgs/{org}/repos answers 200, else 404). */
const ORG_VISIBLE_TABLE: Record<Row, [pub: boolean, lim: boolean, priv: boolean]> = {
  anonymous: [ true,  false, false ],
  stranger:  [ true,  true,  false ],
  member:    [ true,  true,  true  ],
  reader:    [ true,  true,  true  ],
  writer:    [ true,  true,  true  ],
  owner:     [ true,  true,  true  ],
  admin:     [ true,  true,  true  ],
  rStranger: [ true,  false, false ],
  rMember:   [ true,  true,  true  ],
  rReader:   [ true,  true,  true  ],
};

export function access(row: Row, col: Column): Access {
  return ACCESS_TABLE[row][COLUMN_NAMES.indexOf(col)]!;
}

export function inUserRepos(row: Exclude<Row, "anonymous">, col: Column): boolean {
  return USER_REPOS_TABLE[row][COLUMN_NAMES.indexOf(col)]!;
}

export function orgVisible(row: Row, org: OrgName): boolean {
  return ORG_VISIBLE_TABLE[row][ORG_NAMES.indexOf(org)]!;
}

export function expectedPermissions(a: Access): { admin: boolean; push: boolean; pull: boolean } | undefined {
  if (a === "-") return undefined;
  return { admin: a === "a", push: a !== "r", pull: true };
}

export interface Viewer {
  row: Row;
  name?: string;
  token?: string;
  /** A token with every scope and `public-only`. */
  publicToken?: string;
  password?: string;
}

/**
 * Public-only tokens (every scope plus `public-only`): they reach public repositories of public
 * owners and public organizations only, whatever the account may do. Elsewhere the answer is Gitea's
 * 403 "token scope is limited to public ..." where the account itself has access, and the usual 404
 * where it has none (so the token learns no name the account does not know). hearth also keeps the
 * public repositories of limited and private organizations out of reach (Gitea 1.25 looked at the
 * repository's own flag only; README lists the difference).
 */
export type PublicOnlyAccess = Access | "refused";

export function inPublicReach(col: Column): boolean {
  return !COLUMNS[col].private && COLUMNS[col].orgVisibility === "public";
}

export function publicOnlyAccess(row: Row, col: Column): PublicOnlyAccess {
  const a = access(row, col);
  if (inPublicReach(col) || a === "-") return a;
  return "refused";
}

/** Whether a public-only token of `row` may use the organization: public ones it can see; 403 or 404 otherwise. */
export function publicOnlyOrg(row: Row, org: OrgName): "ok" | "refused" | "hidden" {
  if (!orgVisible(row, org)) return "hidden";
  return ORGS[org] === "public" ? "ok" : "refused";
}

const UNITS = ["repo.code", "repo.issues", "repo.pulls", "repo.releases", "repo.wiki"];

/** Builds the organizations, repositories, teams and accounts through the API. */
export async function setupMatrix(t: TestApp): Promise<Record<Row, Viewer>> {
  const viewers = { anonymous: { row: "anonymous" } } as Record<Row, Viewer>;
  for (const row of ROWS) {
    if (row === "anonymous") continue;
    const name = `mx-${row.toLowerCase()}`;
    const password = `${name}-pass`;
    const user = await t.user(name, { admin: row === "admin", password });
    viewers[row] = { row, name, password, token: t.token(user), publicToken: t.token(user, ["public-only", "all"]) };
  }
  const ok = async (method: string, path: string, token: string, body?: unknown, status = 201) => {
    const r = await t.json(method, path, { token, body });
    expect({ method, path, status: r.status, body: r.status === status ? undefined : r.body }).toEqual({
      method,
      path,
      status,
      body: undefined,
    });
    return r.body;
  };
  const boss = viewers.owner.token!;
  for (const org of ORG_NAMES) {
    await ok("POST", "/api/v1/orgs", boss, { username: org, visibility: ORGS[org] });
    const team = async (name: string, permission: string) =>
      (await ok("POST", `/api/v1/orgs/${org}/teams`, boss, {
        name,
        permission,
        units: UNITS,
        includes_all_repositories: false,
      })).id as number;
    const nobody = await team("nobody", "read");
    const readers = await team("readers", "read");
    const writers = await team("writers", "write");
    for (const c of COLUMN_NAMES.filter((c) => COLUMNS[c].org === org)) {
      const { repo } = COLUMNS[c];
      await ok("POST", `/api/v1/orgs/${org}/repos`, boss, { name: repo, private: COLUMNS[c].private, auto_init: true });
      await ok("PUT", `/api/v1/teams/${readers}/repos/${org}/${repo}`, boss, undefined, 204);
      await ok("PUT", `/api/v1/teams/${writers}/repos/${org}/${repo}`, boss, undefined, 204);
    }
    const placement: [Row, number][] = [
      ["member", nobody],
      ["rMember", nobody],
      ["reader", readers],
      ["rReader", readers],
      ["writer", writers],
    ];
    for (const [row, id] of placement) await ok("PUT", `/api/v1/teams/${id}/members/${viewers[row].name}`, boss, undefined, 204);
  }
  for (const row of ["rStranger", "rMember", "rReader"] as const) {
    const name = viewers[row].name!;
    const r = await ok("PATCH", `/api/v1/admin/users/${name}`, viewers.admin.token!, { login_name: name, restricted: true }, 200);
    expect(r.restricted).toBe(true);
  }
  return viewers;
}
