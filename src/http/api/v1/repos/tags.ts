import * as v from "valibot";
import { operation, reply, Reply } from "../../../route.ts";
import { PageQuery } from "../../../schemas/common.ts";
import { RepoParams } from "../../../schemas/repo.ts";
import { AnnotatedTag, CreateTagOption, RepoWildcardParams, Tag } from "../../../schemas/branch.ts";
import { createTag, deleteTag, getAnnotatedTag, getTag, listTags } from "../../../../services/repo/tags.ts";
import { toAPIAnnotatedTag, toAPITag } from "../../../../convert/tag.ts";
import { requireCodeWriter } from "./branches.ts";
import { codeRepo, wildcard } from "./context.ts";

export const tagOperations = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/tags",
    operationId: "repoListTags",
    tag: "repository",
    summary: "List a repository's tags",
    access: { scope: "repository", signIn: false },
    params: RepoParams,
    query: PageQuery,
    responses: { 200: v.array(Tag) },
    handler: async ({ env, principal, params, url, page }) => {
      const rc = codeRepo(env, principal, url, params);
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
    access: { scope: "repository", signIn: false },
    params: RepoWildcardParams,
    responses: { 200: Tag },
    handler: async ({ env, principal, params, url }) => {
      const rc = codeRepo(env, principal, url, params);
      return toAPITag(env.settings, rc, await getTag(env, rc, wildcard(params)));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/tags",
    operationId: "repoCreateTag",
    tag: "repository",
    summary: "Create a new git tag in a repository",
    access: { scope: "repository", signIn: false },
    params: RepoParams,
    body: CreateTagOption,
    // Gitea answers 201 although its swagger says 200.
    responses: { 201: Tag },
    handler: async ({ env, principal, params, url, body }) => {
      const rc = codeRepo(env, principal, url, params);
      requireCodeWriter(rc, principal);
      const tag = await createTag(env, rc, principal.user, {
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
    access: { scope: "repository", signIn: false },
    params: RepoWildcardParams,
    responses: { 204: null },
    handler: async ({ env, principal, params, url }) => {
      const rc = codeRepo(env, principal, url, params);
      requireCodeWriter(rc, principal);
      await deleteTag(env, rc, principal.user, wildcard(params));
      return reply.noContent();
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/git/tags/:sha",
    operationId: "GetAnnotatedTag",
    tag: "repository",
    summary: "Gets the tag object of an annotated tag (not lightweight tags)",
    access: { scope: "repository", signIn: false },
    params: v.object({ owner: v.string(), repo: v.string(), sha: v.string() }),
    responses: { 200: AnnotatedTag },
    handler: async ({ env, principal, params, url }) => {
      const rc = codeRepo(env, principal, url, params);
      return toAPIAnnotatedTag(env.settings, rc, await getAnnotatedTag(env, rc, params.sha));
    },
  }),
];
