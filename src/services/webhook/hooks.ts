import type { Env } from "../env.ts";
import type { WebhookRow } from "../../db/schema/index.ts";
import { HookContentType } from "../../db/schema/index.ts";
import { writeTx, type Tx } from "../../db/client.ts";
import * as model from "../../models/webhook.ts";
import type { HookOwner, SiteHookKind } from "../../models/webhook.ts";
import { BadRequest, Invalid, NotFound } from "../../lib/errors.ts";
import { nowUnix } from "../../lib/time.ts";
import { HOOK_TYPES, type HookType } from "./event-types.ts";
import { chosenHookEvent, eventsArray, parseHookEvent, serializeHookEvent } from "./hook-events.ts";
import { openAuthorization, sealAuthorization } from "./auth-header.ts";
import { isValidSlackChannel } from "./formats/slack.ts";
import type { Administers } from "../access/repo-access.ts";

export type { HookOwner, SiteHookKind };

/**
 * Where a change of hooks acts: a repository, whose context must carry the administrator's check
 * (Gitea's reqAdmin on the repository's hooks), or an organization's or user's hooks by owner id,
 * or the site's (those levels check their owner in their declarations; no checked type carries it yet).
 */
export type HookTarget = { repo: Administers } | { ownerId: number } | { site: true };

/** The owner whose hooks a target names. */
export function hookOwnerOf(target: HookTarget): HookOwner {
  if ("repo" in target) return { repoId: target.repo.repo.id };
  return "ownerId" in target ? { ownerId: target.ownerId } : { site: true };
}

/** What the API sends to create or edit a hook (Gitea's CreateHookOption / EditHookOption). */
export interface HookInput {
  type?: string;
  config?: Record<string, string> | null;
  events?: string[] | null;
  branchFilter?: string | null;
  active?: boolean | null;
  authorizationHeader?: string | null;
}

/** A hook with what its API shape needs that is not a plain column. */
export interface HookView {
  hook: WebhookRow;
  events: string[];
  branchFilter: string;
  /** The Authorization header in clear: Gitea's ToHook returns it decrypted. */
  authorizationHeader: string;
  /** Gitea's HookContentType.Name(). */
  contentType: "json" | "form";
  /** A slack hook's settings (Gitea's GetSlackHook). */
  slack?: SlackMeta;
}

/** Gitea's SlackMeta, kept in the `meta` column of a slack hook. */
export interface SlackMeta {
  channel: string;
  username: string;
  icon_url: string;
  color: string;
}

/** Gitea's GetSlackHook: the stored settings, empty ones when the meta does not parse. */
export function slackMetaOf(hook: Pick<WebhookRow, "meta">): SlackMeta {
  let m: Partial<SlackMeta> = {};
  try {
    m = (JSON.parse(hook.meta) as Partial<SlackMeta> | null) ?? {};
  } catch {
    m = {};
  }
  return { channel: m.channel ?? "", username: m.username ?? "", icon_url: m.icon_url ?? "", color: m.color ?? "" };
}

export function view(env: Env, hook: WebhookRow): HookView {
  const e = parseHookEvent(hook.events);
  return {
    hook,
    events: eventsArray(e),
    branchFilter: e.branch_filter,
    authorizationHeader: openAuthorization(env, hook),
    contentType: hook.contentType === HookContentType.Form ? "form" : "json",
    slack: hook.type === "slack" ? slackMetaOf(hook) : undefined,
  };
}

const isHookType = (t: string): t is HookType => (HOOK_TYPES as readonly string[]).includes(t);

/** Gitea's IsValidHookContentType / ToHookContentType. */
function contentTypeOf(name: string): number | undefined {
  if (name === "json") return HookContentType.Json;
  if (name === "form") return HookContentType.Form;
  return undefined;
}

/** Gitea's validation.IsValidURL: an absolute http(s) URL with a usable port. */
export function isValidHookUrl(raw: string): boolean {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return false;
  }
  // WHATWG URL parsing already refuses a port that is not a number up to 65535 (Go's validPort).
  return u.protocol === "http:" || u.protocol === "https:";
}

/** strconv.ParseBool. */
function parseGoBool(s: string): boolean | undefined {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(s)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(s)) return false;
  return undefined;
}

function slackMeta(config: Record<string, string>, channel: string): string {
  const meta: SlackMeta = { channel, username: config.username ?? "", icon_url: config.icon_url ?? "", color: config.color ?? "" };
  return JSON.stringify(meta);
}

/** Writes the sealed Authorization value, bound to the hook's id (so the row must exist first). */
function sealOnto(env: Env, tx: Tx, hook: WebhookRow, value: string): WebhookRow {
  const sealed = sealAuthorization(env, hook.id, value);
  if (sealed === hook.headerAuthorizationEncrypted) return hook;
  return model.updateWebhook(tx, hook.id, { headerAuthorizationEncrypted: sealed }) ?? hook;
}

/**
 * Gitea's addHook with checkCreateHookOption, in its order of checks and messages: the type, the
 * config's url and content_type, the url's form, is_system_webhook, and for slack its channel
 * (a bad channel name is Gitea's 400). A hook is created inactive unless `active` is true.
 */
