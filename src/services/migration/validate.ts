import Ajv, { type ErrorObject, type ValidateFunction } from "ajv-draft-04";
import { parse } from "yaml";
// The migration schemas are Gitea's (modules/migration/schemas), copied from the shared reference
// folder so a checkout runs on its own (a test checks the copies still match); importing them
// embeds them in the executable, as Gitea embeds its copies.
import issueSchema from "./schemas/issue.json";
import labelSchema from "./schemas/label.json";
import milestoneSchema from "./schemas/milestone.json";
import reactionSchema from "./schemas/reaction.json";
import { parseRFC3339 } from "./format.ts";
import { releaseFileSchema } from "./release-schema.ts";
import { pullRequestFileSchema, reviewFileSchema } from "./pull-schema.ts";

/**
 * Schema validation of a dump's files. Every problem names the file, the item (its 0-based position
 * in the file's list, as in a JSON pointer) and the field, so a person can find and fix it:
 *   milestone.yml: item 2: field "state": must be equal to one of the allowed values
 */

export interface Problem {
  file: string;
  item?: number;
  field?: string;
  message: string;
}

export const describeProblem = (p: Problem): string =>
  [p.file, p.item !== undefined ? `item ${p.item}` : undefined, p.field !== undefined ? `field "${p.field}"` : undefined, p.message]
    .filter((s) => s !== undefined)
    .join(": ");

type Schema = Record<string, unknown>;

/** A schema file's own identification (`$id`, `$$target`) dropped, for schemas composed from it. */
function body(schema: Schema): Schema {
  const { $id: _id, $$target: _target, $schema: _schema, ...rest } = schema;
  return rest;
}

/**
 * label.yml is the repository's list of labels. label.json describes one label (as embedded in an
 * issue) and forbids other fields, but Gitea's Label struct, which writes label.yml, also carries
 * `exclusive` and `priority`: those two are admitted beside the schema's own fields.
 */
const labelFileSchema: Schema = {
  $schema: "http://json-schema.org/draft-04/schema#",
  type: "array",
  items: {
    ...body(labelSchema as Schema),
    properties: {
      ...(labelSchema as { properties: Schema }).properties,
      exclusive: { type: "boolean" },
      priority: { type: "string" },
    },
  },
};

/**
 * comments/{n}.yml has no schema in the reference folder; its items are checked against Gitea's
 * Comment struct, field by field, with the reactions in it validated by reaction.json.
 */
const commentFileSchema: Schema = {
  $schema: "http://json-schema.org/draft-04/schema#",
  type: "array",
  items: {
    type: "object",
    additionalProperties: false,
    properties: {
      issue_index: { type: "number" },
      index: { type: "number" },
      comment_type: { type: "string" },
      poster_id: { type: "number" },
      poster_name: { type: "string" },
      poster_email: { type: "string" },
      created: { type: "string", format: "date-time" },
      updated: { type: "string", format: "date-time" },
      content: { type: "string" },
      reactions: { type: "array", items: { $ref: "reaction.json" } },
      meta: { type: "object" },
      // Gitea writes the comment's attachments here; hearth does not move attachments, so only none is accepted.
      assets: { type: "array", maxItems: 0 },
    },
    required: ["issue_index", "poster_id", "poster_name", "content", "created", "updated"],
  },
};

export type SchemaName = "milestone" | "label" | "issue" | "comment" | "release" | "pull_request" | "review";

let validators: Record<SchemaName, ValidateFunction> | undefined;

function compile(): Record<SchemaName, ValidateFunction> {
  const ajv = new Ajv({ allErrors: true, strict: true });
  // Draft-04 names a schema by `id`; these files also carry `$id` and `$$target` (Gitea's tooling), which mean nothing here.
  ajv.addKeyword("$id");
  ajv.addKeyword("$$target");
  ajv.addFormat("date-time", { type: "string", validate: (s: string) => parseRFC3339(s) !== undefined });
  // Registered under their file names, which is how issue.json's `$ref`s name them.
  ajv.addSchema(labelSchema as Schema, "label.json");
  ajv.addSchema(reactionSchema as Schema, "reaction.json");
  ajv.addSchema(issueSchema as Schema, "issue.json");
  ajv.addSchema(milestoneSchema as Schema, "milestone.json");
  return {
    milestone: ajv.getSchema("milestone.json")!,
    issue: ajv.getSchema("issue.json")!,
    label: ajv.compile(labelFileSchema),
    comment: ajv.compile(commentFileSchema),
    release: ajv.compile(releaseFileSchema),
    pull_request: ajv.compile(pullRequestFileSchema),
    review: ajv.compile(reviewFileSchema),
  };
}

/** `labels/0/color` → `labels[0].color`. */
function fieldName(segments: string[]): string {
  return segments.reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), "");
}

const unescape = (s: string) => s.replace(/~1/g, "/").replace(/~0/g, "~");

/**
 * Ajv's errors as problems, one per offending value. The failed alternatives of an `anyOf` (a
 * date-time or null) share their value's entry and are joined with "or"; the `anyOf` error itself
 * ("must match a schema in anyOf") says nothing more and is dropped.
 */
function problemsOf(file: string, errors: ErrorObject[]): Problem[] {
  const byValue = new Map<string, { segments: string[]; messages: string[] }>();
  for (const e of errors) {
    if (e.keyword === "anyOf") continue;
    const segments = e.instancePath.split("/").slice(1).map(unescape);
    if (e.keyword === "additionalProperties") segments.push(String(e.params.additionalProperty));
    if (e.keyword === "required") segments.push(String(e.params.missingProperty));
    const key = segments.join("/");
    const entry = byValue.get(key) ?? { segments, messages: [] };
    const message = e.message ?? e.keyword;
    if (!entry.messages.includes(message)) entry.messages.push(message);
    byValue.set(key, entry);
  }
  return [...byValue.values()].map(({ segments, messages }) => {
    const [first, ...rest] = segments;
    const isItem = first !== undefined && /^\d+$/.test(first);
    return {
      file,
      item: isItem ? Number(first) : undefined,
      field: isItem ? (rest.length ? fieldName(rest) : undefined) : segments.length ? fieldName(segments) : undefined,
      message: messages.join(" or "),
    };
  });
}

/** Validates parsed file content against one of the schemas; no problems means it conforms. */
export function checkSchema(name: SchemaName, file: string, data: unknown): Problem[] {
  validators ??= compile();
  const validate = validators[name];
  return validate(data) ? [] : problemsOf(file, validate.errors ?? []);
}

/**
 * Parses a YAML file as the JSON-compatible data the schemas speak: the core schema (so dates stay
 * strings, as Gitea's validation formats them), duplicate keys refused, aliases bounded.
 */
export function parseYaml(file: string, text: string): { data: unknown } | { problem: Problem } {
  try {
    return { data: parse(text, { schema: "core", uniqueKeys: true, maxAliasCount: 100, prettyErrors: false }) ?? null };
  } catch (err) {
    return { problem: { file, message: `not valid YAML: ${(err as Error).message.split("\n")[0]}` } };
  }
}
