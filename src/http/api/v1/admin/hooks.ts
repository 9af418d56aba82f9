import * as v from "valibot";
import { operation, type AnyOperation } from "../../../route.ts";
import { Hook } from "../../../../shapes/hook.ts";
import { PageQuery } from "../../../../shapes/common.ts";
import { listHooks, type SiteHookKind } from "../../../../services/webhook/hooks.ts";
import { toAPIHook } from "../../../../convert/hook.ts";
import { hookCrudOperations, hookDeliveryOperations, type HookLevel } from "../hook-routes.ts";

/**
 * The site's hooks: system hooks fire for every repository, default hooks are copied into each
 * new one. A hook created here is a default one unless its config sets `is_system_webhook`.
 */
const level: HookLevel = {
  name: "admin",
  path: "/admin/hooks",
  tag: "admin",
  summaryOwner: "the site",
  access: { scope: "admin", signIn: "admin" },
  params: {},
  owner: () => ({ site: true }),
};

/** Gitea's admin ListHooks: `type` system (the default), default or all; not paged. */
const kindOf = (type: string | undefined): SiteHookKind => (type === "default" ? "default" : type === "all" ? "all" : "system");

export const adminHookOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/admin/hooks",
    operationId: "adminListHooks",
    tag: "admin",
    summary: "List system's webhooks",
    access: level.access,
    query: v.object({ ...PageQuery.entries, type: v.optional(v.string()) }),
    responses: { 200: v.array(Hook) },
    handler: ({ env, query }) => listHooks(env, { site: true }, undefined, kindOf(query.type)).items.map(toAPIHook),
  }),
  ...hookCrudOperations(level),
  ...hookDeliveryOperations(level),
];
