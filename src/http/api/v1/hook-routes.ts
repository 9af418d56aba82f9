import * as v from "valibot";
import { operation, reply, Reply, type Access, type AnyOperation, type Granted, type OpContext } from "../../route.ts";
import { PageQuery } from "../../../shapes/common.ts";
import { CreateHookOption, DeliveryUuidParam, EditHookOption, Hook, HookDelivery, HookDeliveryDetail } from "../../../shapes/hook.ts";
import {
  createHook,
  deleteHook,
  editHook,
  getHook,
  hookIdOf,
  listHooks,
  requireHook,
  type HookInput,
  hookOwnerOf,
  type HookTarget,
} from "../../../services/webhook/hooks.ts";
import { getDelivery, listDeliveries, redeliverDelivery } from "../../../services/webhook/deliveries.ts";
import { toAPIHook, toAPIHookDelivery, toAPIHookDeliveryDetail } from "../../../convert/hook.ts";

/**
 * The webhook operations every level shares (repository, organization, user, site): CRUD in
 * Gitea's shape, and the deliveries API hearth adds. A level says where its hooks live and who may
 * touch them: `access` declares what the runner resolves and checks (404 before 403, as Gitea orders
 * them; a level not yet declaring its resource runs those checks in `owner`), and `owner` names the
 * level from what was resolved.
 */
export interface HookLevel<A extends Access = Access> {
  /** `repo`, `org`, `user` or `admin`: Gitea's operationId prefix. */
  name: string;
  /** The path of the hooks collection, e.g. `/repos/:owner/:repo/hooks`. */
  path: string;
  tag: string;
  summaryOwner: string;
  access: A;
  /** The collection path's own parameters (none for /user and /admin). */
  params: v.ObjectEntries;
  owner(ctx: HookLevelContext<A>): HookTarget;
}

/** What a level's `owner` is handed: the request, and what its declaration resolved. */
export type HookLevelContext<A extends Access = Access> = OpContext<Record<string, string>, unknown, unknown> & Granted<A>;

/** The collection path's parameters; none at all for /user and /admin (the router passes no params object then). */
const collectionParams = (level: HookLevel<Access>) => (Object.keys(level.params).length ? v.object(level.params) : undefined);

const inputOf = (b: v.InferOutput<typeof EditHookOption> & { type?: string | null }): HookInput => ({
  type: b.type ?? undefined,
  config: b.config,
  events: b.events,
  branchFilter: b.branch_filter,
  active: b.active,
  authorizationHeader: b.authorization_header,
});

/** The hook of the path, after the level's checks. */
function pathHook<A extends Access>(level: HookLevel<A>, ctx: HookLevelContext<A>) {
  return requireHook(ctx.env, hookOwnerOf(level.owner(ctx)), hookIdOf(ctx.params.id ?? ""));
}

/** Create, get, edit and delete; the list is the level's own (the admin list differs). */
export function hookCrudOperations<const A extends Access>(level: HookLevel<A>): AnyOperation[] {
  const idParams = v.object({ ...level.params, id: v.string() });
  const base = { tag: level.tag, access: level.access };
  return [
    operation({
      ...base,
      method: "POST",
      path: level.path,
      operationId: `${level.name}CreateHook`,
      summary: `Create a hook for ${level.summaryOwner}`,
      params: collectionParams(level),
      body: CreateHookOption,
      responses: { 201: Hook },
      handler: (ctx) => {
        const target = level.owner(ctx as HookLevelContext<A>);
        return reply.created(toAPIHook(createHook(ctx.env, target, inputOf(ctx.body))));
      },
    }),
    operation({
      ...base,
      method: "GET",
      path: `${level.path}/:id`,
      operationId: `${level.name}GetHook`,
      summary: `Get a hook of ${level.summaryOwner}`,
      params: idParams,
      responses: { 200: Hook },
      handler: (ctx) => {
        const owner = hookOwnerOf(level.owner(ctx as HookLevelContext<A>));
        return toAPIHook(getHook(ctx.env, owner, hookIdOf(ctx.params.id)));
      },
    }),
    operation({
      ...base,
      method: "PATCH",
      path: `${level.path}/:id`,
      operationId: `${level.name}EditHook`,
      summary: `Update a hook of ${level.summaryOwner}`,
      params: idParams,
      body: EditHookOption,
      responses: { 200: Hook },
      handler: (ctx) => {
        const target = level.owner(ctx as HookLevelContext<A>);
        const id = hookIdOf(ctx.params.id);
        requireHook(ctx.env, hookOwnerOf(target), id);
        return toAPIHook(editHook(ctx.env, target, id, inputOf(ctx.body)));
      },
    }),
    operation({
      ...base,
      method: "DELETE",
      path: `${level.path}/:id`,
      operationId: `${level.name}DeleteHook`,
      summary: `Delete a hook of ${level.summaryOwner}`,
      params: idParams,
      responses: { 204: null },
      handler: (ctx) => {
        deleteHook(ctx.env, level.owner(ctx as HookLevelContext<A>), hookIdOf(ctx.params.id));
        return reply.noContent();
      },
    }),
  ];
}

