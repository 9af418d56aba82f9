import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** bench/RESULTS.md: each script keeps its own section there, between `<!-- NAME:begin… -->` and `<!-- NAME:end -->`. */
export const RESULTS_PATH = join(import.meta.dir, "..", "RESULTS.md");

/** `text` with its section NAME replaced by `section`, or with `section` appended when it has none. */
export function withSection(text: string, name: string, section: string): string {
  const marker = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(`<!-- ${marker}:begin[\\s\\S]*?<!-- ${marker}:end -->\\n?`);
  const body = section.endsWith("\n") ? section : `${section}\n`;
  return re.test(text) ? text.replace(re, () => body) : `${text.trimEnd()}\n\n${body}`;
}

/** Writes `section` as the section NAME of RESULTS.md; every other part of the file stays as it is. */
export function writeResultsSection(name: string, section: string): void {
  const text = existsSync(RESULTS_PATH) ? readFileSync(RESULTS_PATH, "utf8") : "# Benchmark results\n";
  writeFileSync(RESULTS_PATH, withSection(text, name, section));
}
