import type { TestApp } from "./app.ts";

/**
 * A browser-like client of the web pages for HTTP-level tests: it keeps cookies, sends forms as a
 * same-origin browser does (Sec-Fetch-Site) and reads `_csrf` from the form it was shown.
 */
export class WebClient {
  readonly cookies = new Map<string, string>();

  constructor(private readonly t: TestApp) {}

  private remember(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=(0|-)/i.test(a));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, decodeURIComponent(value));
    }
  }

  private cookieHeader(): Record<string, string> {
    if (!this.cookies.size) return {};
    return { Cookie: [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ") };
  }

  /** A GET as a browser sends it (no redirects followed: the answer is returned as it came). */
  async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    const res = await this.t.request("GET", path, { headers: { ...this.cookieHeader(), ...headers } });
    this.remember(res);
    return res;
  }

  /** The page's text after a GET that must answer `status`. */
  async page(path: string, status = 200): Promise<string> {
    const res = await this.get(path);
    const text = await res.text();
    if (res.status !== status) throw new Error(`GET ${path}: ${res.status}, wanted ${status}\n${text.slice(0, 2000)}`);
    return text;
  }

  /** A same-origin form post with `fields` (and the `_csrf` cookie's value unless `csrf: false`). */
  async post(
    path: string,
    fields: Record<string, string | string[]> | FormData,
    opts: { csrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    let body: string | FormData;
    const headers: Record<string, string> = { "Sec-Fetch-Site": "same-origin", ...this.cookieHeader(), ...opts.headers };
    if (fields instanceof FormData) {
      if (opts.csrf !== false && this.cookies.get("_csrf")) fields.set("_csrf", this.cookies.get("_csrf")!);
      body = fields;
    } else {
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
      if (opts.csrf !== false && this.cookies.get("_csrf")) form.set("_csrf", this.cookies.get("_csrf")!);
      body = form.toString();
      headers["Content-Type"] = "application/x-www-form-urlencoded";
    }
    const res = await this.t.request("POST", path, { headers, body });
    this.remember(res);
    return res;
  }

  /** Signs in through /user/login; the answer must be a redirect. */
  async signIn(userName: string, password = "password123", remember = false): Promise<Response> {
    await this.get("/user/login");
    const res = await this.post("/user/login", { user_name: userName, password, ...(remember ? { remember: "on" } : {}) });
    if (res.status !== 303) throw new Error(`sign-in of ${userName}: ${res.status}\n${(await res.text()).slice(0, 2000)}`);
    return res;
  }
}

/** A signed-in web client for `userName` (password `password123`, as TestApp.user makes them). */
export async function signedIn(t: TestApp, userName: string, password?: string): Promise<WebClient> {
  const client = new WebClient(t);
  await client.signIn(userName, password);
  return client;
}

/** The text of an HTML page with tags removed and whitespace folded: what a person reads. */
export function visibleText(page: string): string {
  return page
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}
