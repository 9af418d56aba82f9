import { createHmac } from "node:crypto";
import type { Env } from "../env.ts";
import { HookContentType, HookStatus, UserType, type HookTaskRow, type WebhookRow } from "../../db/schema/index.ts";
import { writeTx } from "../../db/client.ts";
import { getHookTaskById, getWebhookById, recordAttempt, type AttemptRecord } from "../../models/hook-tasks.ts";
import { getUserById } from "../../models/user.ts";
import { compileGlob } from "../../lib/glob.ts";
import { HostMatchList } from "../../outbound/host-matcher.ts";
import { OutboundRefused, OutboundUnusable, outboundFetch, type OutboundPolicy, type OutboundResponse } from "../../outbound/request.ts";
import type { Job, JobResult } from "../../queue/work-queue.ts";
import type { HookEventType } from "./event-types.ts";
import { formatDelivery } from "./formats/index.ts";
import { UnsupportedEventError } from "./formats/convert.ts";
import { openAuthorization } from "./auth-header.ts";
import { requeueDeferred, type DeliveryItem } from "./enqueue.ts";
import { MAX_BACKOFF_MS } from "./delivery-queue.ts";

/**
 * One delivery attempt of a hook task, as Gitea's Deliver makes it (services/webhook/deliver.go):
 * the hook type's request, Gitea's headers and signatures, the hook's Authorization header, and
 * the outcome recorded on the task, as an attempt, and as the hook's last status. Unlike Gitea,
 * a failed attempt is retried with backoff (network errors, timeouts, 5xx, 429).
 */

/** Gitea's HookEventType.Event(): the name in X-Gitea-Event, grouping sub-events. */
export function eventHeader(event: HookEventType): string {
  switch (event) {
    case "issues":
    case "issue_assign":
    case "issue_label":
    case "issue_milestone":
      return "issues";
    case "pull_request":
    case "pull_request_assign":
    case "pull_request_label":
    case "pull_request_milestone":
    case "pull_request_sync":
    case "pull_request_review_request":
      return "pull_request";
    case "issue_comment":
    case "pull_request_comment":
      return "issue_comment";
    case "pull_request_review_approved":
      return "pull_request_approved";
    case "pull_request_review_rejected":
      return "pull_request_rejected";
    case "pull_request_review_comment":
      return "pull_request_comment";
    default:
      return event;
  }
}

/** Where the hook is defined, for X-Gitea-Hook-Installation-Target-Type. */
function installationTarget(env: Env, hook: WebhookRow): string {
  if (hook.repoId !== 0) return "repository";
  if (hook.ownerId !== 0) return getUserById(env.db, hook.ownerId)?.type === UserType.Organization ? "organization" : "user";
  return hook.isSystemWebhook ? "system" : "repository";
}

const hmacHex = (algo: "sha1" | "sha256", secret: string, content: string) =>
  secret ? createHmac(algo, secret).update(content).digest("hex") : "";

/** The hook's settings do not make a request (Gitea's "cannot create http request"). */
class RequestError extends Error {}

export interface BuiltRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** What Gitea records as the request body (for gitea/gogs hooks the payload JSON, even sent as a form). */
  recordedBody: string;
}

