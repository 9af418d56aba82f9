import * as v from "valibot";
import { toJsonSchema, type ConversionConfig } from "@valibot/to-json-schema";
import type { AnyOperation } from "./route.ts";
import { namedSchemas } from "../shapes/registry.ts";
import { VERSION } from "../version.ts";

type Json = Record<string, unknown>;

/**
 * Builds the Swagger 2.0 document, shaped like Gitea's `/swagger.v1.json`, from the operation
 * declarations themselves: paths, Gitea's operationIds, parameters, bodies and response schemas.
 * Nothing here is written by hand per route, so the document cannot drift from what is served.
 *
 * Named schemas (schemas/registry.ts) become `definitions`, referenced as `#/definitions/Name`
 * wherever a declaration uses them, so each is written once. The converter speaks JSON Schema
 * draft-07; `swaggerSchema` maps what Swagger 2.0 cannot say (type lists, `null`, `const`,
 * `anyOf`/`oneOf`) onto what it can.
 */
export function buildSwagger(ops: readonly AnyOperation[], rootUrl: string): Json {
  const defs = namedSchemas();
  const converted = convertAll(ops, defs);
  const schemaOf = (s: v.GenericSchema) => swaggerSchema(converted.get(s) ?? {});

  const definitions: Json = {};
  for (const name of Object.keys(converted.definitions).sort()) {
    definitions[name] = swaggerSchema(converted.definitions[name] as Json);
  }

  const paths: Record<string, Json> = {};
  for (const op of ops) {
    const { path, pathParams } = documentPath(op);
    const parameters: Json[] = [];
    const params = op.params ? schemaOf(op.params) : {};
    const paramProps = (params.properties ?? {}) as Record<string, Json>;
    for (const { routerName, docName, values } of pathParams) {
      const declared = paramProps[routerName] ?? {};
      parameters.push({
        ...simpleParameter(values ? { ...declared, type: "string", enum: [...values] } : declared, false),
        name: docName,
        in: "path",
        required: true,
      });
    }
    if (op.query) {
      const query = schemaOf(op.query);
      const required = new Set((query.required ?? []) as string[]);
      for (const [name, prop] of Object.entries((query.properties ?? {}) as Record<string, Json>)) {
        parameters.push({ ...simpleParameter(prop, true), name, in: "query", ...(required.has(name) ? { required: true } : {}) });
      }
    }
    const operation: Json = {
      tags: [op.tag],
      summary: op.summary,
      operationId: op.operationId,
      parameters,
      responses: responses(op, schemaOf),
      "x-hearth-scope": op.access.scope,
    };
    if (op.multipartFile) {
      // Swagger 2.0 has no body next to form fields: the upload's file is a formData parameter.
      operation.consumes = ["multipart/form-data"];
      parameters.push({ name: op.multipartFile, in: "formData", type: "file", required: true });
    } else if (op.bodyText && op.body) {
      operation.consumes = ["text/plain"];
      parameters.push({ name: "body", in: "body", required: true, schema: schemaOf(op.body) });
    } else if (op.body) {
      parameters.push({ name: "body", in: "body", schema: schemaOf(op.body) });
    }
    if (op.produces) operation.produces = [op.produces];
    (paths[path] ??= {})[op.method.toLowerCase()] = operation;
  }

  return {
    swagger: "2.0",
    info: {
      title: "hearth API",
      description: "This documentation describes the Gitea-compatible API served by hearth.",
      license: { name: "MIT", url: "http://opensource.org/licenses/MIT" },
      version: VERSION.api,
    },
    // Relative to the host serving the document, like Gitea's: a sub-path in ROOT_URL is kept.
    basePath: `${new URL(rootUrl).pathname.replace(/\/$/, "")}/api/v1`,
    consumes: ["application/json", "text/plain"],
    produces: ["application/json", "text/html"],
    paths,
    definitions,
    securityDefinitions: SECURITY_DEFINITIONS,
    security: Object.keys(SECURITY_DEFINITIONS).map((name) => ({ [name]: [] })),
  };
}

// Gitea's schemes, in Gitea's order and wording (the query tokens are deprecated there).
const DEPRECATED_QUERY_TOKEN = "This authentication option is deprecated for removal in Gitea 1.23. Please use AuthorizationHeaderToken instead.";
const SUDO = "Sudo API request as the user provided as the key. Admin privileges are required.";
const SECURITY_DEFINITIONS: Json = {
  BasicAuth: { type: "basic" },
  Token: { description: DEPRECATED_QUERY_TOKEN, type: "apiKey", name: "token", in: "query" },
  AccessToken: { description: DEPRECATED_QUERY_TOKEN, type: "apiKey", name: "access_token", in: "query" },
  AuthorizationHeaderToken: {
    description: 'API tokens must be prepended with "token" followed by a space.',
    type: "apiKey",
    name: "Authorization",
    in: "header",
  },
  SudoParam: { description: SUDO, type: "apiKey", name: "sudo", in: "query" },
  SudoHeader: { description: SUDO, type: "apiKey", name: "Sudo", in: "header" },
  TOTPHeader: {
    description: "Must be used in combination with BasicAuth if two-factor authentication is enabled.",
    type: "apiKey",
    name: "X-GITEA-OTP",
    in: "header",
  },
};

