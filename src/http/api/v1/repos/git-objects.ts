import * as v from "valibot";
import type { AnyOperation } from "../../../route.ts";
import { operation } from "../../../route.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import { GitBlobResponse, GitTreeResponse, Note, NoteQuery, TreeQuery, optionOn, parseGoBool, parseGoInt } from "../../../../shapes/commit.ts";
import { getNote } from "../../../../services/repo/commits.ts";
import { getBlob, getTree } from "../../../../services/repo/objects.ts";
import { toAPIBlob, toAPICommit, toAPITree } from "../../../../convert/commit.ts";
import { addressOf } from "./commits.ts";

const ShaParams = v.object({ ...RepoParams.entries, sha: v.string() });

/** Git objects are code: Gitea's reqRepoReader(Code) over the /git group. */
const read = { scope: "repository", signIn: false, repo: { read: "code" } } as const;

export const gitObjectOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/git/trees/:sha",
    operationId: "GetTree",
    tag: "repository",
    summary: "Gets the tree of a repository.",
    access: read,
    params: ShaParams,
    query: TreeQuery,
    responses: { 200: GitTreeResponse },
    handler: async ({ env, repo: rc, params, query }) => {
      const page = await getTree(env, rc, params.sha, {
        recursive: parseGoBool(query.recursive),
        page: parseGoInt(query.page),
        perPage: parseGoInt(query.per_page),
      });
      return toAPITree(addressOf(env, rc), page);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/git/blobs/:sha",
    operationId: "GetBlob",
    tag: "repository",
    summary: "Gets the blob of a repository.",
    access: read,
    params: ShaParams,
    responses: { 200: GitBlobResponse },
    handler: async ({ env, repo: rc, params }) => {
      return toAPIBlob(addressOf(env, rc), await getBlob(env, rc, params.sha));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/git/notes/:sha",
    operationId: "repoGetNote",
    tag: "repository",
    summary: "Get a note corresponding to a single commit from a repository",
    access: read,
    params: ShaParams,
    query: NoteQuery,
    responses: { 200: Note },
    handler: async ({ env, repo: rc, doer, params, query }) => {
      const note = await getNote(env, rc, params.sha, {
        files: optionOn(query.files),
        verification: optionOn(query.verification),
      });
      return { message: note.message, commit: toAPICommit(env.settings, addressOf(env, rc), note.commit, doer) };
    },
  }),
];
