import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const HOOK_NAMES = ["pre-receive", "post-receive"] as const;
export type HookName = (typeof HOOK_NAMES)[number];

/** Quotes a word for /bin/sh. */
function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Writes hooks that hand each push to the running server through `hearth hook <name>`.
 * `command` is how to run hearth itself (the executable, or bun with src/main.ts); it is
 * rewritten by `hearth admin regenerate hooks` when the executable moves.
 */
export function installHooks(repoPath: string, command: string[] | string): void {
  const cmd = typeof command === "string" ? command : command.map(shellQuote).join(" ");
  const dir = join(repoPath, "hooks");
  mkdirSync(dir, { recursive: true });
  for (const name of HOOK_NAMES) {
    const file = join(dir, name);
    writeFileSync(file, `#!/bin/sh\n# Written by hearth: do not edit.\nexec ${cmd} hook ${name}\n`);
    chmodSync(file, 0o755);
  }
}
