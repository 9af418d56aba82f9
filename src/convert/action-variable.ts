import type { ActionVariableRow } from "../db/schema/index.ts";
import type { APIActionVariable } from "../shapes/action-variable.ts";

/** Gitea's api.ActionVariable: a variable's value is not secret, so it is returned. */
export function toAPIVariable(v: ActionVariableRow): APIActionVariable {
  return { owner_id: v.ownerId, repo_id: v.repoId, name: v.name, data: v.data, description: v.description };
}
