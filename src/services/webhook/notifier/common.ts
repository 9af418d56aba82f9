import type { Env } from "../../env.ts";
import type { RepoRow, UserRow } from "../../../db/schema/index.ts";
import type { HookEventType } from "../event-types.ts";
import type { PayloadCommit, PayloadUser } from "../payload-types.ts";
import type { PushedCommit } from "../../events/repo-events.ts";
import { fireEvent } from "../enqueue.ts";
import { anyHookWants, mayHaveHooks, payloadRepo, usernamesByEmail, type PayloadAccess, type PayloadRepo } from "../sources.ts";
import { toAPIRepo, repoLinks } from "../../../convert/repo.ts";
import { toAPIUser } from "../../../convert/user.ts";
import { gitTime } from "../../../convert/commit.ts";
import type { APIRepository } from "../../../shapes/repo.ts";

/** Gitea's convert.ToRepo of a payload, with a fork's parent rendered one level deep. */
export function repoJson(env: Env, repo: RepoRow, owner: UserRow, access: PayloadAccess): Record<string, unknown> {
  return convertRepo(env, payloadRepo(env, repo, owner, access));
}

function convertRepo(env: Env, view: PayloadRepo): APIRepository {
  const { parent, ...rest } = view;
  return toAPIRepo(env.settings, parent ? { ...rest, parent: convertRepo(env, parent) } : rest);
}

/** Gitea's convert.ToUser(ctx, user, nil): a user as an anonymous viewer sees them. */
export function userJson(env: Env, user: UserRow): Record<string, unknown> {
  return { ...toAPIUser(env.settings, user, undefined) };
}

/** Gitea's ToAPIPayloadCommits: each commit with its files and the accounts behind its emails. */
export function payloadCommits(env: Env, repo: RepoRow, owner: UserRow, commits: PushedCommit[]): PayloadCommit[] {
  const names = usernamesByEmail(env, commits.flatMap((c) => [c.commit.author.email, c.commit.committer.email]));
  const html = repoLinks(env.settings, owner.name, repo.name).html_url;
  const person = (s: { name: string; email: string }): PayloadUser => ({ name: s.name, email: s.email, username: names.get(s.email) ?? "" });
  return commits.map((c) => ({
    id: c.commit.oid,
    message: c.commit.message,
    url: `${html}/commit/${encodeURIComponent(c.commit.oid)}`,
    author: person(c.commit.author),
    committer: person(c.commit.committer),
    verification: null,
    timestamp: gitTime(c.commit.author),
    added: c.added,
    removed: c.removed,
    modified: c.modified,
  }));
}

/** A payload built for an event of a repository, with who caused it. */
export interface Delivery {
  event: HookEventType;
  payload: object;
  repo: RepoRow;
  owner: UserRow;
  /** What a hook's branch filter is matched against. */
  branch?: string;
  doer: UserRow;
}

/**
 * Who a notifier builds payloads for: the repository's webhooks, or Actions (which runs the
 * workflows the same payloads trigger). `wants` is asked before a payload (which may read git) is
 * built; `mayWant` before anything is read at all.
 */
export interface PayloadSink {
  mayWant(env: Env, repoId: number): boolean;
  wants(env: Env, repo: RepoRow, event: HookEventType, branch?: string): boolean;
  deliver(env: Env, d: Delivery): Promise<void>;
}

/** The webhooks' sink: every hook that wants the event gets it (fireEvent stores and queues it). */
export const webhookSink: PayloadSink = {
  mayWant: (env, repoId) => mayHaveHooks(env, repoId),
  wants: (env, repo, event, branch) => anyHookWants(env, repo, event, branch),
  deliver: (env, d) => fire(env, d.event, d.payload, d.repo, d.owner, d.branch),
};

/** Hands a built payload to the hooks of the repository and its owner (fireEvent stores and queues it). */
export async function fire(
  env: Env,
  event: HookEventType,
  payload: object,
  repo: RepoRow,
  owner: UserRow,
  branch?: string,
): Promise<void> {
  await fireEvent(env, { event, payload: payload as Record<string, unknown>, repo, owner, ...(branch !== undefined ? { branch } : {}) });
}
