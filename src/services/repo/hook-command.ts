import { join } from "node:path";

/**
 * How git hooks run hearth itself: the compiled executable directly, or, from a checkout, bun with
 * src/main.ts. Computed from where this code runs, so tests and `npm start` get working hooks too.
 */
export function selfCommand(): string[] {
  const compiled = import.meta.path.startsWith("/$bunfs/") || import.meta.path.startsWith("B:\\~BUN");
  return compiled ? [process.execPath] : [process.execPath, join(import.meta.dir, "..", "..", "main.ts")];
}