export function createHook(env: Env, target: HookTarget, input: HookInput): HookView {
  const owner = hookOwnerOf(target);
  const type = input.type ?? "";
  if (!isHookType(type)) throw new Invalid(`Invalid hook type: ${type}`);
  const config = input.config ?? {};
  for (const name of ["url", "content_type"]) {
    if (!(name in config)) throw new Invalid(`Missing config option: ${name}`);
  }
  const contentType = contentTypeOf(config.content_type!);
  if (contentType === undefined) throw new Invalid("Invalid content type");
  if (!isValidHookUrl(config.url!)) throw new Invalid("Invalid url");
  let isSystem = false;
  if (config.is_system_webhook) {
    const b = parseGoBool(config.is_system_webhook);
    if (b === undefined) throw new Invalid("Invalid is_system_webhook value");
    isSystem = b;
  }
  let meta = "";
  if (type === "slack") {
    if (!("channel" in config)) throw new Invalid("Missing config option: channel");
    const channel = config.channel!.trim();
    if (!isValidSlackChannel(channel)) throw new BadRequest("Invalid slack channel name");
    meta = slackMeta(config, channel);
  }
  const now = nowUnix();
  return writeTx(env.db, (tx) => {
    const row = model.insertWebhook(tx, {
      repoId: "repoId" in owner ? owner.repoId : 0,
      ownerId: "ownerId" in owner ? owner.ownerId : 0,
      isSystemWebhook: isSystem,
      url: config.url!,
      httpMethod: "POST",
      contentType,
      secret: config.secret ?? "",
      events: serializeHookEvent(chosenHookEvent(input.events ?? [], input.branchFilter ?? "")),
      isActive: input.active === true,
      type,
      meta,
      createdUnix: now,
      updatedUnix: now,
    });
    return view(env, sealOnto(env, tx, row, input.authorizationHeader ?? ""));
  });
}

/**
 * Gitea's editHook: config keys given replace (url and content_type checked, a slack channel
 * rewrites the slack settings); events, branch_filter and authorization_header are always
 * replaced, as Gitea does (absent events mean `["push"]`, an absent header clears it); `active`
 * only when given. hearth also takes a new `secret` from the config.
 */
export function editHook(env: Env, target: HookTarget, id: number, input: HookInput): HookView {
  const owner = hookOwnerOf(target);
  return writeTx(env.db, (tx) => {
    const hook = model.getWebhook(tx, owner, id);
    if (!hook) throw new NotFound();
    const patch: Partial<WebhookRow> = {};
    const config = input.config;
    if (config) {
      if ("url" in config) {
        if (!isValidHookUrl(config.url!)) throw new Invalid("Invalid url");
        patch.url = config.url!;
      }
      if ("content_type" in config) {
        const ct = contentTypeOf(config.content_type!);
        if (ct === undefined) throw new Invalid("Invalid content type");
        patch.contentType = ct;
      }
      if ("secret" in config) patch.secret = config.secret!;
      // Gitea 1.25's editHook stores a new channel as given: unlike create, it neither trims nor checks it.
      if (hook.type === "slack" && "channel" in config) patch.meta = slackMeta(config, config.channel!);
    }
    patch.events = serializeHookEvent(chosenHookEvent(input.events ?? [], input.branchFilter ?? ""));
    if (input.active !== undefined && input.active !== null) patch.isActive = input.active;
    patch.updatedUnix = nowUnix();
    const updated = model.updateWebhook(tx, hook.id, patch) ?? hook;
    return view(env, sealOnto(env, tx, updated, input.authorizationHeader ?? ""));
  });
}

/** A hook of this owner (repository, user, organization or site); 404 for any other. */
export function requireHook(env: Env, owner: HookOwner, id: number): WebhookRow {
  const hook = model.getWebhook(env.db, owner, id);
  if (!hook) throw new NotFound();
  return hook;
}

export function getHook(env: Env, owner: HookOwner, id: number): HookView {
  return view(env, requireHook(env, owner, id));
}

/** An owner's hooks by id, one page (none for the admin list, which Gitea does not page). */
export function listHooks(env: Env, owner: HookOwner, page?: { offset: number; limit: number }, kind: SiteHookKind = "all"): { items: HookView[]; total: number } {
  const { rows, total } = model.listWebhooks(env.db, owner, page, kind);
  return { items: rows.map((r) => view(env, r)), total };
}

/** Deletes a hook with its deliveries. */
export function deleteHook(env: Env, target: HookTarget, id: number): void {
  const owner = hookOwnerOf(target);
  const gone = writeTx(env.db, (tx) => model.deleteWebhook(tx, owner, id));
  if (!gone) throw new NotFound();
}

/**
 * Gitea's CopyDefaultWebhooksToRepo, for a repository being created: each default hook becomes
 * one of the repository's own. The Authorization value is sealed to a hook's id, so each copy
 * gets it sealed again for its own.
 */
export function copyDefaultHooksToRepo(env: Env, tx: Tx, repoId: number): void {
  const now = nowUnix();
  for (const d of model.defaultWebhooks(tx)) {
    const { id: _id, headerAuthorizationEncrypted: _sealed, ...rest } = d;
    const copy = model.insertWebhook(tx, { ...rest, repoId, headerAuthorizationEncrypted: "", createdUnix: now, updatedUnix: now });
    let authorization = "";
    try {
      authorization = openAuthorization(env, d);
    } catch {
      // Sealed under another SECRET_KEY: it could never be sent; the repository is still created.
      env.log.warn("default webhook's Authorization value does not open; copied without it", { hook: d.id, repo: repoId });
    }
    sealOnto(env, tx, copy, authorization);
  }
}

/** Path ids parse as Gitea's PathParamInt64: anything but a number finds nothing. */
export function hookIdOf(raw: string): number {
  if (!/^\d{1,15}$/.test(raw)) throw new NotFound();
  return Number(raw);
}
