import { operation, Reply, type AnyOperation } from "../../../route.ts";
import { RepoParams, Repository } from "../../../../shapes/repo.ts";
import { TransferRepoOption } from "../../../../shapes/repo-social.ts";
import { toAPIUser } from "../../../../convert/user.ts";
import type { Doer, RepoPermission } from "../../../../services/access/permission.ts";
import {
  acceptTransfer,
  pendingTransferOf,
  rejectTransfer,
  startTransfer,
  transferAnswerPermission,
  type TransferOutcome,
} from "../../../../services/repo/transfer.ts";
import type { Env } from "../../../../services/env.ts";
import { repoJson } from "./context.ts";

/**
 * Repository JSON after a transfer step, with `repo_transfer` while one is pending (Gitea shows the
 * doer and recipient as an anonymous caller would see them, and the teams, none without organizations).
 */
function transferJson(env: Env, doer: Doer, out: TransferOutcome, perm: RepoPermission) {
  const json: Record<string, unknown> = repoJson(env, { repo: out.repo, owner: out.owner, perm }, doer);
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

/**
 * Answering a transfer: Gitea's reqToken after the repository was found; whether the doer is the
 * recipient is the transfer service's rule.
 */
const answer = { scope: "repository", signIn: false, repo: { doer: true } } as const;

export const transferOperations: AnyOperation[] = [
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/transfer",
    operationId: "repoTransfer",
    tag: "repository",
    summary: "Transfer a repo ownership",
    // Gitea's reqToken then reqOwner.
    access: { scope: "repository", signIn: false, repo: { owner: true } },
    params: RepoParams,
    body: TransferRepoOption,
    responses: { 201: Repository, 202: Repository },
    handler: (ctx) => {
      const { env, repo: rc, doer } = ctx;
      const body = ctx.body;
      const out = startTransfer(env, doer, rc, body.new_owner ?? "", body.team_ids ?? undefined);
      return new Reply(out.pending ? 201 : 202, transferJson(env, doer, out, transferAnswerPermission(out.repo)));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/transfer/accept",
    operationId: "acceptRepoTransfer",
    tag: "repository",
    summary: "Accept a repo transfer",
    access: answer,
    params: RepoParams,
    responses: { 202: Repository },
    handler: ({ env, repo: rc, doer }) => {
      const out = acceptTransfer(env, doer, rc);
      // As Gitea: the permission the caller had before accepting.
      return new Reply(202, transferJson(env, doer, out, rc.perm.withRepo(out.repo)));
    },
  }),
  operation({
    method: "POST",
    path: "/repos/:owner/:repo/transfer/reject",
    operationId: "rejectRepoTransfer",
    tag: "repository",
    summary: "Reject a repo transfer",
    access: answer,
    params: RepoParams,
    responses: { 200: Repository },
    handler: ({ env, repo: rc, doer }) => {
      const out = rejectTransfer(env, doer, rc);
      return transferJson(env, doer, out, rc.perm);
    },
  }),
];
