import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import { RepoWildcardParams } from "../../../../shapes/branch.ts";
import { CreateReleaseOption, EditReleaseOption, Release, ReleaseListQuery, ReleaseParams } from "../../../../shapes/release.ts";
import { toAPIRelease } from "../../../../convert/release.ts";
import {
  createRelease,
  deleteRelease,
  editRelease,
  latestRelease,
  listReleases,
  releaseByTag,
  releaseFromPath,
  viewOf,
  type ReleaseView,
} from "../../../../services/release/releases.ts";
import type { Env } from "../../../../services/env.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import { wildcard } from "./context.ts";

/** Reading releases and their assets: Gitea's reqRepoReader(unit.TypeReleases) over every release route. */
export const releaseRead = { scope: "repository", signIn: false, repo: { read: "releases" } } as const;
/**
 * Changing them: reqRepoReader(Releases), reqToken, reqRepoWriter(Releases), and a repository that
 * is not archived (423; Gitea fails later, with a 500, when it tries to create the tag).
 */
export const releaseWrite = {
  scope: "repository",
  signIn: false,
  repo: { read: "releases", write: "releases", notArchived: true },
} as const;

/**
 * Gitea's FormOptionalBool: absent or empty is no filter; otherwise strconv.ParseBool's true
 * spellings or `on` mean true and anything else false.
 */
function optionalBool(value: string | undefined): boolean | undefined {
  if (!value) return undefined;
  return ["1", "t", "T", "TRUE", "true", "True"].includes(value) || value.toLowerCase() === "on";
}

const json = (env: Env, rc: RepoContext) => (view: ReleaseView) => toAPIRelease(env.settings, rc, view);

export const releaseOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/releases",
    operationId: "repoListReleases",
    tag: "repository",
    summary: "List a repo's releases",
    access: releaseRead,
    params: RepoParams,
    query: ReleaseListQuery,
    responses: { 200: v.array(Release) },
    handler: (ctx) => {
      const rc = ctx.repo;
      const page = ctx.page();
      const q = { draft: optionalBool(ctx.query.draft), prerelease: optionalBool(ctx.query["pre-release"]) };
      const { items, total } = listReleases(ctx.env, rc, q, page);
      return ctx.list(items.map(json(ctx.env, rc)), total, page);
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/releases",
    operationId: "repoCreateRelease",
    tag: "repository",
    summary: "Create a release",
    access: releaseWrite,
    params: RepoParams,
    body: CreateReleaseOption,
    responses: { 201: Release },
    handler: async (ctx) => {
      const { repo: rc, doer } = ctx;
      const b = ctx.body;
      const view = await createRelease(ctx.env, rc, doer, {
        tagName: b.tag_name,
        target: b.target_commitish ?? "",
        title: b.name ?? "",
        note: b.body ?? "",
        draft: b.draft ?? false,
        prerelease: b.prerelease ?? false,
        tagMessage: b.tag_message ?? "",
      });
      return reply.created(toAPIRelease(ctx.env.settings, rc, view));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/releases/latest",
    operationId: "repoGetLatestRelease",
    tag: "repository",
    summary: "Gets the most recent non-prerelease, non-draft release of a repository, sorted by created_at",
    access: releaseRead,
    params: RepoParams,
    responses: { 200: Release },
    handler: (ctx) => {
      const rc = ctx.repo;
      return toAPIRelease(ctx.env.settings, rc, latestRelease(ctx.env, rc));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/releases/tags/*",
    wildcard: "tag",
    operationId: "repoGetReleaseByTag",
    tag: "repository",
    summary: "Get a release by tag name",
    access: releaseRead,
    params: RepoWildcardParams,
    responses: { 200: Release },
    handler: (ctx) => {
      const rc = ctx.repo;
      return toAPIRelease(ctx.env.settings, rc, viewOf(ctx.env, releaseByTag(ctx.env, rc, wildcard(ctx.params))));
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/releases/tags/*",
    wildcard: "tag",
    operationId: "repoDeleteReleaseByTag",
    tag: "repository",
    summary: "Delete a release by tag name",
    access: releaseWrite,
    params: RepoWildcardParams,
    responses: { 204: null },
    handler: async (ctx) => {
      const { repo: rc, doer } = ctx;
      await deleteRelease(ctx.env, rc, releaseByTag(ctx.env, rc, wildcard(ctx.params)), doer);
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/releases/:id",
    operationId: "repoGetRelease",
    tag: "repository",
    summary: "Get a release",
    access: releaseRead,
    params: ReleaseParams,
    responses: { 200: Release },
    handler: (ctx) => {
      const rc = ctx.repo;
      return toAPIRelease(ctx.env.settings, rc, viewOf(ctx.env, releaseFromPath(ctx.env, rc, ctx.params.id)));
    },
  }),
  operation({
    method: "PATCH",
    path: "/repos/:owner/:repo/releases/:id",
    operationId: "repoEditRelease",
    tag: "repository",
    summary: "Update a release",
    access: releaseWrite,
    params: ReleaseParams,
    body: EditReleaseOption,
    responses: { 200: Release },
    handler: async (ctx) => {
      const { repo: rc, doer } = ctx;
      const rel = releaseFromPath(ctx.env, rc, ctx.params.id);
      const b = ctx.body;
      const view = await editRelease(ctx.env, rc, doer, rel, {
        tagName: b.tag_name,
        target: b.target_commitish,
        title: b.name,
        note: b.body,
        draft: b.draft,
        prerelease: b.prerelease,
      });
      return toAPIRelease(ctx.env.settings, rc, view);
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/releases/:id",
    operationId: "repoDeleteRelease",
    tag: "repository",
    summary: "Delete a release",
    access: releaseWrite,
    params: ReleaseParams,
    responses: { 204: null },
    handler: async (ctx) => {
      const { repo: rc, doer } = ctx;
      await deleteRelease(ctx.env, rc, releaseFromPath(ctx.env, rc, ctx.params.id), doer);
      return reply.noContent();
    },
  }),
];
