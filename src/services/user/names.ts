import { isValidUsername } from "../../lib/username.ts";

export { isValidUsername };

/** Names that would collide with routes or system users (Gitea's reservedUsernames). */
const RESERVED = new Set([
  ".",
  "..",
  ".well-known",
  "api",
  "metrics",
  "v2",
  "assets",
  "attachments",
  "avatar",
  "avatars",
  "repo-avatars",
  "captcha",
  "login",
  "org",
  "repo",
  "user",
  "explore",
  "issues",
  "pulls",
  "milestones",
  "notifications",
  "favicon.ico",
  "manifest.json",
  "robots.txt",
  "sitemap.xml",
  "ssh_info",
  "swagger.v1.json",
  "ghost",
  "gitea-actions",
]);
const RESERVED_PATTERNS = ["*.keys", "*.gpg", "*.rss", "*.atom", "*.png"];

/** Returns Gitea's error text for a name that may not be used, or undefined when it may. */
export function usernameProblem(name: string): string | undefined {
  if (!isValidUsername(name)) {
    return `name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters`;
  }
  const lower = name.trim().toLowerCase();
  if (RESERVED.has(lower)) return `name is reserved [name: ${lower}]`;
  for (const p of RESERVED_PATTERNS) {
    if (lower.endsWith(p.slice(1))) return `name pattern is not allowed [pattern: ${p}]`;
  }
  return undefined;
}

const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+\-/=?^_`{|}~]*@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Gitea's ValidateEmail (without a domain allow/block list): its error text, or undefined. */
export function emailProblem(email: string): string | undefined {
  if (email === "" || email.startsWith("-") || !email.includes("@") || email.length > 254) {
    return `e-mail invalid [email: ${email}]`;
  }
  if (!EMAIL.test(email)) return `e-mail address contains unsupported character [email: ${email}]`;
  return undefined;
}