/**
 * Converts every schema the operations use in one pass. Each `toJsonSchema` call converts all
 * definitions again and attaches them as `$defs`; per schema that made the document 41 MB. So the
 * schemas go in as the entries of one object, and come out as its properties, referring to the
 * definitions converted once beside them.
 */
function convertAll(ops: readonly AnyOperation[], defs: Record<string, v.GenericSchema>) {
  const schemas = new Set<v.GenericSchema>();
  for (const op of ops) {
    for (const s of [op.params, op.query, op.body, ...Object.values(op.responses)]) if (s) schemas.add(s);
  }
  const keys = new Map<v.GenericSchema, string>();
  for (const s of schemas) keys.set(s, `s${keys.size}`);
  const config: ConversionConfig = {
    target: "draft-07",
    errorMode: "ignore",
    definitions: defs,
    overrideRef: ({ referenceId }) => `#/definitions/${referenceId}`,
    overrideAction: ({ valibotAction, jsonSchema }) => {
      // Query integers and booleans arrive as strings; their metadata says what they are, which
      // is the type Gitea's document gives them.
      const meta = valibotAction as { type: string; metadata?: { format?: string } };
      const format = meta.type === "metadata" ? meta.metadata?.format : undefined;
      if (format === "integer" || format === "boolean") {
        const { format: _drop, ...rest } = jsonSchema;
        return { ...rest, type: format };
      }
      return undefined;
    },
  };
  const all = v.object(Object.fromEntries([...keys].map(([s, key]) => [key, s])));
  const json = toJsonSchema(all, config) as { properties: Record<string, Json>; $defs?: Record<string, Json> };
  return {
    definitions: json.$defs ?? {},
    get: (s: v.GenericSchema): Json | undefined => json.properties[keys.get(s) ?? ""],
  };
}

/** Gitea's path (`{owner}`, `{filepath}`, `{index}.{diffType}`) and its parameters in order. */
function documentPath(op: AnyOperation) {
  const pathParams: { routerName: string; docName: string; values?: readonly string[] }[] = [];
  let path = op.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const docName = op.docNames?.[name] ?? name;
    pathParams.push({ routerName: name, docName });
    return `{${docName}}`;
  });
  if (path.endsWith("/*")) {
    const docName = op.wildcard ?? "path";
    pathParams.push({ routerName: "*", docName });
    path = `${path.slice(0, -1)}{${docName}}`;
  }
  if (op.suffix) {
    pathParams.push({ routerName: op.suffix.name, docName: op.suffix.name, values: op.suffix.values });
    path += `.{${op.suffix.name}}`;
  }
  return { path, pathParams };
}

function responses(op: AnyOperation, schemaOf: (s: v.GenericSchema) => Json): Json {
  const out: Json = {};
  for (const [status, schema] of Object.entries(op.responses)) {
    out[status] = schema ? { description: op.summary, schema: schemaOf(schema) } : { description: "empty" };
  }
  out.default = { description: "error", schema: { $ref: "#/definitions/APIError" } };
  return out;
}

// What a path, query or form parameter may carry in Swagger 2.0 besides name, in and required.
const PARAMETER_KEYWORDS = [
  "description", "type", "format", "items", "collectionFormat", "default", "enum", "pattern", "minimum", "maximum",
  "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "multipleOf",
];

/**
 * A parameter outside the body has a primitive type (or an array of one) and no `$ref`: anything
 * else a declaration says is passed as a string, which it is on the wire. A repeated query
 * parameter (`labels=a&labels=b`) is Gitea's `collectionFormat: multi`.
 */
function simpleParameter(schema: Json, repeatable: boolean): Json {
  const out: Json = {};
  for (const key of PARAMETER_KEYWORDS) if (schema[key] !== undefined) out[key] = schema[key];
  if (!["string", "number", "integer", "boolean", "array"].includes(out.type as string)) {
    delete out.format;
    out.type = "string";
  }
  if (out.type === "array") {
    out.items = simpleParameter((schema.items ?? {}) as Json, false);
    delete (out.items as Json).collectionFormat;
    out.collectionFormat = repeatable ? "multi" : "csv";
  }
  return out;
}

