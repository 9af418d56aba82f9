import * as v from "valibot";
import type { AnyOperation } from "../../../route.ts";
import { operation } from "../../../route.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import { Compare, EditorConfigDefinition, LanguageStatistics, NoteQuery, RefQuery, optionOn } from "../../../../shapes/commit.ts";
import { compareCommits } from "../../../../services/repo/commits.ts";
import { editorConfigFor, repoLanguages } from "../../../../services/repo/objects.ts";
import { toAPICommit } from "../../../../convert/commit.ts";
import { addressOf } from "./commits.ts";

/** The wildcard arrives still percent-encoded; a malformed escape is kept as written. */
function decodePath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Comparing, languages and EditorConfig read the code: Gitea's reqRepoReader(Code). */
const read = { scope: "repository", signIn: false, repo: { read: "code" } } as const;

export const compareOperations: AnyOperation[] = [
  operation({
    method: "GET",
    // Gitea routes `/compare/*`: branch names keep their slashes (`main...feature/x`).
    path: "/repos/:owner/:repo/compare/*",
    operationId: "repoCompareDiff",
    tag: "repository",
    summary: "Get commit comparison information",
    access: read,
    params: v.object({ ...RepoParams.entries, "*": v.string() }),
    query: NoteQuery,
    responses: { 200: Compare },
    handler: async ({ env, repo: rc, doer, params, query }) => {
      const result = await compareCommits(env, rc, decodePath(params["*"]), {
        files: optionOn(query.files),
        verification: optionOn(query.verification),
      });
      const address = addressOf(env, rc);
      return {
        total_commits: result.commits.length,
        commits: result.commits.map((c) => toAPICommit(env.settings, address, c, doer)),
      };
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/languages",
    operationId: "repoGetLanguages",
    tag: "repository",
    summary: "Get languages and number of bytes of code written",
    access: read,
    params: RepoParams,
    responses: { 200: LanguageStatistics },
    handler: async ({ env, repo: rc }) => {
      return Object.fromEntries(await repoLanguages(env, rc));
    },
  }),
  operation({
    method: "GET",
    // Gitea routes `/editorconfig/{filename}`: one path segment, a nested path is sent as %2F.
    path: "/repos/:owner/:repo/editorconfig/:filepath",
    operationId: "repoGetEditorConfig",
    tag: "repository",
    summary: "Get the EditorConfig definitions of a file in a repository",
    access: read,
    params: v.object({ ...RepoParams.entries, filepath: v.string() }),
    query: RefQuery,
    responses: { 200: EditorConfigDefinition },
    handler: async ({ env, repo: rc, params, query }) => {
      return editorConfigFor(env, rc, params.filepath, query.ref);
    },
  }),
];