/** The request of one attempt, without the Authorization header (added, never recorded, at send time). */
export function buildRequest(env: Env, hook: WebhookRow, task: HookTaskRow): BuiltRequest {
  const event = task.eventType as HookEventType;
  let url: string;
  let method: string;
  let body: string | undefined;
  let signed: string;
  const headers: Record<string, string> = {};
  if (hook.type === "gitea" || hook.type === "gogs") {
    // Gitea's newDefaultRequest: the stored payload as JSON or as a `payload` form field, or in the
    // query string for GET; the signatures are over the payload JSON in every case.
    signed = task.payloadContent;
    method = (hook.httpMethod || "POST").toUpperCase();
    if (method === "POST") {
      url = hook.url;
      if (hook.contentType === HookContentType.Form) {
        body = new URLSearchParams({ payload: task.payloadContent }).toString();
        headers["Content-Type"] = "application/x-www-form-urlencoded";
      } else {
        body = task.payloadContent;
        headers["Content-Type"] = "application/json";
      }
    } else if (method === "GET") {
      let u: URL;
      try {
        u = new URL(hook.url);
      } catch {
        throw new RequestError(`invalid URL: ${hook.url}`);
      }
      u.searchParams.set("payload", task.payloadContent);
      url = u.href;
    } else {
      throw new RequestError(`invalid http method: ${hook.httpMethod}`);
    }
  } else {
    const payload = JSON.parse(task.payloadContent) as Record<string, unknown>;
    const formatted = formatDelivery(hook, event, payload);
    url = formatted.url ?? hook.url;
    method = (formatted.method ?? (hook.httpMethod || "POST")).toUpperCase();
    body = formatted.body;
    signed = formatted.body;
    Object.assign(headers, formatted.headers ?? {});
    headers["Content-Type"] = formatted.contentType;
  }
  const name = eventHeader(event);
  const target = installationTarget(env, hook);
  const sha256 = hmacHex("sha256", hook.secret, signed);
  Object.assign(headers, {
    "X-Gitea-Delivery": task.uuid,
    "X-Gitea-Event": name,
    "X-Gitea-Event-Type": event,
    "X-Gitea-Signature": sha256,
    "X-Gitea-Hook-Installation-Target-Type": target,
    "X-Gogs-Delivery": task.uuid,
    "X-Gogs-Event": name,
    "X-Gogs-Event-Type": event,
    "X-Gogs-Signature": sha256,
    "X-Hub-Signature": "sha1=" + hmacHex("sha1", hook.secret, signed),
    "X-Hub-Signature-256": "sha256=" + sha256,
    "X-GitHub-Delivery": task.uuid,
    "X-GitHub-Event": name,
    "X-GitHub-Event-Type": event,
    "X-GitHub-Hook-Installation-Target-Type": target,
  });
  return { url, method, headers, body, recordedBody: signed };
}

const policies = new WeakMap<Env, OutboundPolicy>();

/** The outbound policy of `[webhook]`, built once per process. */
function policyFor(env: Env): OutboundPolicy {
  let p = policies.get(env);
  if (p) return p;
  const w = env.settings.webhook;
  const hosts: RegExp[] = [];
  for (const h of w.proxyHosts) {
    try {
      hosts.push(compileGlob(h));
    } catch (err) {
      env.log.error("[webhook] PROXY_HOSTS: a pattern does not compile, ignored", { pattern: h, error: (err as Error).message });
    }
  }
  p = {
    allow: new HostMatchList("webhook.ALLOWED_HOST_LIST", w.allowedHostList),
    usage: "webhook",
    timeoutMs: w.deliverTimeout * 1000,
    skipTlsVerify: w.skipTlsVerify,
    proxy: w.proxyUrl ? { url: w.proxyUrl, hosts } : undefined,
  };
  policies.set(env, p);
  return p;
}

export type AttemptOutcome = { ok: true } | { ok: false; retry: boolean; retryAfterMs?: number };

