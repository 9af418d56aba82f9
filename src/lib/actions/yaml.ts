/**
 * Reading workflow YAML the way Gitea's go-yaml v3 does where it shows: duplicate keys and several
 * documents (the first one counts), `<<` merge keys, YAML 1.2 scalars (so `on` stays a string key) — and
 * the source text of plain scalars, because go-yaml decoding `go-version: 1.20` into a Go string (env,
 * a step's `with`, outputs) keeps "1.20" where a number would become 1.2.
 *
 * Bun.YAML.parse cannot give either (it lets a later duplicate key win and has no source text), so
 * parsing goes through the `yaml` package; writing payloads stays with Bun.YAML.stringify.
 */

import { isAlias, isMap, isScalar, isSeq, parseAllDocuments, type Document, type Node } from "yaml";
import { WorkflowError } from "./errors.ts";

const RAW = Symbol("yaml plain scalar source");

type RawTexts = Record<string, string>;

function attachRaw(node: unknown, value: unknown, doc: Document): void {
  if (isAlias(node)) node = node.resolve(doc);
  // An anchored value appears once in the result however often it is referenced: mark it once.
  if (value === null || typeof value !== "object" || Object.hasOwn(value, RAW)) return;
  const raw: RawTexts = {};
  const visit = (child: unknown, key: string, childValue: unknown) => {
    if (isAlias(child)) child = child.resolve(doc);
    if (isScalar(child)) {
      // go-yaml decodes a plain scalar into a string as written; quoted and block ones by their value
      if (child.type === "PLAIN" && child.value !== null && typeof child.value !== "string" && child.source !== undefined) {
        raw[key] = child.source;
      } else {
        delete raw[key];
      }
    } else {
      attachRaw(child, childValue, doc);
    }
  };
  const visitMap = (map: unknown) => {
    if (isAlias(map)) map = map.resolve(doc);
    if (!isMap(map)) return;
    // `<<` merges come first so the mapping's own keys win, as they do in the value
    for (const pair of map.items) {
      if (isScalar(pair.key) && pair.key.value === "<<") {
        const sources = isSeq(pair.value) ? pair.value.items : [pair.value];
        sources.forEach(visitMap);
      }
    }
    for (const pair of map.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
      if (key === undefined || key === "<<") continue;
      visit(pair.value, key, (value as Record<string, unknown>)[key]);
    }
  };
  if (isMap(node) && !Array.isArray(value)) visitMap(node);
  else if (isSeq(node) && Array.isArray(value)) node.items.forEach((item, i) => visit(item, String(i), value[i]));
  else return;
  Object.defineProperty(value, RAW, { value: raw, enumerable: false });
}

/**
 * Parses the first YAML document (null for an empty stream); throws `WorkflowError` naming the line of
 * the first syntax error or duplicate key.
 */
export function parseYaml(content: string, what: string): unknown {
  const parsed = parseAllDocuments(content, { version: "1.2", merge: true, uniqueKeys: true, prettyErrors: true });
  const docs = Array.isArray(parsed) ? parsed : [];
  const doc = docs[0];
  if (!doc) return null;
  const error = doc.errors[0];
  if (error) throw new WorkflowError(`${what} is not valid YAML: ${error.message.trim()}`);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw new WorkflowError(`${what} is not valid YAML: ${(err as Error).message}`);
  }
  attachRaw(doc.contents as Node | null, value, doc);
  return value;
}

/**
 * A value as go-yaml decodes it into a Go string: a plain scalar as written (`1.10`, `0x1F`, `True`),
 * null as "", anything else by its value. `container[key]` must come from `parseYaml`'s result to keep the
 * written text; other values print as JavaScript does.
 */
export function stringAt(container: object, key: string | number): string | undefined {
  const raw = (container as { [RAW]?: RawTexts })[RAW]?.[String(key)];
  if (raw !== undefined) return raw;
  const v = (container as Record<string, unknown>)[String(key)];
  if (v === null || v === undefined) return v === null ? "" : undefined;
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return String(v);
  return undefined;
}

/**
 * A mapping as go-yaml decodes it into Go's map[string]string: each value its written text, keys sorted
 * (Go maps marshal that way). Undefined when a value is a list or mapping.
 */
export function stringMap(v: unknown): Record<string, string> | undefined {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  const out: Record<string, string> = {};
  for (const key of Object.keys(v).sort()) {
    const s = stringAt(v, key);
    if (s === undefined) return undefined;
    out[key] = s;
  }
  return out;
}
