import { operation } from "../../../route.ts";
import { openArchive } from "../../../../services/repo/archive.ts";
import { repoApiUrl } from "../../../../convert/content.ts";
import { userContentHeaders } from "../../../user-content.ts";
import { wildcard } from "./context.ts";
import { RepoFileParams } from "../../../../shapes/content.ts";

export const archiveOperations = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/archive/*",
    wildcard: "archive",
    operationId: "repoGetArchive",
    tag: "repository",
    summary: "Get an archive of a repository",
    // Gitea's reqRepoReader(Code).
    access: { scope: "repository", signIn: false, repo: { read: "code" } },
    params: RepoFileParams,
    responses: { 200: null },
    streams: true,
    handler: async ({ env, repo: rc, params }) => {
      const archive = await openArchive(env, rc, wildcard(params));
      const body = await archive.open();
      const headers = userContentHeaders(env.settings, {
        contentType: "application/octet-stream",
        filename: archive.filename,
        disposition: "attachment",
        cachePublic: false,
      });
      // Nix's tarball fetcher locks to this (Gitea adds it for every archive).
      const api = repoApiUrl(env.settings, { owner: rc.owner.name, name: rc.repo.name });
      headers.set("Link", `<${api}/archive/${archive.commitId}.${archive.type}?rev=${archive.commitId}>; rel="immutable"`);
      headers.set("Last-Modified", new Date().toUTCString());
      return new Response(body, { status: 200, headers });
    },
  }),
];
