import { operation } from "../../../route.ts";
import { RefQuery, RepoFileParams } from "../../../../shapes/content.ts";
import { openRaw } from "../../../../services/repo/contents.ts";
import type { Env } from "../../../../services/env.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import { wildcard } from "./context.ts";
import { serveBlob } from "../../../serve-file.ts";

async function serveRaw(
  ctx: { env: Env; repo: RepoContext; request: Request },
  params: { "*": string },
  ref: string | undefined,
): Promise<Response> {
  const { env, repo: rc, request } = ctx;
  return serveBlob(env, request, await openRaw(env, rc, wildcard(params), ref));
}

/** Raw files are code: Gitea's reqRepoReader(Code). */
const read = { scope: "repository", signIn: false, repo: { read: "code" } } as const;

export const rawOperations = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/raw/*",
    wildcard: "filepath",
    operationId: "repoGetRawFile",
    tag: "repository",
    summary: "Get a file from a repository",
    access: read,
    params: RepoFileParams,
    query: RefQuery,
    responses: { 200: null },
    streams: true,
    handler: (ctx) => serveRaw(ctx, ctx.params, ctx.query.ref),
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/media/*",
    wildcard: "filepath",
    operationId: "repoGetRawFileOrLFS",
    tag: "repository",
    summary: "Get a file or it's LFS object from a repository",
    access: read,
    params: RepoFileParams,
    query: RefQuery,
    // hearth has no LFS store yet: a pointer file is served as the blob it is, as Gitea does
    // when the pointer's object is not in the repository.
    responses: { 200: null },
    streams: true,
    handler: (ctx) => serveRaw(ctx, ctx.params, ctx.query.ref),
  }),
];
