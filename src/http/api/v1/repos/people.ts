import * as v from "valibot";
import { operation, type AnyOperation } from "../../../route.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import { User } from "../../../../shapes/user.ts";
import { toAPIUser } from "../../../../convert/user.ts";
import { repoAssignees, repoReviewers } from "../../../../services/repo/people.ts";

/**
 * The people pickers: Gitea's reqToken (asked before the repository is looked up) and
 * reqAnyRepoReader (the lookup already hides a repository the doer may not see).
 */
const picker = { scope: "repository", signIn: true, repo: {} } as const;

export const peopleOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/assignees",
    operationId: "repoGetAssignees",
    tag: "repository",
    summary: "Return all users that have write access and can be assigned to issues",
    access: picker,
    params: RepoParams,
    responses: { 200: v.array(User) },
    handler: ({ env, repo: rc, doer }) => repoAssignees(env, rc).map((u) => toAPIUser(env.settings, u, doer)),
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/reviewers",
    operationId: "repoGetReviewers",
    tag: "repository",
    summary: "Return all users that can be requested to review in this repo",
    access: picker,
    params: RepoParams,
    responses: { 200: v.array(User) },
    handler: ({ env, repo: rc, doer }) => repoReviewers(env, rc).map((u) => toAPIUser(env.settings, u, doer)),
  }),
];
