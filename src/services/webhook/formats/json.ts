/**
 * Bodies as Gitea's json.MarshalIndent(payload, "", "  ") writes them: two-space indentation and
 * `<`, `>`, `&`, U+2028 and U+2029 escaped inside strings (Go's HTML-safe encoding). Receivers
 * parse JSON either way; matching the bytes keeps Matrix transaction ids and signatures the same
 * as Gitea's for the same payload.
 */
const GO_ESCAPES: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

export function goJSON(value: unknown): string {
  // The escaped characters never occur in JSON outside strings, so replacing them everywhere is exact.
  return JSON.stringify(value, null, 2).replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c] ?? c);
}
