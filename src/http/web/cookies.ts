/** The cookies a request sent, by name (the first of a repeated name wins, as Go's Request.Cookie). */
export function readCookies(request: Request): Map<string, string> {
  const out = new Map<string, string>();
  const header = request.headers.get("cookie");
  if (!header) return out;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || out.has(name)) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    try {
      out.set(name, decodeURIComponent(value));
    } catch {
      out.set(name, value);
    }
  }
  return out;
}

export interface CookieOptions {
  /** Seconds; 0 deletes the cookie, undefined makes it last the browser session. */
  maxAge?: number;
  path: string;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: "lax" | "strict" | "none";
}

/** One Set-Cookie header value. */
export function setCookie(name: string, value: string, opts: CookieOptions): string {
  // Cookie values may hold `:` (the remember-me cookie's `{lookup}:{validator}`), kept readable.
  let out = `${name}=${encodeURIComponent(value).replace(/%3A/g, ":")}; Path=${opts.path}`;
  if (opts.maxAge !== undefined) {
    out += `; Max-Age=${opts.maxAge}`;
    if (opts.maxAge <= 0) out += "; Expires=Thu, 01 Jan 1970 00:00:00 GMT";
  }
  if (opts.httpOnly) out += "; HttpOnly";
  if (opts.secure) out += "; Secure";
  if (opts.sameSite) out += `; SameSite=${opts.sameSite[0]!.toUpperCase()}${opts.sameSite.slice(1)}`;
  return out;
}
