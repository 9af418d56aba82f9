/** Gitea's user-name rules: alphanumerics, `-`, `_`, `.`; no leading special, no run of them, none last. */
const VALID = /^[\da-zA-Z][-.\w]*$/;
const INVALID = /[-._]{2,}|[-._]$/;

export function isValidUsername(name: string): boolean {
  return VALID.test(name) && !INVALID.test(name);
}
