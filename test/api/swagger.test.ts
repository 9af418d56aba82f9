import { describe, expect, test } from "bun:test";
import Ajv from "ajv-draft-04";
import { makeTestApp } from "../support/app.ts";
import { acceptsGzip } from "../../src/http/precompressed.ts";
import { swaggerSchema } from "../../src/http/swagger.ts";
// The Swagger 2.0 schema of the OpenAPI Initiative (OAI/OpenAPI-Specification, schemas/v2.0/schema.json, Apache-2.0).
import swagger20Schema from "../support/swagger-2.0.schema.json";

const t = makeTestApp("[server]\nROOT_URL = http://hearth.test/sub/\n");

type Doc = {
  swagger: string;
  basePath: string;
  paths: Record<string, Record<string, { operationId: string; parameters: { name: string; in: string; required?: boolean }[] }>>;
  definitions: Record<string, unknown>;
  securityDefinitions: Record<string, { description?: string }>;
  security: Record<string, string[]>[];
};

const fetchDoc = async (headers: Record<string, string> = {}) => {
  const res = await t.request("GET", "/swagger.v1.json", { headers });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
};

describe("/swagger.v1.json", () => {
  test("is a Swagger 2.0 document shaped like Gitea's, under 2 MB", async () => {
    const { res, bytes } = await fetchDoc();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json;charset=utf-8");
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(bytes.length).toBeLessThan(2 * 1024 * 1024);
    const doc = JSON.parse(new TextDecoder().decode(bytes)) as Doc;
    expect(doc.swagger).toBe("2.0");
    // ROOT_URL's sub-path comes first, as in Gitea's document.
    expect(doc.basePath).toBe("/sub/api/v1");
    expect(Object.keys(doc.securityDefinitions).sort()).toEqual(
      ["AccessToken", "AuthorizationHeaderToken", "BasicAuth", "SudoHeader", "SudoParam", "TOTPHeader", "Token"],
    );
    expect(doc.securityDefinitions.Token!.description).toContain("deprecated");
    expect(doc.securityDefinitions.AccessToken!.description).toContain("deprecated");
    expect(doc.security).toContainEqual({ AuthorizationHeaderToken: [] });
    expect(doc.paths["/repos/{owner}/{repo}"]!.get!.operationId).toBe("repoGet");
  });

  test("validates against the Swagger 2.0 JSON Schema", async () => {
    const doc = JSON.parse(new TextDecoder().decode((await fetchDoc()).bytes));
    // The schema's `uri` and `regex` formats have no checker in ajv itself; strict would refuse them.
    const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
    const validate = ajv.compile(swagger20Schema);
    validate(doc);
    expect(validate.errors ?? []).toEqual([]);
    // The schema does bite: an OpenAPI 3 style body is refused.
    const op = doc.paths["/repos/{owner}/{repo}"].patch;
    expect(validate({ ...doc, paths: { "/x": { patch: { ...op, requestBody: {} } } } })).toBe(false);
  });

  test("every $ref resolves, operationIds are unique, every path parameter is declared once", async () => {
    const text = new TextDecoder().decode((await fetchDoc()).bytes);
    const doc = JSON.parse(text) as Doc;
    const refs = [...text.matchAll(/"\$ref":"([^"]*)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(100);
    expect(refs.filter((r) => !r.startsWith("#/definitions/") || !(r.slice("#/definitions/".length) in doc.definitions))).toEqual([]);
    // Named schemas are shared, never copied into each use.
    expect(text).not.toContain("$defs");

    const ids = new Set<string>();
    const problems: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      for (const [method, op] of Object.entries(item)) {
        if (ids.has(op.operationId)) problems.push(`${op.operationId} twice`);
        ids.add(op.operationId);
        const declared = op.parameters.filter((p) => p.in === "path");
        const names = declared.map((p) => p.name);
        if (names.join() !== inPath.join()) problems.push(`${method} ${path}: path parameters ${names.join()}`);
        if (declared.some((p) => p.required !== true)) problems.push(`${method} ${path}: optional path parameter`);
        if (op.parameters.filter((p) => p.in === "body").length > 1) problems.push(`${method} ${path}: two bodies`);
      }
    }
    expect(problems).toEqual([]);
  });

  test("is gzip-compressed for clients that accept it, the same document either way", async () => {
    const plain = await fetchDoc();
    const zipped = await fetchDoc({ "Accept-Encoding": "gzip, deflate, br" });
    expect(plain.res.headers.get("vary")).toBe("Accept-Encoding");
    expect(zipped.res.headers.get("vary")).toBe("Accept-Encoding");
    expect(zipped.res.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.bytes.length).toBeLessThan(plain.bytes.length / 4);
    expect(Bun.gunzipSync(zipped.bytes)).toEqual(plain.bytes);
    const refused = await fetchDoc({ "Accept-Encoding": "gzip;q=0, identity" });
    expect(refused.res.headers.get("content-encoding")).toBeNull();
  });

  test("Accept-Encoding is read with its qvalues", () => {
    expect(acceptsGzip(null)).toBe(false);
    expect(acceptsGzip("identity")).toBe(false);
    expect(acceptsGzip("GZIP")).toBe(true);
    expect(acceptsGzip("br;q=1.0, gzip;q=0.5")).toBe(true);
    expect(acceptsGzip("gzip;q=0")).toBe(false);
    expect(acceptsGzip("gzip; q=0.000, *")).toBe(false);
    expect(acceptsGzip("*")).toBe(true);
    expect(acceptsGzip("*;q=0")).toBe(false);
    expect(acceptsGzip("x-gzip")).toBe(true);
  });
});

