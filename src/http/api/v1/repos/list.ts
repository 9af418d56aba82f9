import * as v from "valibot";
import { operation, Reply } from "../../../route.ts";
import { Repository, SearchResults } from "../../../../shapes/repo.ts";
import { intQuery, PageQuery, UsernameParams } from "../../../../shapes/common.ts";
import { listAccessibleRepos, listOwnerRepos, searchRepos, withContext } from "../../../../services/repo/list.ts";
import { reposJson } from "./context.ts";
import { OrgParams } from "../../../../shapes/org.ts";
import { Invalid } from "../../../../lib/errors.ts";
import type { RepoRow, UserRow } from "../../../../db/schema/index.ts";
import type { Env } from "../../../../services/env.ts";
import type { RepoSort } from "../../../../models/repo.ts";

function render(env: Env, viewer: UserRow | undefined, rows: RepoRow[]) {
  return reposJson(env, withContext(env, viewer, rows));
}

const bool = (s: string | undefined) => (s === undefined || s === "" ? undefined : ["1", "t", "T", "TRUE", "true", "True"].includes(s));

const SORTS: Record<string, RepoSort> = {
  alpha: "alpha",
  created: "created",
  updated: "updated",
  size: "size",
  git_size: "size",
  id: "id",
  stars: "stars",
  forks: "forks",
};

export const repoListOperations = [
  operation({
    method: "GET",
    path: "/user/repos",
    operationId: "userCurrentListRepos",
    tag: "user",
    summary: "List the repos that the authenticated user owns",
    access: { scope: ["user", "repository"], signIn: true },
    query: PageQuery,
    responses: { 200: v.array(Repository) },
    handler: (ctx) => {
      const page = ctx.page();
      const { doer } = ctx;
      const { rows, total } = listAccessibleRepos(ctx.env, doer, page);
      return ctx.list(render(ctx.env, doer, rows), total, page);
    },
  }),
  operation({
    method: "GET",
    path: "/users/:username/repos",
    operationId: "userListRepos",
    tag: "user",
    summary: "List the repos owned by the given user",
    // A user or an organization, if the doer may see it (404 otherwise).
    access: { scope: ["user", "repository"], signIn: false, user: { kind: "account", visible: true } },
    params: UsernameParams,
    query: PageQuery,
    responses: { 200: v.array(Repository) },
    handler: (ctx) => {
      const page = ctx.page();
      const { rows, total } = listOwnerRepos(ctx.env, ctx.doer, ctx.user, page);
      return ctx.list(render(ctx.env, ctx.doer, rows), total, page);
    },
  }),
  operation({
    method: "GET",
    path: "/orgs/:org/repos",
    operationId: "orgListRepos",
    tag: "organization",
    summary: "List an organization's repos",
    access: { scope: ["organization", "repository"], signIn: false, org: "visible" },
    params: OrgParams,
    query: PageQuery,
    responses: { 200: v.array(Repository) },
    handler: (ctx) => {
      const page = ctx.page();
      const { rows, total } = listOwnerRepos(ctx.env, ctx.doer, ctx.org, page);
      return ctx.list(render(ctx.env, ctx.doer, rows), total, page);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/search",
    operationId: "repoSearch",
    tag: "repository",
    summary: "Search for repositories",
    access: { scope: "repository", signIn: false },
    query: v.object({
      ...PageQuery.entries,
      q: v.optional(v.string()),
      topic: v.optional(v.string()),
      includeDesc: v.optional(v.string()),
      uid: v.optional(intQuery),
      priority_owner_id: v.optional(intQuery),
      team_id: v.optional(intQuery),
      starredBy: v.optional(intQuery),
      private: v.optional(v.string()),
      is_private: v.optional(v.string()),
      template: v.optional(v.string()),
      archived: v.optional(v.string()),
      mode: v.optional(v.string()),
      exclusive: v.optional(v.string()),
      sort: v.optional(v.string()),
      order: v.optional(v.string()),
    }),
    responses: { 200: SearchResults },
    handler: (ctx) => {
      const { env, query, doer: viewer } = ctx;
      const mode = query.mode ?? "";
      if (!["", "fork", "source", "mirror", "collaborative"].includes(mode)) {
        throw new Invalid(`Invalid search mode: ${JSON.stringify(mode)}`);
      }
      let sort: RepoSort = "alpha";
      if (query.sort) {
        const s = SORTS[query.sort];
        if (!s) throw new Invalid(`Invalid sort mode: ${JSON.stringify(query.sort)}`);
        sort = s;
      }
      const order = query.order ?? "asc";
      if (order !== "asc" && order !== "desc") throw new Invalid(`Invalid sort order: ${JSON.stringify(order)}`);
      const uid = /^\d+$/.test(query.uid ?? "") ? Number(query.uid) : 0;
      const page = ctx.page();
      // Mirrors do not exist in hearth (yet): asking for them finds nothing.
      const fork = mode === "fork" ? true : mode === "source" ? false : undefined;
      const { rows, total } =
        mode === "mirror"
          ? { rows: [], total: 0 }
          : searchRepos(env, viewer, {
              keyword: query.q?.trim() || undefined,
              topic: bool(query.topic) ?? false,
              includeDescription: bool(query.includeDesc) ?? false,
              ownerId: uid > 0 && bool(query.exclusive) ? uid : undefined,
              onlyAccessible: mode === "collaborative" ? true : undefined,
              isPrivate: bool(query.is_private),
              archived: bool(query.archived),
              template: bool(query.template),
              fork,
              sort,
              descending: order === "desc",
              // Gitea's `Private: signed in && (private is absent or true)`: otherwise only the
              // repositories anyone may see, whoever asks.
              onlyPublic: !(viewer && (query.private === undefined || query.private === "" || bool(query.private))),
              offset: page.offset,
              limit: page.limit,
            });
      const listed = ctx.list([], total, page);
      return new Reply(200, { ok: true, data: render(env, viewer, rows) }, listed.headers);
    },
  }),
];
