import * as v from "valibot";
import { named } from "./registry.ts";
import { opt } from "./common.ts";

const config = v.record(v.string(), v.string());

export const Hook = named(
  "Hook",
  v.object({
    id: v.number(),
    type: v.string(),
    branch_filter: v.string(),
    config,
    events: v.array(v.string()),
    authorization_header: v.string(),
    active: v.boolean(),
    updated_at: v.string(),
    created_at: v.string(),
  }),
);

/** Gitea checks `type` and the config keys itself, with its own messages; only the JSON types are the binding's. */
export const CreateHookOption = named(
  "CreateHookOption",
  v.object({
    type: opt(v.string()),
    config: opt(config),
    events: opt(v.array(v.string())),
    branch_filter: opt(v.string()),
    active: opt(v.boolean()),
    authorization_header: opt(v.string()),
  }),
);

export const EditHookOption = named(
  "EditHookOption",
  v.object({
    config: opt(config),
    events: opt(v.array(v.string())),
    branch_filter: opt(v.string()),
    active: opt(v.boolean()),
    authorization_header: opt(v.string()),
  }),
);

export const RepoHookParams = v.object({ owner: v.string(), repo: v.string(), id: v.string() });
export const OrgHookParams = v.object({ org: v.string(), id: v.string() });
export const HookIdParams = v.object({ id: v.string() });

const json = v.nullable(v.record(v.string(), v.unknown()));

/** A delivery of a hook (hearth extension: Gitea 1.25 has no deliveries API). */
export const HookDelivery = named(
  "HookDelivery",
  v.object({
    id: v.number(),
    uuid: v.string(),
    event: v.string(),
    is_delivered: v.boolean(),
    is_succeed: v.boolean(),
    status_code: v.number(),
    attempts: v.number(),
    delivered_at: v.nullable(v.string()),
    created_at: v.string(),
  }),
);

export const HookDeliveryAttempt = named(
  "HookDeliveryAttempt",
  v.object({
    id: v.number(),
    is_succeed: v.boolean(),
    status_code: v.number(),
    duration_ms: v.number(),
    started_at: v.string(),
    request: json,
    response: json,
  }),
);

export const HookDeliveryDetail = named(
  "HookDeliveryDetail",
  v.object({
    ...HookDelivery.entries,
    duration_ms: v.number(),
    payload: json,
    request: json,
    response: json,
    attempt_list: v.array(HookDeliveryAttempt),
  }),
);

export const DeliveryUuidParam = { uuid: v.string() };

export type APIHook = v.InferOutput<typeof Hook>;
export type APIHookDelivery = v.InferOutput<typeof HookDelivery>;
export type APIHookDeliveryAttempt = v.InferOutput<typeof HookDeliveryAttempt>;
export type APIHookDeliveryDetail = v.InferOutput<typeof HookDeliveryDetail>;
