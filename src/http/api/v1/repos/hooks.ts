import * as v from "valibot";
import { operation, reply, type AnyOperation } from "../../../route.ts";
import { RepoHookParams } from "../../../../shapes/hook.ts";
import { RepoPermission, type Doer } from "../../../../services/access/permission.ts";
import type { AccessModeValue } from "../../../../db/schema/index.ts";
import type { Env } from "../../../../services/env.ts";
import { repoTopics, type RepoContext } from "../../../../services/repo/lookup.ts";
import { getBranch } from "../../../../services/repo/branches.ts";
import { hookIdOf, requireHook } from "../../../../services/webhook/hooks.ts";
import { testHook } from "../../../../services/webhook/deliveries.ts";
import { toAPIRepo, repoLinks } from "../../../../convert/repo.ts";
import { toPayloadCommit } from "../../../../convert/branch.ts";
import { toAPIUserWithAccess } from "../../../../convert/user.ts";
import { hookCrudOperations, hookDeliveryOperations, hookListOperation, type HookLevel } from "../hook-routes.ts";

/** Gitea's reqToken then reqAdmin on the hooks group, after the repository was found (hearth asks for the sign-in first). */
const admin = { scope: "repository", signIn: true, repo: { admin: true } } as const;

const level: HookLevel<typeof admin> = {
  name: "repo",
  path: "/repos/:owner/:repo/hooks",
  tag: "repository",
  summaryOwner: "a repository",
  access: admin,
  params: { owner: v.string(), repo: v.string() },
  // The repository, checked for an administrator by the declaration.
  owner: ({ repo }) => ({ repo }),
};

const BRANCH_PREFIX = "refs/heads/";

/**
 * Gitea's TestHook: a push payload of the branch's head commit (query `ref`, default the default
 * branch; before = after = that commit), sent to this hook alone. An empty repository sends
 * nothing, as Gitea's handler does when there is no commit.
 */
async function sendTestPush(env: Env, doer: Doer, rc: RepoContext, hookId: string, ref: string | undefined): Promise<void> {
  if (rc.repo.isEmpty) return;
  const fullRef = ref?.trim() || BRANCH_PREFIX + rc.repo.defaultBranch;
  const branchName = fullRef.startsWith(BRANCH_PREFIX) ? fullRef.slice(BRANCH_PREFIX.length) : fullRef;
  const branch = await getBranch(env, rc, branchName);
  const hook = requireHook(env, { repoId: rc.repo.id }, hookIdOf(hookId));
  const commit = toPayloadCommit(env.settings, rc, branch);
  // The payload carries no one's permission: Gitea converts with AccessModeNone (0).
  const none = new RepoPermission(0 as AccessModeValue, rc.repo);
  const sender = toAPIUserWithAccess(env.settings, doer, false);
  const sha = branch.commit.id;
  const payload = {
    ref: fullRef,
    before: sha,
    after: sha,
    compare_url: `${repoLinks(env.settings, rc.owner.name, rc.repo.name).html_url}/compare/${sha}...${sha}`,
    commits: [commit],
    total_commits: 1,
    head_commit: commit,
    repository: toAPIRepo(env.settings, { repo: rc.repo, owner: rc.owner, perm: none, topics: repoTopics(env, rc.repo.id) }),
    pusher: sender,
    sender,
  };
  testHook(env, hook, payload, branch.name);
}

export const repoHookOperations: AnyOperation[] = [
  hookListOperation(level),
  ...hookCrudOperations(level),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/hooks/:id/tests",
    operationId: "repoTestHook",
    tag: "repository",
    summary: "Test a push webhook",
    access: admin,
    params: RepoHookParams,
    query: v.object({ ref: v.optional(v.string()) }),
    responses: { 204: null },
    handler: async ({ env, repo: rc, doer, params, query }) => {
      await sendTestPush(env, doer, rc, params.id, query.ref);
      return reply.noContent();
    },
  }),
  ...hookDeliveryOperations(level),
];
