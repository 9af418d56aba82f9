/** Gitea's repository-name rules: word characters, `-` and `.`; some names and suffixes are reserved. */
const VALID = /^[-.\w]+$/;
const RESERVED = new Set([".", "..", "-"]);
const RESERVED_SUFFIXES = [".git", ".wiki", ".rss", ".atom"];

export const MAX_REPO_NAME_LENGTH = 100;

/** Gitea's error text for a name a repository may not have, or undefined when it may. */
export function repoNameProblem(name: string): string | undefined {
  if (!name) return "[Name]: Required";
  if (!VALID.test(name)) return "[Name]: AlphaDashDot";
  if (name.length > MAX_REPO_NAME_LENGTH) return "[Name]: MaxSize";
  if (name.includes("..")) return `name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters`;
  const lower = name.toLowerCase();
  if (RESERVED.has(lower)) return `name is reserved [name: ${lower}]`;
  for (const suffix of RESERVED_SUFFIXES) {
    if (lower.endsWith(suffix)) return `name pattern is not allowed [pattern: *${suffix}]`;
  }
  return undefined;
}
