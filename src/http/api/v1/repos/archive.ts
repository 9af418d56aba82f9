import { operation } from "../../../route.ts";
import { openArchive } from "../../../../services/repo/archive.ts";
import { repoApiUrl } from "../../../../convert/content.ts";
import { serveArchive } from "../../../serve-file.ts";
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
      // Nix's tarball fetcher locks to the immutable link (Gitea adds it for every archive).
      return serveArchive(env, archive, repoApiUrl(env.settings, { owner: rc.owner.name, name: rc.repo.name }));
    },
  }),
];
