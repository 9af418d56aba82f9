import { operation, Reply, type AnyOperation } from "../../../route.ts";
import { RepoParams, Repository } from "../../../../shapes/repo.ts";
import { TransferRepoOption } from "../../../../shapes/repo-social.ts";
import type { Doer, RepoPermission } from "../../../../services/access/permission.ts";
import {
  acceptTransfer,
  rejectTransfer,
  startTransfer,
  transferAnswerPermission,
  type TransferOutcome,
} from "../../../../services/repo/transfer.ts";
import type { Env } from "../../../../services/env.ts";
import { repoJson } from "./context.ts";
import type { APIRepository } from "../../../../shapes/repo.ts";

/**
 * Repository JSON after a transfer step, with `repo_transfer` while one is pending (repoJson asks
 * for it; toAPIRepo renders it as Gitea does).
 */
function transferJson(env: Env, doer: Doer, out: TransferOutcome, perm: RepoPermission): APIRepository {
  return repoJson(env, { repo: out.repo, owner: out.owner, perm }, doer);
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
      const json = transferJson(env, doer, out, transferAnswerPermission(out.repo));
      return out.pending ? new Reply(201, json) : new Reply(202, json);
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
