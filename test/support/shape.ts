import * as v from "valibot";
import { expect } from "bun:test";

/**
 * Asserts a response body has the declared schema's fields with their types: every required field
 * present, no field the schema does not declare (omitempty fields are `v.optional` there).
 */
export function expectShape(body: unknown, schema: v.GenericSchema): void {
  const result = v.safeParse(schema, body);
  if (!result.success) {
    throw new Error(
      `response does not match schema: ${JSON.stringify(result.issues[0].path?.map((p) => p.key))} ${result.issues[0].message}`,
    );
  }
  const s = schema as unknown as { entries?: Record<string, { type: string }> };
  if (s.entries && body && typeof body === "object") {
    const declared = Object.keys(s.entries);
    const required = declared.filter((k) => s.entries![k]!.type !== "optional");
    const keys = Object.keys(body);
    expect(keys.filter((k) => !declared.includes(k))).toEqual([]);
    expect(required.filter((k) => !keys.includes(k))).toEqual([]);
  }
}
