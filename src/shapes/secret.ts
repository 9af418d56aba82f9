import * as v from "valibot";
import { named } from "./registry.ts";
import { opt, requiredString } from "./common.ts";

export const Secret = named(
  "Secret",
  v.object({
    name: v.string(),
    description: v.string(),
    created_at: v.string(),
  }),
);

/** Gitea binds `data` as Required (so an empty value is a 422, too); the description is free. */
export const CreateOrUpdateSecretOption = named(
  "CreateOrUpdateSecretOption",
  v.object({
    data: requiredString(),
    description: opt(v.string()),
  }),
);

export const SecretNameParam = { secretname: v.string() };

export type APISecret = v.InferOutput<typeof Secret>;
