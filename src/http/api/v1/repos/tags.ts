import * as v from "valibot";
import { operation, reply, Reply } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import { AnnotatedTag, CreateTagOption, RepoWildcardParams, Tag } from "../../../../shapes/branch.ts";
import { createTag, deleteTag, getAnnotatedTag, getTag, listTags } from "../../../../services/repo/tags.ts";
import { toAPIAnnotatedTag, toAPITag } from "../../../../convert/tag.ts";
import { wildcard } from "./context.ts";

/** Reading tags: Gitea's reqRepoReader(Code). */
const read = { scope: "repository", signIn: false, repo: { read: "code" } } as const;
/** Creating and deleting them: reqRepoReader(Code), reqToken, reqRepoWriter(Code), mustNotBeArchived. */
const write = { scope: "repository", signIn: false, repo: { read: "code", write: "code", notArchived: true } } as const;

export const tagOperations = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/tags",
    operationId: "repoListTags",
    tag: "repository",
    summary: "List a repository's tags",
    access: read,
    params: RepoParams,
    query: PageQuery,
    responses: { 200: v.array(Tag) },
    handler: async ({ env, repo: rc, params, page }) => {
      const { items, total } = await listTags(env, rc, page());
      // Gitea sets only the total here, no Link header.
      return new Reply(
        200,
        items.map((t) => toAPITag(env.settings, rc, t)),
        { "X-Total-Count": String(total), "Access-Control-Expose-Headers": "X-Total-Count" },
      );
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/tags/*",
    wildcard: "tag",
    operationId: "repoGetTag",
    tag: "repository",
    summary: "Get the tag of a repository by tag name",
    access: read,
    params: RepoWildcardParams,
    responses: { 200: Tag },
    handler: async ({ env, repo: rc, params }) => {
      return toAPITag(env.settings, rc, await getTag(env, rc, wildcard(params)));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/tags",
    operationId: "repoCreateTag",
    tag: "repository",
    summary: "Create a new git tag in a repository",
    access: write,
    params: RepoParams,
    body: CreateTagOption,
    // Gitea answers 201 although its swagger says 200.
    responses: { 201: Tag },
    handler: async ({ env, repo: rc, doer, params, body }) => {
      const tag = await createTag(env, rc, doer, {
        tagName: body.tag_name ?? "",
        message: body.message,
        target: body.target,
      });
      return reply.created(toAPITag(env.settings, rc, tag));
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/tags/*",
    wildcard: "tag",
    operationId: "repoDeleteTag",
    tag: "repository",
    summary: "Delete a repository's tag by name",
    access: write,
    params: RepoWildcardParams,
    responses: { 204: null },
    handler: async ({ env, repo: rc, doer, params }) => {
      await deleteTag(env, rc, doer, wildcard(params));
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/git/tags/:sha",
    operationId: "GetAnnotatedTag",
    tag: "repository",
    summary: "Gets the tag object of an annotated tag (not lightweight tags)",
    access: read,
    params: v.object({ owner: v.string(), repo: v.string(), sha: v.string() }),
    responses: { 200: AnnotatedTag },
    handler: async ({ env, repo: rc, params }) => {
      return toAPIAnnotatedTag(env.settings, rc, await getAnnotatedTag(env, rc, params.sha));
    },
  }),
];
