import { operation, Reply, type AnyOperation } from "../../../route.ts";
import { RepoParams, Repository } from "../../../schemas/repo.ts";
import { TransferRepoOption } from "../../../schemas/repo-social.ts";
import { toAPIUser } from "../../../../convert/user.ts";
import type { RepoPermission } from "../../../../services/access/permission.ts";
import {
  acceptTransfer,
  pendingTransferOf,
  rejectTransfer,
  startTransfer,
  transferAnswerPermission,
  type TransferOutcome,
} from "../../../../services/repo/transfer.ts";
import { Forbidden } from "../../../../lib/errors.ts";
import type { Env } from "../../../../services/env.ts";
import type { Principal } from "../../../../auth/principal.ts";
import { repoFromPath, repoJson } from "./context.ts";
import { requireToken } from "./collaborators.ts";

/**
 * Repository JSON after a transfer step, with `repo_transfer` while one is pending (Gitea shows the
 * doer and recipient as an anonymous caller would see them, and the teams, none without organizations).
 */
function transferJson(env: Env, principal: Principal, out: TransferOutcome, perm: RepoPermission) {
  const json: Record<string, unknown> = repoJson(env, { repo: out.repo, owner: out.owner, perm }, principal);
  const pending = pendingTransferOf(env, out.repo.id);
  // (Once toAPIRepo renders repo_transfer itself, this only fills it in where it is missing.)
  if (pending && json.repo_transfer === undefined) {
    json.repo_transfer = {
      doer: toAPIUser(env.settings, pending.doer, undefined),
      recipient: toAPIUser(env.settings, pending.recipient, undefined),
      teams: [],
    };
  }
  return json;
}

export const transferOperations: AnyOperation[] = [
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/transfer",
    operationId: "repoTransfer",
    tag: "repository",
    summary: "Transfer a repo ownership",
    access: { scope: "repository", signIn: false },
    params: RepoParams,
    body: TransferRepoOption,
    responses: { 201: Repository, 202: Repository },
    handler: (ctx) => {
      const { env, principal } = ctx;
      const rc = repoFromPath(env, principal, ctx.url, ctx.params);
      requireToken(principal);
      if (!rc.perm.isOwner()) throw new Forbidden("user should be the owner of the repo");
      const body = ctx.body;
      const out = startTransfer(env, principal.user, rc, body.new_owner ?? "", body.team_ids ?? undefined);
      return new Reply(out.pending ? 201 : 202, transferJson(env, principal, out, transferAnswerPermission(out.repo)));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/transfer/accept",
    operationId: "acceptRepoTransfer",
    tag: "repository",
    summary: "Accept a repo transfer",
    access: { scope: "repository", signIn: false },
    params: RepoParams,
    responses: { 202: Repository },
    handler: ({ env, principal, url, params }) => {
      const rc = repoFromPath(env, principal, url, params);
      requireToken(principal);
      const out = acceptTransfer(env, principal.user, rc);
      // As Gitea: the permission the caller had before accepting.
      return new Reply(202, transferJson(env, principal, out, rc.perm.withRepo(out.repo)));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/transfer/reject",
    operationId: "rejectRepoTransfer",
    tag: "repository",
    summary: "Reject a repo transfer",
    access: { scope: "repository", signIn: false },
    params: RepoParams,
    responses: { 200: Repository },
    handler: ({ env, principal, url, params }) => {
      const rc = repoFromPath(env, principal, url, params);
      requireToken(principal);
      const out = rejectTransfer(env, principal.user, rc);
      return transferJson(env, principal, out, rc.perm);
    },
  }),
];
