import * as v from "valibot";
import { named } from "./registry.ts";
import { opt, requiredString } from "./common.ts";

export const ActionVariable = named(
  "ActionVariable",
  v.object({
    owner_id: v.number(),
    repo_id: v.number(),
    name: v.string(),
    data: v.string(),
    description: v.string(),
  }),
);

/** Gitea binds `value` as Required (an empty value is a 422, too); the description is free. */
export const CreateVariableOption = named(
  "CreateVariableOption",
  v.object({
    value: requiredString(),
    description: opt(v.string()),
  }),
);

/** `name` renames the variable; empty or absent keeps the name. */
export const UpdateVariableOption = named(
  "UpdateVariableOption",
  v.object({
    name: opt(v.string()),
    value: requiredString(),
    description: opt(v.string()),
  }),
);

export const VariableNameParam = { variablename: v.string() };

export type APIActionVariable = v.InferOutput<typeof ActionVariable>;
