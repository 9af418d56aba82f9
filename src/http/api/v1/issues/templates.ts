import * as v from "valibot";
import { operation, Reply, type AnyOperation } from "../../../route.ts";
import { RepoParams } from "../../../../shapes/repo.ts";
import { IssueConfig, IssueConfigValidation, IssueTemplate } from "../../../../shapes/issue-extras.ts";
import { toAPIIssueConfig, toAPIIssueTemplate } from "../../../../convert/issue-template.ts";
import { issueConfig, issueTemplates } from "../../../../services/issue/templates.ts";

/** Gitea serves these to anyone who can see the repository (no unit check), under the repository scope. */
const read = { scope: "repository", signIn: false, repo: {} } as const;

export const issueTemplateOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issue_templates",
    operationId: "repoGetIssueTemplates",
    tag: "repository",
    summary: "Get available issue templates for a repository",
    access: read,
    params: RepoParams,
    responses: { 200: v.array(IssueTemplate) },
    handler: async ({ env, repo }) => {
      const { templates, invalid } = await issueTemplates(env, repo);
      // Invalid files are not an error, only counted in a warning header, as Gitea does (which
      // answers `null` rather than `[]` when there is no template).
      const headers: Record<string, string> = invalid ? { "X-Gitea-Warning": `error occurs when parsing issue template: count=${invalid}` } : {};
      return new Reply(200, templates.map(toAPIIssueTemplate), headers);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issue_config",
    operationId: "repoGetIssueConfig",
    tag: "repository",
    summary: "Returns the issue config for a repo",
    access: read,
    params: RepoParams,
    responses: { 200: IssueConfig },
    handler: async ({ env, repo }) => {
      const { config } = await issueConfig(env, repo);
      return toAPIIssueConfig(config);
    },
  }),
  operation({
    method: "GET",
    path: "/repos/:owner/:repo/issue_config/validate",
    operationId: "repoValidateIssueConfig",
    tag: "repository",
    summary: "Returns the validation information for a issue config",
    access: read,
    params: RepoParams,
    responses: { 200: IssueConfigValidation },
    handler: async ({ env, repo }) => {
      const { error } = await issueConfig(env, repo);
      return { valid: error === undefined, message: error ?? "" };
    },
  }),
];
