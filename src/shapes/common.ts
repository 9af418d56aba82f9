import * as v from "valibot";
import { named } from "./registry.ts";

/** Go decodes `null` into a nil pointer, i.e. "not given": optional request fields accept both. */
export const opt = <T extends v.GenericSchema>(s: T) => v.nullish(s);

/** A required string: present and non-empty (go-chi binding's Required). */
export const requiredString = (max?: number) =>
  max === undefined
    ? v.pipe(v.string(), v.nonEmpty("Required"))
    : v.pipe(v.string(), v.nonEmpty("Required"), v.maxLength(max, "MaxSize"));

export const maxString = (max: number) => v.pipe(v.string(), v.maxLength(max, "MaxSize"));

export const dateTime = v.pipe(v.string(), v.isoTimestamp());

export const APIError = named(
  "APIError",
  v.object({
    message: v.string(),
    url: v.string(),
  }),
);

/** Query parameters are strings on the wire; Gitea parses page/limit leniently, so do we. */
export const intQuery = v.pipe(v.string(), v.metadata({ format: "integer" }));

export const PageQuery = v.object({
  page: v.optional(intQuery),
  limit: v.optional(intQuery),
});

export const UsernameParams = v.object({ username: v.string() });
