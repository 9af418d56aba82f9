import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import { CreateTagProtectionOption, EditTagProtectionOption, TagProtection, TagProtectionParams } from "../../../../shapes/tag-protection.ts";
import {
  createTagProtection,
  deleteTagProtection,
  editTagProtection,
  getTagProtection,
  listTagProtections,
  tagAllowlistNames,
  type TagProtectionInput,
} from "../../../../services/protection/tag-manage.ts";
import type { ProtectedTagRule } from "../../../../services/protection/tag-rules.ts";
import type { RepoContext } from "../../../../services/repo/lookup.ts";
import type { Env } from "../../../../services/env.ts";
import { toAPITagProtection } from "../../../../convert/tag-protection.ts";

/**
 * Gitea's reqToken then reqAdmin on the whole group, after the repository was found. Create and
 * edit refuse an archived repository in the service, after the body was bound, as Gitea orders it.
 */
const admin = { scope: "repository", signIn: true, repo: { admin: true } } as const;

const json = (env: Env, rc: RepoContext, rule: ProtectedTagRule) => toAPITagProtection(rule, tagAllowlistNames(env, rc, rule));

const inputOf = (b: v.InferOutput<typeof EditTagProtectionOption>): TagProtectionInput => ({
  namePattern: b.name_pattern,
  whitelistUsernames: b.whitelist_usernames,
  whitelistTeams: b.whitelist_teams,
});

export const tagProtectionOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/tag_protections",
    operationId: "repoListTagProtection",
    tag: "repository",
    summary: "List tag protections for a repository",
    access: admin,
    params: RepoParams,
    responses: { 200: v.array(TagProtection) },
    handler: ({ env, repo: rc }) => {
      return listTagProtections(env, rc).map((r) => json(env, rc, r));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/tag_protections",
    operationId: "repoCreateTagProtection",
    tag: "repository",
    summary: "Create a tag protections for a repository",
    access: admin,
    params: RepoParams,
    body: CreateTagProtectionOption,
    responses: { 201: TagProtection },
    handler: ({ env, repo: rc, body }) => {
      return reply.created(json(env, rc, createTagProtection(env, rc, inputOf(body))));
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/tag_protections/:id",
    operationId: "repoGetTagProtection",
    tag: "repository",
    summary: "Get a specific tag protection for the repository",
    access: admin,
    params: TagProtectionParams,
    responses: { 200: TagProtection },
    handler: ({ env, repo: rc, params }) => {
      return json(env, rc, getTagProtection(env, rc, params.id));
    },
  }),
  operation({
    method: "PATCH",
    path: "/repos/:owner/:repo/tag_protections/:id",
    operationId: "repoEditTagProtection",
    tag: "repository",
    summary: "Edit a tag protections for a repository. Only fields that are set will be changed",
    access: admin,
    params: TagProtectionParams,
    body: EditTagProtectionOption,
    responses: { 200: TagProtection },
    handler: ({ env, repo: rc, params, body }) => {
      return json(env, rc, editTagProtection(env, rc, params.id, inputOf(body)));
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/tag_protections/:id",
    operationId: "repoDeleteTagProtection",
    tag: "repository",
    summary: "Delete a specific tag protection for the repository",
    access: admin,
    params: TagProtectionParams,
    responses: { 204: null },
    handler: ({ env, repo: rc, params }) => {
      deleteTagProtection(env, rc, params.id);
      return reply.noContent();
    },
  }),
];
