import * as v from "valibot";
import { operation, Reply, type AnyOperation } from "../../../route.ts";
import { named } from "../../../../shapes/registry.ts";
import { maxString, opt, requiredString } from "../../../../shapes/common.ts";
import { Repository } from "../../../../shapes/repo.ts";
import { migrateRepo } from "../../../../services/migration/migrate.ts";
import { resolveRepoById } from "../../../../services/repo/lookup.ts";
import { repoJson } from "./context.ts";

/** Gitea's MigrateRepoOptions: clone_addr and repo_name required; the AWS keys belong to codecommit, which hearth does not speak. */
export const MigrateRepoOptions = named(
  "MigrateRepoOptions",
  v.object({
    clone_addr: requiredString(),
    repo_name: requiredString(100),
    repo_owner: opt(v.string()),
    uid: opt(v.number()),
    service: opt(v.string()),
    auth_username: opt(v.string()),
    auth_password: opt(v.string()),
    auth_token: opt(v.string()),
    aws_access_key_id: opt(v.string()),
    aws_secret_access_key: opt(v.string()),
    mirror: opt(v.boolean()),
    mirror_interval: opt(v.string()),
    private: opt(v.boolean()),
    description: opt(maxString(2048)),
    wiki: opt(v.boolean()),
    milestones: opt(v.boolean()),
    labels: opt(v.boolean()),
    issues: opt(v.boolean()),
    pull_requests: opt(v.boolean()),
    releases: opt(v.boolean()),
    lfs: opt(v.boolean()),
    lfs_endpoint: opt(v.string()),
  }),
);

export const migrateOperations: AnyOperation[] = [
  operation({
    method: "POST",
    path: "/repos/migrate",
    operationId: "repoMigrate",
    tag: "repository",
    summary: "Migrate a remote git repository",
    access: { scope: "repository", signIn: true },
    body: MigrateRepoOptions,
    responses: { 201: Repository },
    handler: async ({ env, doer, body: b }) => {
      const repo = await migrateRepo(env, {
        doer,
        ownerName: b.repo_owner ?? undefined,
        ownerId: b.uid ?? undefined,
        repoName: b.repo_name,
        service: b.service ?? "",
        cloneAddr: b.clone_addr,
        authUsername: b.auth_username ?? "",
        authPassword: b.auth_password ?? "",
        authToken: b.auth_token ?? "",
        mirror: b.mirror ?? false,
        mirrorInterval: b.mirror_interval ?? undefined,
        isPrivate: b.private ?? false,
        description: b.description ?? "",
        milestones: b.milestones ?? false,
        labels: b.labels ?? false,
        issues: b.issues ?? false,
        pullRequests: b.pull_requests ?? false,
        releases: b.releases ?? false,
      });
      return new Reply(201, repoJson(env, resolveRepoById(env, doer, repo.id), doer));
    },
  }),
];
