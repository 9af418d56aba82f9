import * as v from "valibot";
import { operation, reply, Reply, type AnyOperation } from "../../../route.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import { InvalidTopicsError, RepoTopicOptions, TopicName, TopicParams, TopicSearchResults } from "../../../../shapes/repo-social.ts";
import {
  addRepoTopic,
  listRepoTopics,
  removeRepoTopic,
  replaceRepoTopics,
  searchTopics,
  type TopicProblem,
} from "../../../../services/repo/topics.ts";
import { toRFC3339 } from "../../../../lib/time.ts";
import { totalHeaders } from "./collaborators.ts";
import { Forbidden } from "../../../../lib/errors.ts";
import { permitsRepoAccess } from "../../../../services/access/repo-access.ts";

const NOT_ADMIN = "user should be an owner or a collaborator with admin write of a repository";

/** Listing them: Gitea's reqAnyRepoReader (the lookup already hides a repository the doer may not see). */
const read = { scope: "repository", signIn: false, repo: {} } as const;
/** Replacing them all: reqToken, then reqAdmin. */
const replace = { scope: "repository", signIn: false, repo: { admin: true } } as const;
/**
 * Adding or removing one: Gitea checks reqAdmin on the {topic} group before reqToken on the route,
 * so an anonymous caller gets the 403, not a 401. A declared `admin` asks for the doer first, so
 * these declare the repository alone and ask reqAdmin in the handler (permitsRepoAccess, which
 * also proves the check to the service); only a signed-in doer can
 * be an administrator, so the reqToken after it never refuses.
 */
const single = read;

/** Gitea answers refused topics with its own 422 body: `invalidTopics` and `message`, no `url`. */
function outcome(problem: TopicProblem | undefined): Reply<422, TopicProblem> | Reply<204> {
  return problem ? new Reply(422, problem) : reply.noContent();
}

export const topicOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/topics",
    operationId: "repoListTopics",
    tag: "repository",
    summary: "Get list of topics that a repository has",
    access: read,
    params: RepoParams,
    query: PageQuery,
    responses: { 200: TopicName },
    handler: (ctx) => {
      const { names, total } = listRepoTopics(ctx.env, ctx.repo.repo.id, ctx.page());
      return new Reply(200, { topics: names }, totalHeaders(total));
    },
  }),
  operation({
    method: "PUT",
    path: "/repos/:owner/:repo/topics",
    operationId: "repoUpdateTopics",
    tag: "repository",
    summary: "Replace list of topics for a repository",
    access: replace,
    params: RepoParams,
    body: RepoTopicOptions,
    responses: { 204: null, 422: InvalidTopicsError },
    handler: (ctx) => outcome(replaceRepoTopics(ctx.env, ctx.repo, ctx.body.topics ?? [])),
  }),
  operation({
    method: "PUT",
    path: "/repos/:owner/:repo/topics/:topic",
    operationId: "repoAddTopic",
    tag: "repository",
    summary: "Add a topic to a repository",
    access: single,
    params: TopicParams,
    responses: { 204: null, 422: InvalidTopicsError },
    handler: ({ env, repo: rc, doer, params }) => {
      if (!permitsRepoAccess(rc, doer, { admin: true })) throw new Forbidden(NOT_ADMIN);
      return outcome(addRepoTopic(env, rc, params.topic));
    },
  }),
  operation({
    method: "DELETE",
    path: "/repos/:owner/:repo/topics/:topic",
    operationId: "repoDeleteTopic",
    tag: "repository",
    summary: "Delete a topic from a repository",
    access: single,
    params: TopicParams,
    responses: { 204: null, 404: null, 422: InvalidTopicsError },
    handler: ({ env, repo: rc, doer, params }) => {
      if (!permitsRepoAccess(rc, doer, { admin: true })) throw new Forbidden(NOT_ADMIN);
      return outcome(removeRepoTopic(env, rc, params.topic));
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
