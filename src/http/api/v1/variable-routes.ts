import * as v from "valibot";
import { operation, reply, Reply, type Access, type AnyOperation, type Granted, type OpContext } from "../../route.ts";
import { PageQuery } from "../../../shapes/common.ts";
import { ActionVariable, CreateVariableOption, UpdateVariableOption, VariableNameParam } from "../../../shapes/action-variable.ts";
import {
  createVariable,
  deleteVariableByName,
  getVariable,
  listVariables,
  updateVariable,
  variableLevelOf,
  type VariableTarget,
} from "../../../services/variables/variables.ts";
import { toAPIVariable } from "../../../convert/action-variable.ts";

/**
 * The Actions variable operations every level shares (organization, repository, user): list, get,
 * create (POST, 201, 409 when the name exists), update (PUT, 204, may rename) and delete. A level
 * says where its variables live and who may touch them: `access` declares what the runner resolves
 * and checks (404, then 403, as Gitea's middleware orders them, before the body is bound; a level not
 * yet declaring its resource runs those checks in `level`), and `level` names the level acted on
 * (the repository's hands on its checked context; reading needs only the level, `variableLevelOf`).
 */
export interface VariableRouteLevel<A extends Access = Access> {
  /** `Org`, `Repo` or `User`, as in Gitea's operationIds (`get{Name}VariablesList`...). */
  name: string;
  /** The variables collection, e.g. `/orgs/:org/actions/variables`. */
  path: string;
  tag: string;
  /** Gitea's summaries, which differ in wording from level to level. */
  summaries: { list: string; get: string; create: string; update: string; delete: string };
  access: A;
  /** The collection path's own parameters (none for /user). */
  params: v.ObjectEntries;
  level(ctx: VariableLevelContext<A>): VariableTarget;
}

/** What a level's `level` is handed: the request, and what its declaration resolved. */
export type VariableLevelContext<A extends Access = Access> = OpContext<Record<string, string>, unknown, unknown> & Granted<A>;

export function variableOperations<const A extends Access>(l: VariableRouteLevel<A>): AnyOperation[] {
  const one = { tag: l.tag, access: l.access, params: v.object({ ...l.params, ...VariableNameParam }) };
  const item = `${l.path}/:variablename`;
  return [
    operation({
      method: "GET",
      path: l.path,
      operationId: `get${l.name}VariablesList`,
      tag: l.tag,
      summary: l.summaries.list,
      access: l.access,
      // A path without parameters (/user) declares none: the router hands such an operation no params.
      params: Object.keys(l.params).length > 0 ? v.object(l.params) : undefined,
      query: PageQuery,
      responses: { 200: v.array(ActionVariable) },
      handler: (ctx) => {
        const level = variableLevelOf(l.level(ctx as VariableLevelContext<A>));
        const { items, total } = listVariables(ctx.env, level, ctx.page());
        // Gitea 1.25 sets X-Total-Count only on all three lists (no Link header).
        return new Reply(200, items.map(toAPIVariable), {
          "X-Total-Count": String(total),
          "Access-Control-Expose-Headers": "X-Total-Count",
        });
      },
    }),
    operation({
      ...one,
      method: "GET",
      path: item,
      operationId: `get${l.name}Variable`,
      summary: l.summaries.get,
      responses: { 200: ActionVariable },
      handler: (ctx) => reply.ok(toAPIVariable(getVariable(ctx.env, variableLevelOf(l.level(ctx as VariableLevelContext<A>)), ctx.params.variablename))),
    }),
    operation({
      ...one,
      method: "POST",
      path: item,
      operationId: `create${l.name}Variable`,
      summary: l.summaries.create,
      body: CreateVariableOption,
      responses: { 201: null },
      handler: (ctx) => {
        const target = l.level(ctx as VariableLevelContext<A>);
        const body = ctx.body; // bound (422) before the handler's own checks, as in Gitea
        createVariable(ctx.env, target, ctx.params.variablename, body.value, body.description ?? "");
        return new Reply(201);
      },
    }),
    operation({
      ...one,
      method: "PUT",
      path: item,
      operationId: `update${l.name}Variable`,
      summary: l.summaries.update,
      body: UpdateVariableOption,
      responses: { 204: null },
      handler: (ctx) => {
        const target = l.level(ctx as VariableLevelContext<A>);
        const body = ctx.body;
        updateVariable(ctx.env, target, ctx.params.variablename, {
          name: body.name ?? undefined,
          value: body.value,
          description: body.description ?? undefined,
        });
        return reply.noContent();
      },
    }),
    operation({
      ...one,
      method: "DELETE",
      path: item,
      operationId: `delete${l.name}Variable`,
      summary: l.summaries.delete,
      responses: { 204: null },
      handler: (ctx) => {
        deleteVariableByName(ctx.env, l.level(ctx as VariableLevelContext<A>), ctx.params.variablename);
        return reply.noContent();
      },
    }),
  ];
}