describe("JSON Schema to Swagger 2.0", () => {
  test("null in a type list or as an alternative is x-nullable", () => {
    expect(swaggerSchema({ type: ["string", "null"] })).toEqual({ type: "string", "x-nullable": true });
    expect(swaggerSchema({ anyOf: [{ type: "integer", minimum: 1 }, { type: "null" }] })).toEqual({ type: "integer", minimum: 1, "x-nullable": true });
    expect(swaggerSchema({ anyOf: [{ $ref: "#/definitions/User" }, { type: "null" }] })).toEqual({ $ref: "#/definitions/User", "x-nullable": true });
  });

  test("const is a one-value enum, alternatives of one type join their enums", () => {
    expect(swaggerSchema({ const: "open" })).toEqual({ type: "string", enum: ["open"] });
    expect(swaggerSchema({ oneOf: [{ const: "open" }, { const: "closed" }] })).toEqual({ type: "string", enum: ["open", "closed"] });
    // A literal "" or a URL: a string, not an enum of one.
    expect(swaggerSchema({ anyOf: [{ const: "" }, { type: "string", format: "uri" }] })).toEqual({ type: "string" });
  });

  test("a value or a list of them is the list; unrelated alternatives are left untyped", () => {
    const list = { type: "array", items: { type: "string" } };
    expect(swaggerSchema({ anyOf: [{ type: "string" }, list] })).toEqual(list);
    expect(swaggerSchema({ anyOf: [{ type: "string" }, { type: "boolean" }] })).toEqual({});
    expect(swaggerSchema({ type: ["string", "number"] })).toEqual({});
  });

  test("objects: empty required lists, propertyNames and numeric exclusive bounds are mapped", () => {
    expect(
      swaggerSchema({
        type: "object",
        properties: { n: { type: "number", exclusiveMinimum: 0 } },
        required: [],
        propertyNames: { type: "string" },
        additionalProperties: { type: "string" },
      }),
    ).toEqual({
      type: "object",
      properties: { n: { type: "number", minimum: 0, exclusiveMinimum: true } },
      additionalProperties: { type: "string" },
    });
  });
});
