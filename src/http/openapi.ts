import * as v from "valibot";
import { toJsonSchema, type ConversionConfig } from "@valibot/to-json-schema";
import type { AnyOperation } from "./route.ts";
import { namedSchemas } from "./schemas/registry.ts";
import { VERSION } from "../version.ts";

type Json = Record<string, unknown>;

/**
 * Builds the OpenAPI 3.1 document from the operation declarations themselves: paths, Gitea's
 * operationIds, parameters, request bodies and response schemas (named schemas as components).
 * Nothing here is written by hand per route, so the document cannot drift from what is served.
 */
export function buildOpenAPI(ops: readonly AnyOperation[], rootUrl: string): Json {
  const defs = namedSchemas();
  const config: ConversionConfig = {
    target: "draft-2020-12",
    errorMode: "ignore",
    definitions: defs,
    overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
    overrideAction: ({ valibotAction, jsonSchema }) => {
      const meta = valibotAction as { type: string; metadata?: { format?: string } };
      if (meta.type === "metadata" && meta.metadata?.format === "integer") return { ...jsonSchema, type: "integer" };
      return undefined;
    },
  };
  const convert = (s: v.GenericSchema): Json => {
    const { $schema: _drop, ...rest } = toJsonSchema(s, config) as Json;
    return rest;
  };

  const components: Json = {};
  for (const [name, schema] of Object.entries(defs)) {
    // Convert each named schema without referencing itself.
    const { [name]: _self, ...others } = defs;
    const { $schema: _drop, ...rest } = toJsonSchema(schema, { ...config, definitions: others }) as Json;
    components[name] = rest;
  }

  const paths: Record<string, Json> = {};
  for (const op of ops) {
    const wildcardName = op.wildcard ?? "path";
    const docName = (name: string) => op.docNames?.[name] ?? name;
    let path = op.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => `{${docName(name)}}`).replace(/\/\*$/, `/{${wildcardName}}`);
    if (op.suffix) path += `.{${op.suffix.name}}`;
    const parameters: Json[] = [];
    for (const [where, schema] of [
      ["path", op.params],
      ["query", op.query],
    ] as const) {
      if (!schema) continue;
      const json = convert(schema) as { properties?: Record<string, Json>; required?: string[] };
      for (const [key, prop] of Object.entries(json.properties ?? {})) {
        const name = key === "*" ? wildcardName : where === "path" ? docName(key) : key;
        parameters.push({
          name,
          in: where,
          required: where === "path" || (json.required ?? []).includes(key),
          schema: prop,
        });
      }
    }
    const responses: Json = {};
    for (const [status, schema] of Object.entries(op.responses)) {
      responses[status] = schema
        ? { description: op.summary, content: { "application/json": { schema: convert(schema) } } }
        : { description: "empty" };
    }
    responses.default = {
      description: "error",
      content: { "application/json": { schema: { $ref: "#/components/schemas/APIError" } } },
    };
    const operation: Json = {
      operationId: op.operationId,
      tags: [op.tag],
      summary: op.summary,
      parameters,
      responses,
      "x-hearth-scope": op.access.scope,
    };
    if (op.body) {
      operation.requestBody = { required: true, content: { "application/json": { schema: convert(op.body) } } };
    }
    if (op.multipartFile) {
      const schema = { type: "object", required: [op.multipartFile], properties: { [op.multipartFile]: { type: "string", format: "binary" } } };
      operation.requestBody = { required: true, content: { "multipart/form-data": { schema } } };
    }
    (paths[path] ??= {})[op.method.toLowerCase()] = operation;
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "hearth API",
      description: "Gitea-compatible API served by hearth.",
      version: VERSION.api,
      license: { name: "MIT", url: "http://opensource.org/licenses/MIT" },
    },
    servers: [{ url: `${rootUrl}api/v1` }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        BasicAuth: { type: "http", scheme: "basic" },
        AuthorizationHeaderToken: {
          type: "apiKey",
          in: "header",
          name: "Authorization",
          description: "API tokens must be prepended with \"token\" followed by a space.",
        },
        Token: { type: "apiKey", in: "query", name: "token", deprecated: true },
        AccessToken: { type: "apiKey", in: "query", name: "access_token", deprecated: true },
        SudoParam: { type: "apiKey", in: "query", name: "sudo" },
        SudoHeader: { type: "apiKey", in: "header", name: "Sudo" },
        TOTPHeader: { type: "apiKey", in: "header", name: "X-GITEA-OTP" },
      },
    },
    security: [
      { BasicAuth: [] },
      { AuthorizationHeaderToken: [] },
      { Token: [] },
      { AccessToken: [] },
      { SudoParam: [] },
      { SudoHeader: [] },
      { TOTPHeader: [] },
    ],
  };
}