/** The paged list Gitea serves for repository, organization and user hooks. */
export function hookListOperation<const A extends Access>(level: HookLevel<A>): AnyOperation {
  return operation({
    tag: level.tag,
    access: level.access,
    method: "GET",
    path: level.path,
    operationId: `${level.name}ListHooks`,
    summary: `List the hooks of ${level.summaryOwner}`,
    params: collectionParams(level),
    query: PageQuery,
    responses: { 200: v.array(Hook) },
    handler: (ctx) => {
      const owner = hookOwnerOf(level.owner(ctx as HookLevelContext<A>));
      const page = ctx.page();
      const { items, total } = listHooks(ctx.env, owner, page);
      return ctx.list(items.map(toAPIHook), total, page);
    },
  });
}

/**
 * hearth's deliveries API (Gitea 1.25 has none; shaped after go-gitea/gitea#38775): a hook's
 * deliveries newest first, one delivery with every attempt, and a redelivery as a new attempt.
 * Their operationIds are listed as extensions in test/architecture.test.ts.
 */
export function hookDeliveryOperations<const A extends Access>(level: HookLevel<A>): AnyOperation[] {
  const idParams = v.object({ ...level.params, id: v.string() });
  const uuidParams = v.object({ ...level.params, id: v.string(), ...DeliveryUuidParam });
  const base = { tag: level.tag, access: level.access };
  return [
    operation({
      ...base,
      method: "GET",
      path: `${level.path}/:id/deliveries`,
      operationId: `${level.name}ListHookDeliveries`,
      summary: `List the deliveries of a hook of ${level.summaryOwner}, newest first (hearth extension)`,
      params: idParams,
      query: PageQuery,
      responses: { 200: v.array(HookDelivery) },
      handler: (ctx) => {
        const hook = pathHook(level, ctx as HookLevelContext<A>);
        const page = ctx.page();
        const { items, total } = listDeliveries(ctx.env, hook, page);
        return ctx.list(items.map(toAPIHookDelivery), total, page);
      },
    }),
    operation({
      ...base,
      method: "GET",
      path: `${level.path}/:id/deliveries/:uuid`,
      operationId: `${level.name}GetHookDelivery`,
      summary: `Get a delivery of a hook of ${level.summaryOwner} with every attempt (hearth extension)`,
      params: uuidParams,
      responses: { 200: HookDeliveryDetail },
      handler: (ctx) => toAPIHookDeliveryDetail(getDelivery(ctx.env, pathHook(level, ctx as HookLevelContext<A>), ctx.params.uuid)),
    }),
    operation({
      ...base,
      method: "POST",
      path: `${level.path}/:id/deliveries/:uuid/attempts`,
      operationId: `${level.name}RedeliverHookDelivery`,
      summary: `Deliver a delivery of a hook of ${level.summaryOwner} again (hearth extension)`,
      params: uuidParams,
      responses: { 202: HookDelivery },
      handler: (ctx) => new Reply(202, toAPIHookDelivery(redeliverDelivery(ctx.env, pathHook(level, ctx as HookLevelContext<A>), ctx.params.uuid))),
    }),
  ];
}
