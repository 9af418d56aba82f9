/** What stands where the user information of a URL was (Gitea's SanitizeCredentialURLs placeholder). */
export const MASKED_USERINFO = "(masked)";

// RFC 3986 userinfo: unreserved, sub-delims, ":" and percent escapes. Anything else (space, "/",
// quotes...) ends the authority, so "@" past it belongs to something other than this URL.
const USERINFO_CHAR = /[A-Za-z0-9\-._~!$&'()*+,;=:%]/;

/**
 * Masks the user information of every `scheme://user:pass@host` in a text (an error message from
 * git or a remote), found by the URL's structure: credentials are never looked for as substrings,
 * which would also mangle any word that happens to contain the password.
 */
export function maskUrlCredentials(text: string): string {
  let out = "";
  let rest = text;
  for (let sep = rest.indexOf("://"); sep !== -1; sep = rest.indexOf("://")) {
    const start = sep + 3;
    let end = start;
    let at = -1;
    for (; end < rest.length; end++) {
      const c = rest[end]!;
      if (c === "@") at = end;
      else if (!USERINFO_CHAR.test(c)) break;
    }
    out += at === -1 ? rest.slice(0, end) : `${rest.slice(0, start)}${MASKED_USERINFO}${rest.slice(at, end)}`;
    rest = rest.slice(end);
  }
  return out + rest;
}
