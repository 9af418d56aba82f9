import { createHash } from "node:crypto";
import type { Env } from "../env.ts";
import type { CommitStatusRow, UserRow } from "../../db/schema/index.ts";
import { writeTx } from "../../db/client.ts";
import * as statusModel from "../../models/commit-status.ts";
import { nowUnix } from "../../lib/time.ts";
import { accountById } from "../user/profile.ts";
import type { RepoContext } from "../repo/lookup.ts";
import { commitOfRef, commitOfStatusInput } from "./resolve.ts";
import { commitStatusEvents } from "./events.ts";
import type { Writes } from "../access/repo-access.ts";
import type { Doer } from "../access/permission.ts";

export interface CreateStatusInput {
  state: string;
  targetUrl?: string;
  description?: string;
  context?: string;
}

/** Gitea's hashCommitStatusContext: statuses are grouped per context by this hash. */
export const contextHash = (context: string): string => createHash("sha1").update(context).digest("hex");

/**
 * Gitea's CreateCommitStatus: resolves the input to the full commit id, stores the status with
 * the next index of that commit (text fields trimmed), announcing it in the same transaction.
 */
export async function createCommitStatus(env: Env, rc: Writes<"code">, doer: Doer, input: string, opts: CreateStatusInput): Promise<CommitStatusRow> {
  const sha = await commitOfStatusInput(env, rc, input);
  // An empty context is GitHub's and Gitea's clients' "default" context.
  const context = (opts.context ?? "").trim() || "default";
  const now = nowUnix();
  return writeTx(env.db, (tx) => {
    const row = statusModel.insertCommitStatus(tx, {
      repoId: rc.repo.id,
      state: opts.state,
      sha,
      targetUrl: (opts.targetUrl ?? "").trim(),
      description: (opts.description ?? "").trim(),
      context,
      contextHash: contextHash(context),
      creatorId: doer.id,
      createdUnix: now,
      updatedUnix: now,
    });
    commitStatusEvents.emit(tx, env, { repoId: rc.repo.id, sha, status: row });
    return row;
  });
}

/**
 * A status hearth sets itself (Actions' per-job statuses, created by the Actions bot): no request
 * and no checked context stand behind it. `sha` is a full commit id of the repository.
 */
export function createSystemCommitStatus(env: Env, repoId: number, creatorId: number, sha: string, opts: Required<CreateStatusInput>): CommitStatusRow {
  const now = nowUnix();
  return writeTx(env.db, (tx) => {
    const row = statusModel.insertCommitStatus(tx, {
      repoId,
      state: opts.state,
      sha,
      targetUrl: opts.targetUrl,
      description: opts.description,
      context: opts.context,
      contextHash: contextHash(opts.context),
      creatorId,
      createdUnix: now,
      updatedUnix: now,
    });
    commitStatusEvents.emit(tx, env, { repoId, sha, status: row });
    return row;
  });
}

export interface StatusListQuery {
  sort?: string;
  state?: string;
}

const SORTS = new Set(["oldest", "recentupdate", "leastupdate", "leastindex", "highestindex"]);
/** Gitea filters by these states only; any other value (skipped included) lists every status. */
const FILTER_STATES = new Set(["pending", "success", "error", "failure", "warning"]);

function listOf(env: Env, rc: RepoContext, sha: string, q: StatusListQuery, page: { limit: number; offset: number }) {
  const sort = (q.sort ?? "").trim();
  const state = (q.state ?? "").trim();
  return statusModel.listCommitStatuses(
    env.db,
    rc.repo.id,
    sha,
    { sort: (SORTS.has(sort) ? sort : "") as statusModel.StatusSort, state: FILTER_STATES.has(state) ? state : undefined },
    page,
  );
}

/**
 * `GET /statuses/{sha}`: the statuses stored against exactly that commit id. Since Gitea 1.24
 * (go-gitea/gitea#34139) nothing is resolved here, so an abbreviated id or a branch name lists
 * nothing; `GET /commits/{ref}/statuses` is the way to name a commit by ref.
 */
export function listStatusesOfSha(env: Env, rc: RepoContext, sha: string, q: StatusListQuery, page: { limit: number; offset: number }) {
  return listOf(env, rc, sha, q, page);
}

/** `GET /commits/{ref}/statuses`: 404 for a ref that names no commit. */
export async function listStatusesOfRef(env: Env, rc: RepoContext, ref: string, q: StatusListQuery, page: { limit: number; offset: number }) {
  return listOf(env, rc, await commitOfRef(env, rc, ref), q, page);
}

/** `GET /commits/{ref}/status`: the commit, its latest status per context (paged) and the context count. */
export async function combinedStatusOfRef(env: Env, rc: RepoContext, ref: string, page: { limit: number; offset: number }) {
  const sha = await commitOfRef(env, rc, ref);
  const rows = statusModel.latestCommitStatuses(env.db, rc.repo.id, sha, page);
  const total = statusModel.countLatestCommitStatuses(env.db, rc.repo.id, sha);
  return { sha, rows, total };
}

/** The users who created these statuses, by id, for the JSON's `creator`. */
export function statusCreators(env: Env, rows: CommitStatusRow[]): Map<number, UserRow> {
  const out = new Map<number, UserRow>();
  for (const id of new Set(rows.map((r) => r.creatorId))) {
    const u = accountById(env.db, id);
    if (u) out.set(id, u);
  }
  return out;
}
