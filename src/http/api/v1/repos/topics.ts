import * as v from "valibot";
import { operation, reply, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../schemas/common.ts";
import { RepoParams } from "../../../schemas/repo.ts";
import { InvalidTopicsError, RepoTopicOptions, TopicName, TopicParams, TopicSearchResults } from "../../../schemas/repo-social.ts";
import {
  addRepoTopic,
  listRepoTopics,
  removeRepoTopic,
  replaceRepoTopics,
  searchTopics,
  type TopicProblem,
} from "../../../../services/repo/topics.ts";
import { toRFC3339 } from "../../../../lib/time.ts";
import { repoFromPath } from "./context.ts";
import { requireRepoAdmin } from "./repo.ts";
import { requireToken, totalHeaders } from "./collaborators.ts";
import { Forbidden } from "../../../../lib/errors.ts";

const NOT_ADMIN = "user should be an owner or a collaborator with admin write of a repository";

/** Gitea answers refused topics with its own 422 body: `invalidTopics` and `message`, no `url`. */
function outcome(problem: TopicProblem | undefined): Reply {
  return problem ? new Reply(422, problem) : reply.noContent();
}

export const topicOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/topics",
    operationId: "repoListTopics",
    tag: "repository",
    summary: "Get list of topics that a repository has",
    access: { scope: "repository", signIn: false },
    params: RepoParams,
    query: PageQuery,
    responses: { 200: TopicName },
    handler: (ctx) => {
      const rc = repoFromPath(ctx.env, ctx.principal, ctx.url, ctx.params);
      const { names, total } = listRepoTopics(ctx.env, rc.repo.id, ctx.page());
      return new Reply(200, { topics: names }, totalHeaders(total));
    },
  }),
  operation({
    method: "PUT",
    path: "/repos/:owner/:repo/topics",
    operationId: "repoUpdateTopics",
    tag: "repository",
    summary: "Replace list of topics for a repository",
    access: { scope: "repository", signIn: false },
    params: RepoParams,
    body: RepoTopicOptions,
    responses: { 204: null, 422: InvalidTopicsError },
    handler: (ctx) => {
      const rc = repoFromPath(ctx.env, ctx.principal, ctx.url, ctx.params);
      requireRepoAdmin(ctx.principal, rc.perm.isAdmin());
      return outcome(replaceRepoTopics(ctx.env, rc.repo.id, ctx.body.topics ?? []));
    },
  }),
  operation({
    method: "PUT",
    path: "/repos/:owner/:repo/topics/:topic",
    operationId: "repoAddTopic",
    tag: "repository",
    summary: "Add a topic to a repository",
    access: { scope: "repository", signIn: false },
    params: TopicParams,
    responses: { 204: null, 422: InvalidTopicsError },
    handler: ({ env, principal, url, params }) => {
      const rc = repoFromPath(env, principal, url, params);
      // Gitea checks reqAdmin on the {topic} group before reqToken on the route.
      if (!rc.perm.isAdmin()) throw new Forbidden(NOT_ADMIN);
      requireToken(principal);
      return outcome(addRepoTopic(env, rc.repo.id, params.topic));
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/topics/:topic",
    operationId: "repoDeleteTopic",
    tag: "repository",
    summary: "Delete a topic from a repository",
    access: { scope: "repository", signIn: false },
    params: TopicParams,
    responses: { 204: null, 404: null, 422: InvalidTopicsError },
    handler: ({ env, principal, url, params }) => {
      const rc = repoFromPath(env, principal, url, params);
      if (!rc.perm.isAdmin()) throw new Forbidden(NOT_ADMIN);
      requireToken(principal);
      return outcome(removeRepoTopic(env, rc.repo.id, params.topic));
    },
  }),
  operation({
    method: "GET",
    path: "/topics/search",
    operationId: "topicSearch",
    tag: "repository",
    summary: "search topics via keyword",
    access: { scope: "repository", signIn: false },
    query: v.object({ ...PageQuery.entries, q: v.optional(v.string()) }),
    responses: { 200: TopicSearchResults },
    handler: (ctx) => {
      const { rows, total } = searchTopics(ctx.env, ctx.query.q ?? "", ctx.page());
      const topics = rows.map((t) => ({
        id: t.id,
        topic_name: t.name,
        repo_count: t.repoCount,
        // hearth keeps no topic table yet: no creation or update time to show.
        created: toRFC3339(0),
        updated: toRFC3339(0),
      }));
      return new Reply(200, { topics }, totalHeaders(total));
    },
  }),
];
