import * as v from "valibot";
import { Invalid } from "../lib/errors.ts";

/** `login_name` → `LoginName`: Gitea reports binding errors with Go field names. */
function goFieldName(key: string): string {
  return key
    .split(/[_-]/)
    .map((p) => (p ? p[0]!.toUpperCase() + p.slice(1) : p))
    .join("");
}

type SchemaNode = {
  type: string;
  entries?: Record<string, SchemaNode>;
  wrapped?: SchemaNode;
  item?: SchemaNode;
};

const OBJECT_TYPES = new Set(["object", "loose_object", "strict_object", "object_with_rest"]);

/**
 * Where an array stands in for an object (valibot's object schemas accept arrays, being objects
 * to JavaScript): the path of Go field names, or undefined. Gitea's JSON decoding refuses them
 * ("cannot unmarshal array into Go value of type ..."), and so must we: `[]` read as `{}` would
 * make a PATCH that changes nothing look like a valid request.
 */
function arrayForObject(schema: SchemaNode, input: unknown, path: string[]): string[] | undefined {
  while (schema.wrapped) schema = schema.wrapped;
  if (input === null || typeof input !== "object") return undefined;
  if (OBJECT_TYPES.has(schema.type)) {
    if (Array.isArray(input)) return path;
    for (const [key, entry] of Object.entries(schema.entries ?? {})) {
      const found = arrayForObject(entry, (input as Record<string, unknown>)[key], [...path, goFieldName(key)]);
      if (found) return found;
    }
  } else if (schema.type === "record") {
    // Go's maps refuse arrays alike.
    if (Array.isArray(input)) return path;
  } else if (schema.type === "array" && schema.item && Array.isArray(input)) {
    for (const [i, item] of input.entries()) {
      const found = arrayForObject(schema.item, item, [...path, String(i)]);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Validates input and throws Gitea's 422 (`[Field]: Rule`, first problem only) on failure.
 * Rules named after go-chi binding (Required, MaxSize, Url, In) come through as the issue message.
 */
export function validate<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const misplaced = arrayForObject(schema as unknown as SchemaNode, input, []);
  if (misplaced) throw new Invalid(`[${misplaced.join(".")}]: cannot unmarshal array into an object`);
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