/** Retry-After in seconds (or an HTTP date), when the receiver says how long to wait. */
function retryAfterMs(res: OutboundResponse): number | undefined {
  const v = res.headers["Retry-After"];
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** One attempt made: how it went and what to record. */
interface Attempt {
  outcome: AttemptOutcome;
  record: AttemptRecord;
}

/** Makes one attempt (writes nothing): says whether it worked and whether trying again could help. */
async function attempt(env: Env, hook: WebhookRow, task: HookTaskRow): Promise<Attempt> {
  const started = Date.now();
  const t0 = performance.now();
  let recordedRequest: Record<string, unknown> = { url: hook.url, http_method: hook.httpMethod || "POST", headers: {}, body: "" };
  let response: { status: number; headers: Record<string, string>; body: string; error?: string };
  let outcome: AttemptOutcome;
  try {
    const built = buildRequest(env, hook, task);
    const recordedHeaders: Record<string, string> = { ...built.headers };
    const sendHeaders: Record<string, string> = { ...built.headers };
    // The hook's Authorization header, on every attempt, for every type; recorded masked, as Gitea does.
    let authorization: string;
    try {
      authorization = openAuthorization(env, hook);
    } catch (err) {
      // Sealed under another SECRET_KEY: never sent without it (Gitea fails the delivery the same way).
      throw new RequestError(`cannot get Authorization header: ${(err as Error).message}`);
    }
    if (authorization) {
      sendHeaders.Authorization = authorization;
      recordedHeaders.Authorization = "******";
    }
    recordedRequest = { url: built.url, http_method: built.method, headers: recordedHeaders, body: built.recordedBody };
    if (!hook.isActive) {
      // Gitea marks a task of an inactive hook delivered (and failed) without sending it.
      response = { status: 0, headers: {}, body: "", error: "the webhook is not active" };
      outcome = { ok: false, retry: false };
    } else {
      const res = await outboundFetch({ url: built.url, method: built.method, headers: sendHeaders, body: built.body }, policyFor(env));
      response = { status: res.status, headers: res.headers, body: res.body };
      if (res.status >= 200 && res.status < 300) outcome = { ok: true };
      else if (res.status >= 500 || res.status === 429) outcome = { ok: false, retry: true, retryAfterMs: retryAfterMs(res) };
      else outcome = { ok: false, retry: false };
    }
  } catch (err) {
    const message = (err as Error)?.message ?? String(err);
    response = { status: 0, headers: {}, body: `Delivery: ${message}`, error: message };
    // A refused host, or a request that cannot be built or sent anywhere, fails the same way next time.
    const final =
      err instanceof OutboundRefused ||
      err instanceof OutboundUnusable ||
      err instanceof RequestError ||
      err instanceof SyntaxError ||
      err instanceof UnsupportedEventError;
    outcome = { ok: false, retry: !final };
  }
  return {
    outcome,
    record: {
      taskId: task.id,
      hookId: hook.id,
      request: JSON.stringify(recordedRequest),
      response: JSON.stringify(response),
      isSucceed: outcome.ok,
      startedMs: started,
      durationMs: Math.round(performance.now() - t0),
      deliveredNs: Date.now() * 1_000_000,
      hookStatus: outcome.ok ? HookStatus.Succeed : HookStatus.Fail,
    },
  };
}

interface PendingWrite {
  record: AttemptRecord;
  job: Job;
  result: JobResult;
  done: (err?: unknown) => void;
}

/** Attempts finished in the same turn of the event loop, by process, waiting for their shared commit. */
const pendingWrites = new WeakMap<Env, PendingWrite[]>();

/**
 * Records an attempt and settles its queue item in the same transaction, shared with the other
 * attempts that finish in the same turn: one commit for several deliveries instead of one each.
 */
function persist(env: Env, record: AttemptRecord, job: Job, result: JobResult): Promise<void> {
  return new Promise((resolve, reject) => {
    let list = pendingWrites.get(env);
    if (!list) {
      list = [];
      pendingWrites.set(env, list);
      setImmediate(() => flushWrites(env));
    }
    list.push({ record, job, result, done: (err) => (err ? reject(err) : resolve()) });
  });
}

function flushWrites(env: Env): void {
  const list = pendingWrites.get(env) ?? [];
  pendingWrites.delete(env);
  try {
    // The statements are prepared on the root handle and run inside its transaction.
    writeTx(env.db, () => {
      for (const w of list) {
        recordAttempt(env.db, w.record);
        w.job.complete(env.db, w.result);
      }
    });
    for (const w of list) w.done();
  } catch (err) {
    for (const w of list) w.done(err);
  }
}

/** The queue handler (delivery-queue.ts registers it): one attempt per run, retried with doubling waits up to [webhook] MAX_ATTEMPTS. */
export async function runDelivery(env: Env, item: DeliveryItem, job: Job): Promise<JobResult> {
  try {
    const task = getHookTaskById(env.db, item.taskId);
    // Deleted with its hook in the meantime: nothing to deliver.
    if (!task) return;
    const hook = getWebhookById(env.db, task.hookId);
    if (!hook) return;
    const { outcome, record } = await attempt(env, hook, task);
    let result: JobResult = undefined;
    if (!outcome.ok && outcome.retry) {
      const { maxAttempts, retryBackoffMs } = env.settings.webhook;
      if (job.attempts >= maxAttempts) {
        env.log.warn("webhook delivery given up", { hook: hook.id, delivery: task.uuid, attempts: job.attempts });
      } else {
        const backoff = Math.min(retryBackoffMs * 2 ** (job.attempts - 1), MAX_BACKOFF_MS);
        result = { retryInMs: Math.min(Math.max(backoff, outcome.retryAfterMs ?? 0), MAX_BACKOFF_MS) };
      }
    }
    await persist(env, record, job, result);
    return result;
  } finally {
    requeueDeferred(env);
  }
}
