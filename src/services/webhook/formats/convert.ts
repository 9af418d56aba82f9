/**
 * Gitea's payloadConvertor (services/webhook/payloader.go): a hook type turns each kind of Gitea
 * payload into its own message, and newPayload picks the method by the event type.
 */
import type { HookEventType } from "../event-types.ts";
import type {
  CommitStatusPayload,
  CreatePayload,
  DeletePayload,
  ForkPayload,
  IssueCommentPayload,
  IssuePayload,
  PackagePayload,
  PullRequestPayload,
  PushPayload,
  ReleasePayload,
  RepositoryPayload,
  WikiPayload,
} from "./payload-shapes.ts";

export interface Convertor<T> {
  create(p: CreatePayload): T;
  delete(p: DeletePayload): T;
  fork(p: ForkPayload): T;
  issue(p: IssuePayload): T;
  issueComment(p: IssueCommentPayload): T;
  push(p: PushPayload): T;
  pullRequest(p: PullRequestPayload): T;
  review(p: PullRequestPayload, event: HookEventType): T;
  repository(p: RepositoryPayload): T;
  release(p: ReleasePayload): T;
  wiki(p: WikiPayload): T;
  package(p: PackagePayload): T;
  status(p: CommitStatusPayload): T;
}

/** An event a hook type has no message for (Gitea fails such a delivery with "newPayload unsupported event"). */
export class UnsupportedEventError extends Error {
  constructor(event: string) {
    super(`newPayload unsupported event: ${event}`);
    this.name = "UnsupportedEventError";
  }
}

/** Gitea's newPayload: the stored payload of `event` through the convertor's matching method. */
export function convertPayload<T>(c: Convertor<T>, event: HookEventType, payload: Record<string, unknown>): T {
  // The payload was built for this event type by the event's builder, so its shape is the event's.
  const p = payload as never;
  switch (event) {
    case "create":
      return c.create(p);
    case "delete":
      return c.delete(p);
    case "fork":
      return c.fork(p);
    case "issues":
    case "issue_assign":
    case "issue_label":
    case "issue_milestone":
      return c.issue(p);
    case "issue_comment":
    case "pull_request_comment":
      return c.issueComment(p);
    case "push":
      return c.push(p);
    case "pull_request":
    case "pull_request_assign":
    case "pull_request_label":
    case "pull_request_milestone":
    case "pull_request_sync":
    case "pull_request_review_request":
      return c.pullRequest(p);
    case "pull_request_review_approved":
    case "pull_request_review_rejected":
    case "pull_request_review_comment":
      return c.review(p, event);
    case "repository":
      return c.repository(p);
    case "release":
      return c.release(p);
    case "wiki":
      return c.wiki(p);
    case "package":
      return c.package(p);
    case "status":
      return c.status(p);
    case "workflow_run":
    case "workflow_job":
      // Gitea's chat types have no message for Actions' events: the delivery fails, and is not retried.
      throw new UnsupportedEventError(event);
  }
}

/** A hook's `meta` column as an object: "" (hooks made through the API) or bad JSON read as no settings. */
export function parseMeta(meta: string): Record<string, unknown> {
  if (!meta) return {};
  try {
    const parsed: unknown = JSON.parse(meta);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export const metaString = (meta: Record<string, unknown>, key: string): string => {
  const v = meta[key];
  return typeof v === "string" ? v : "";
};
