import type { Env } from "../../services/env.ts";
import {
  endSession,
  forgetRememberToken,
  issueRememberToken,
  openSession,
  saveSession,
  startSession,
  type Flash,
  type WebSession,
} from "../../services/user/sessions.ts";
import { readCookies, setCookie, type CookieOptions } from "./cookies.ts";

/** The path every cookie and link of the site lives under: ROOT_URL's path, without its last `/`. */
export function subUrl(env: Env): string {
  return new URL(env.settings.server.rootUrl).pathname.replace(/\/$/, "");
}

/**
 * One web request's session and cookies: the session is read from its cookie when first asked for,
 * started only when something must be remembered (a sign-in, a flash message), and every cookie
 * to set is collected for the response.
 */
export class WebState {
  readonly cookies: Map<string, string>;
  readonly setCookies: string[] = [];
  private loaded = false;
  private current: WebSession | undefined;
  private csrf: string | undefined;

  constructor(
    readonly env: Env,
    request: Request,
  ) {
    this.cookies = readCookies(request);
  }

  private options(extra: Partial<CookieOptions> = {}): CookieOptions {
    const { session } = this.env.settings;
    return { path: `${subUrl(this.env)}/`, httpOnly: true, secure: session.cookieSecure, sameSite: session.sameSite, ...extra };
  }

  get session(): WebSession | undefined {
    if (!this.loaded) {
      this.loaded = true;
      const value = this.cookies.get(this.env.settings.session.cookieName);
      this.current = value ? openSession(this.env, value) : undefined;
    }
    return this.current;
  }

  /** The session, started (anonymous) if there is none yet. */
  ensureSession(): WebSession {
    return this.session ?? this.begin(null);
  }

  private begin(uid: number | null, data: WebSession["data"] = {}): WebSession {
    const { cookie, session } = startSession(this.env, uid, data);
    this.setCookies.push(setCookie(this.env.settings.session.cookieName, cookie, this.options()));
    this.loaded = true;
    this.current = session;
    return session;
  }

  /**
   * Signs `uid` in: always a new session (the old one, and whatever an attacker may have planted
   * in it, is ended), keeping only its flash messages; with `remember`, a remember-me cookie.
   */
  signIn(uid: number, remember: boolean): void {
    const before = this.session;
    if (before) endSession(this.env, before);
    this.begin(uid, before?.data.flash ? { flash: before.data.flash } : {});
    if (remember) {
      const { cookie, maxAgeSeconds } = issueRememberToken(this.env, uid);
      this.setCookies.push(setCookie(this.env.settings.security.cookieRememberName, cookie, this.options({ maxAge: maxAgeSeconds })));
    }
  }

  signOut(): void {
    const session = this.session;
    if (session) endSession(this.env, session);
    this.current = undefined;
    const remember = this.cookies.get(this.env.settings.security.cookieRememberName);
    if (remember) forgetRememberToken(this.env, remember);
    this.setCookies.push(setCookie(this.env.settings.session.cookieName, "", this.options({ maxAge: 0 })));
    this.setCookies.push(setCookie(this.env.settings.security.cookieRememberName, "", this.options({ maxAge: 0 })));
  }

  /** Changes the session's data and stores it (starting a session if needed). */
  update(change: (data: WebSession["data"]) => void): void {
    const session = this.ensureSession();
    change(session.data);
    saveSession(this.env, session);
  }

  flash(message: Flash): void {
    this.update((data) => (data.flash = [...(data.flash ?? []), message]));
  }

  /** The flash messages left for this page, removed from the session. */
  takeFlash(): Flash[] {
    const flash = this.session?.data.flash;
    if (!flash?.length) return [];
    this.update((data) => delete data.flash);
    return flash;
  }

  /**
   * The token old scripts read from the form's `_csrf` field (or the cookie) and post back: the
   * double-submitted `_csrf` cookie, set when a page with a form is first shown.
   */
  csrfToken(): string {
    if (this.csrf) return this.csrf;
    const existing = this.cookies.get("_csrf");
    if (existing && /^[0-9a-f]{32}$/.test(existing)) return (this.csrf = existing);
    this.csrf = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("hex");
    this.setCookies.push(setCookie("_csrf", this.csrf, this.options({ maxAge: 86400 })));
    return this.csrf;
  }

  /** Adds the collected cookies to a response. */
  apply(response: Response): Response {
    for (const c of this.setCookies) response.headers.append("Set-Cookie", c);
    return response;
  }
}