// Schema keywords Swagger 2.0 shares with JSON Schema (draft-04 subset) that pass through as they are.
const SCHEMA_KEYWORDS = new Set([
  "title", "description", "format", "default", "multipleOf", "maximum", "minimum", "maxLength", "minLength", "pattern",
  "maxItems", "minItems", "uniqueItems", "maxProperties", "minProperties", "enum", "readOnly", "example",
]);

/**
 * Maps a converted JSON Schema (draft-07) onto Swagger 2.0's schema object: one `type`
 * (a `null` in it becomes `x-nullable`), `const` as a one-value `enum`, no `anyOf`/`oneOf`
 * (see `mergeAlternatives`), numeric `exclusiveMinimum`/`exclusiveMaximum` as draft-04 flags,
 * and nothing Swagger 2.0 does not know (`propertyNames`, `not`, `$defs`, tuples' item lists).
 */
export function swaggerSchema(schema: Json): Json {
  if (typeof schema.$ref === "string") return { $ref: schema.$ref };
  const alternatives = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (alternatives) {
    const { anyOf: _a, oneOf: _o, ...rest } = schema;
    return { ...swaggerSchema(rest), ...mergeAlternatives(alternatives.map(swaggerSchema)) };
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (SCHEMA_KEYWORDS.has(key) || key.startsWith("x-")) out[key] = value;
  }
  const types = (Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type]) as string[];
  if (types.includes("null")) out["x-nullable"] = true;
  const nonNull = types.filter((t) => t !== "null");
  // A list of several types has no Swagger 2.0 spelling: such a value is left untyped.
  if (nonNull.length === 1) out.type = nonNull[0];
  if (schema.const !== undefined) {
    out.enum = [schema.const];
    out.type ??= jsonType(schema.const);
  }
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties as Record<string, Json>).map(([name, prop]) => [name, swaggerSchema(prop)]),
    );
  }
  if (Array.isArray(schema.required) && schema.required.length > 0) out.required = schema.required;
  if (Array.isArray(schema.items)) {
    out.items = schema.items.length ? mergeAlternatives((schema.items as Json[]).map(swaggerSchema)) : {};
  } else if (schema.items) {
    out.items = swaggerSchema(schema.items as Json);
  } else if (out.type === "array") {
    out.items = {};
  }
  if (typeof schema.additionalProperties === "boolean") out.additionalProperties = schema.additionalProperties;
  else if (schema.additionalProperties) out.additionalProperties = swaggerSchema(schema.additionalProperties as Json);
  if (Array.isArray(schema.allOf)) out.allOf = (schema.allOf as Json[]).map(swaggerSchema);
  for (const [exclusive, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
    if (typeof schema[exclusive] === "number") {
      out[bound] = schema[exclusive];
      out[exclusive] = true;
    }
  }
  return out;
}

/**
 * One Swagger 2.0 schema for "any of these": a `null` alternative makes the rest nullable; one
 * left is itself; a value or a list of such values (Gitea accepts both for some fields) is the
 * list; alternatives of one type are that type, their enums joined when all have one; objects
 * have each alternative's properties, required where all require them. Alternatives of
 * different types are left untyped.
 */
function mergeAlternatives(alternatives: Json[]): Json {
  const isNull = (s: Json) => s.type === undefined && s["x-nullable"] === true && Object.keys(s).length === 1;
  const rest = alternatives.filter((s) => !isNull(s));
  const nullable = rest.length < alternatives.length ? { "x-nullable": true } : {};
  if (rest.length === 0) return nullable;
  if (rest.length === 1) return { ...rest[0], ...nullable };

  const list = rest.find((s) => s.type === "array");
  if (list && rest.length === 2) {
    const single = rest.find((s) => s !== list) as Json;
    const item = (list.items ?? {}) as Json;
    if (single.type === item.type && (single.$ref ?? null) === (item.$ref ?? null)) return { ...list, ...nullable };
  }

  const types = new Set(rest.map((s) => s.type));
  if (types.size !== 1 || types.has(undefined)) return nullable;
  const merged: Json = { type: rest[0]!.type, ...nullable };
  if (rest.every((s) => Array.isArray(s.enum))) merged.enum = [...new Set(rest.flatMap((s) => s.enum as unknown[]))];
  if (merged.type === "object") {
    const properties: Json = {};
    for (const s of rest) for (const [k, p] of Object.entries((s.properties ?? {}) as Json)) properties[k] ??= p;
    merged.properties = properties;
    const required = rest
      .map((s) => (s.required ?? []) as string[])
      .reduce((a, b) => a.filter((k) => b.includes(k)));
    if (required.length) merged.required = required;
  }
  if (merged.type === "array") merged.items = rest[0]!.items ?? {};
  return merged;
}

function jsonType(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return typeof value;
    case "number":
      return Number.isInteger(value) ? "integer" : "number";
    default:
      return undefined;
  }
}
