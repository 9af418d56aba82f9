import * as v from "valibot";
import { expect } from "bun:test";

/** Asserts a response body has exactly the fields of the declared schema, with the declared types. */
export function expectShape(body: unknown, schema: v.GenericSchema): void {
  const result = v.safeParse(schema, body);
  if (!result.success) throw new Error(`response does not match schema: ${JSON.stringify(result.issues[0].path?.map((p) => p.key))} ${result.issues[0].message}`);
  const s = schema as unknown as { entries?: Record<string, unknown> };
  if (s.entries && body && typeof body === "object") {
    expect(Object.keys(body).sort()).toEqual(Object.keys(s.entries).sort());
  }
}
