import * as v from "valibot";
import { Invalid } from "../lib/errors.ts";

/** `login_name` → `LoginName`: Gitea reports binding errors with Go field names. */
function goFieldName(key: string): string {
  return key
    .split(/[_-]/)
    .map((p) => (p ? p[0]!.toUpperCase() + p.slice(1) : p))
    .join("");
}

/**
 * Validates input and throws Gitea's 422 (`[Field]: Rule`, first problem only) on failure.
 * Rules named after go-chi binding (Required, MaxSize, Url, In) come through as the issue message.
 */
export function validate<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const field = (issue.path ?? [])
    .map((p) => (typeof p.key === "string" ? goFieldName(p.key) : String(p.key)))
    .filter(Boolean)
    .join(".");
  const missing = issue.input === undefined && issue.path?.length;
  const message = missing ? "Required" : issue.message;
  throw new Invalid(`[${field}]: ${message}`);
}
