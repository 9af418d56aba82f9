import * as v from "valibot";
import { operation, reply, Reply } from "../../../route.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import {
  ChangeFilesOptions,
  ContentsResponse,
  CreateFileOptions,
  DeleteFileOptions,
  FileDeleteResponse,
  FileResponse,
  FilesResponse,
  RefQuery,
  RepoFileParams,
  UpdateFileOptions,
} from "../../../../shapes/content.ts";
import { changeFiles, getContents, type ChangeFilesInput, type FileChange } from "../../../../services/repo/contents.ts";
import { toContentsResponse, toFileDeleteResponse, toFileResponse, toFilesResponse, type RepoNames } from "../../../../convert/content.ts";
import type { APIContentsResponse } from "../../../../shapes/content.ts";
import { Invalid } from "../../../../lib/errors.ts";
import type { Env } from "../../../../services/env.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import { wildcard } from "./context.ts";

const names = (rc: RepoContext): RepoNames => ({ owner: rc.owner.name, name: rc.repo.name });

/** Reading contents: Gitea's reqRepoReader(Code) over /contents. */
const read = { scope: "repository", signIn: false, repo: { read: "code" } } as const;
/**
 * Changing files: reqRepoReader(Code), then Gitea 1.25's mustEnableEditor (423 "repo is not
 * allowed to edit", before sign-in), reqToken and reqRepoWriter(Code).
 */
const edit = { scope: "repository", signIn: false, repo: { read: "code", notArchived: "editor", write: "code" } } as const;

/** A file's entry, or a directory's entries. */
async function contentsReply(env: Env, rc: RepoContext, path: string, ref?: string): Promise<APIContentsResponse | APIContentsResponse[]> {
  const result = await getContents(env, rc, path, ref);
  if ("file" in result) return toContentsResponse(env.settings, names(rc), result.ref, result.file);
  return result.dir.map((e) => toContentsResponse(env.settings, names(rc), result.ref, e));
}

type CommonBody = v.InferOutput<typeof CreateFileOptions>;

/** The FileOptions every change shares, as the service takes them. */
function common(body: Omit<CommonBody, "content">): Omit<ChangeFilesInput, "files"> {
  return {
    message: body.message ?? undefined,
    branch: body.branch ?? undefined,
    newBranch: body.new_branch ?? undefined,
    forcePush: body.force_push ?? undefined,
    author: body.author ? { name: body.author.name ?? undefined, email: body.author.email ?? undefined } : undefined,
    committer: body.committer ? { name: body.committer.name ?? undefined, email: body.committer.email ?? undefined } : undefined,
    dates: body.dates ?? undefined,
    signoff: body.signoff ?? undefined,
  };
}

export const contentOperations = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/contents",
    operationId: "repoGetContentsList",
    tag: "repository",
    summary: "Gets the metadata of all the entries of the root dir.",
    access: read,
    params: RepoParams,
    query: RefQuery,
    responses: { 200: v.array(ContentsResponse) },
    // The root is a directory, so this is always the list.
    handler: async ({ env, repo: rc, query }) => {
      const entries = await contentsReply(env, rc, "", query.ref);
      return Array.isArray(entries) ? entries : [entries];
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/contents/*",
    wildcard: "filepath",
    operationId: "repoGetContents",
    tag: "repository",
    summary: "Gets the metadata and contents (if a file) of an entry in a repository, or a list of entries if a dir.",
    access: read,
    params: RepoFileParams,
    query: RefQuery,
    responses: { 200: ContentsResponse },
    // Gitea answers a directory with the list of its entries, which its document (ours is the
    // same) does not say: the one handler whose result is wider than its declared response.
    handler: async ({ env, repo: rc, params, query }) =>
      (await contentsReply(env, rc, wildcard(params), query.ref)) as APIContentsResponse,
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/contents",
    operationId: "repoChangeFiles",
    tag: "repository",
    summary: "Modify multiple files in a repository",
    access: edit,
    params: RepoParams,
    body: ChangeFilesOptions,
    responses: { 201: FilesResponse },
    handler: async ({ env, repo: rc, doer, body }) => {
      const files: FileChange[] = body.files.map((f) => ({
        operation: f.operation,
        path: f.path,
        fromPath: f.from_path ?? undefined,
        contentBase64: f.content ?? undefined,
        sha: f.sha ?? undefined,
      }));
      const result = await changeFiles(env, rc, doer, { ...common(body), files });
      return reply.created(toFilesResponse(env.settings, names(rc), result));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/contents/*",
    wildcard: "filepath",
    operationId: "repoCreateFile",
    tag: "repository",
    summary: "Create a file in a repository",
    access: edit,
    params: RepoFileParams,
    body: CreateFileOptions,
    responses: { 201: FileResponse },
    handler: async ({ env, repo: rc, doer, params, body }) => {
      if (!body.content) throw new Invalid("[ContentBase64]: Required");
      const files: FileChange[] = [{ operation: "create", path: wildcard(params), contentBase64: body.content }];
      const result = await changeFiles(env, rc, doer, { ...common(body), files });
      return reply.created(toFileResponse(env.settings, names(rc), result));
    },
  }),
  operation({
    method: "PUT",
    path: "/repos/:owner/:repo/contents/*",
    wildcard: "filepath",
    operationId: "repoUpdateFile",
    tag: "repository",
    summary: "Update a file in a repository if SHA is set, or create the file if SHA is not set",
    access: edit,
    params: RepoFileParams,
    body: UpdateFileOptions,
    responses: { 200: FileResponse, 201: FileResponse },
    handler: async ({ env, repo: rc, doer, params, body }) => {
      if (!body.content) throw new Invalid("[ContentBase64]: Required");
      const willCreate = !body.sha;
      const files: FileChange[] = [
        {
          operation: willCreate ? "create" : "update",
          path: wildcard(params),
          fromPath: body.from_path ?? undefined,
          contentBase64: body.content,
          sha: body.sha ?? undefined,
        },
      ];
      const result = await changeFiles(env, rc, doer, { ...common(body), files });
      return new Reply(willCreate ? 201 : 200, toFileResponse(env.settings, names(rc), result));
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/contents/*",
    wildcard: "filepath",
    operationId: "repoDeleteFile",
    tag: "repository",
    summary: "Delete a file in a repository",
    access: edit,
    params: RepoFileParams,
    body: DeleteFileOptions,
    responses: { 200: FileDeleteResponse },
    handler: async ({ env, repo: rc, doer, params, body }) => {
      if (!body.sha) throw new Invalid("[SHA]: Required");
      const files: FileChange[] = [{ operation: "delete", path: wildcard(params), sha: body.sha }];
      const result = await changeFiles(env, rc, doer, { ...common(body), files });
      return toFileDeleteResponse(env.settings, names(rc), result);
    },
  }),
];
