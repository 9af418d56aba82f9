import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Invalid } from "../../lib/errors.ts";
import type { ReactionRecord } from "./format.ts";
import { checkSchema, describeProblem, parseYaml, type Problem, type SchemaName } from "./validate.ts";

/**
 * The checking tools every part of a dump's loader shares (load.ts, pull-load.ts, release-load.ts):
 * the problem collector and the checks of single fields. Kept apart from load.ts, which imports the
 * part loaders, so that they need not import it back.
 */

export class Collector {
  readonly problems: Problem[] = [];
  add(p: Problem): void {
    this.problems.push(p);
  }
  /** Fails with the first problem, and how many more there are, as one line. */
  throwIfAny(): void {
    const [first, ...rest] = this.problems;
    if (!first) return;
    const more = rest.length ? ` (and ${rest.length} more problem${rest.length > 1 ? "s" : ""})` : "";
    throw new Invalid(`${describeProblem(first)}${more}`);
  }
}

/** A dump file's parsed YAML; undefined when it is absent, or (with the problem recorded) when it does not parse. */
export function readYaml(c: Collector, dir: string, file: string): unknown {
  const path = join(dir, file);
  if (!existsSync(path)) return undefined;
  const parsed = parseYaml(file, readFileSync(path, "utf8"));
  if ("problem" in parsed) {
    c.add(parsed.problem);
    return undefined;
  }
  return parsed.data;
}

/** A file's parsed content checked against a schema; undefined (with problems recorded) when it does not conform. */
export function readChecked<T>(c: Collector, dir: string, file: string, schema: SchemaName): T[] | undefined {
  const data = readYaml(c, dir, file);
  if (data === undefined) return undefined;
  const problems = checkSchema(schema, file, data);
  problems.forEach((p) => c.add(p));
  return problems.length ? undefined : (data as T[]);
}

export const isId = (n: number) => Number.isSafeInteger(n);

/**
 * A conservative form of git's ref rules (check-ref-format), for an issue's `ref` and a release's
 * tag and target, which hearth later hands to git: Gitea's uploader drops one that fails
 * IsValidRefPattern; hearth refuses the dump instead, so nothing is lost silently.
 */
export function isValidRef(ref: string): boolean {
  return (
    ref.length <= 255 &&
    !ref.startsWith("-") &&
    !ref.startsWith("/") &&
    !ref.endsWith("/") &&
    !ref.endsWith(".") &&
    !ref.endsWith(".lock") &&
    !ref.includes("..") &&
    !ref.includes("//") &&
    !ref.includes("@{") &&
    !ref.split("/").some((part) => part.startsWith(".")) &&
    !/[\x00-\x20\x7f~^:?*[\\]/.test(ref)
  );
}

export function checkReactions(c: Collector, file: string, item: number, prefix: string, list: ReactionRecord[] | null | undefined): void {
  const seen = new Set<string>();
  (list ?? []).forEach((r, i) => {
    const field = `${prefix}reactions[${i}]`;
    if (!isId(r.user_id)) c.add({ file, item, field: `${field}.user_id`, message: "must be an integer" });
    if (!r.content.trim()) c.add({ file, item, field: `${field}.content`, message: "must not be empty" });
    const key = `${r.user_id}\0${r.content}`;
    if (seen.has(key)) c.add({ file, item, field, message: `duplicate reaction "${r.content}" by user ${r.user_id}` });
    seen.add(key);
  });
}

