import type { GenericSchema } from "valibot";

/** Schemas with a name become `#/definitions/Name` in the API document, as in Gitea's. */
const registry = new Map<string, GenericSchema>();

export function named<T extends GenericSchema>(name: string, schema: T): T {
  if (registry.has(name) && registry.get(name) !== schema) throw new Error(`schema ${name} declared twice`);
  registry.set(name, schema);
  return schema;
}

export function namedSchemas(): Record<string, GenericSchema> {
  return Object.fromEntries(registry);
}
