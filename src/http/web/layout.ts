import type { Env } from "../../services/env.ts";
import type { Doer } from "../../services/access/permission.ts";
import type { Flash } from "../../services/user/sessions.ts";
import { VERSION } from "../../version.ts";
import { html, type Html, type HtmlValue } from "../../lib/html.ts";
import { logoPath, stylesheet } from "./assets.ts";
import { subUrl, type WebState } from "./state.ts";

/** Security headers every page carries: no scripts from anywhere, no framing, no sniffing. */
const policy = (scripts: string) =>
  `default-src 'self'; script-src ${scripts}; style-src 'self'; img-src 'self' data:; object-src 'none'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'`;

/**
 * The policy of a page that enhances itself with this site's own script (a file view's line
 * ranges): still no inline script and nothing from elsewhere.
 */
export const OWN_SCRIPTS_POLICY = { "Content-Security-Policy": policy("'self'") };

export const PAGE_HEADERS: Record<string, string> = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy": policy("'none'"),
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  "Cache-Control": "no-store",
};

export interface PageChrome {
  env: Env;
  state: WebState;
  doer: Doer | undefined;
}

export interface PageOptions {
  title: string;
  body: HtmlValue;
  status?: number;
  /** `narrow` for sign-in forms, `medium` for settings; full width otherwise. */
  width?: "narrow" | "medium";
  /** Extra elements in <head> (go-get meta tags, a canonical link). */
  head?: Html;
  headers?: Record<string, string>;
  /** Messages to show above the body (default: the session's flash, taken once). */
  flash?: Flash[];
}

/** A user's avatar image, served from this site (uploaded, or the default picture). */
export function avatarSrc(env: Env, user: { avatar: string }): string {
  const base = subUrl(env);
  return user.avatar ? `${base}/avatars/${encodeURIComponent(user.avatar)}` : `${base}/assets/img/avatar_default.png`;
}

export function avatarImg(env: Env, user: { avatar: string; name: string }, size = 20, decorative = true): Html {
  return html`<img class="avatar" src="${avatarSrc(env, user)}" width="${size}" height="${size}" alt="${decorative ? "" : user.name}" loading="lazy">`;
}

function flashBox(f: Flash): Html {
  return html`<div class="flash ${f.kind}" role="${f.kind === "error" ? "alert" : "status"}">${f.text}${
    f.secret ? html`<code class="secret">${f.secret}</code>` : ""
  }</div>`;
}

/** The sign-out button: a POST form, so a link in an e-mail or an image cannot sign anyone out. */
export function csrfField(state: WebState): Html {
  return html`<input type="hidden" name="_csrf" value="${state.csrfToken()}">`;
}

function header(chrome: PageChrome, currentPath: string): Html {
  const { env, state, doer } = chrome;
  const base = subUrl(env);
  const service = env.settings.service;
  const signedIn = doer
    ? html`<details class="menu create-menu"><summary class="button" title="Create…"><span aria-hidden="true">+</span><span class="sr-only">Create…</span></summary>
<div class="menu-body"><a href="${base}/repo/migrate">New Migration</a></div></details>
<a href="${base}/${doer.name}">${avatarImg(env, doer)} ${doer.name}</a>
<a href="${base}/user/settings">Settings</a>
<form method="post" action="${base}/user/logout">${csrfField(state)}<button class="link" type="submit">Sign out</button></form>`
    : html`${
        service.showRegistrationButton && !service.disableRegistration ? html`<a href="${base}/user/sign_up">Register</a>` : ""
      }
<a href="${base}/user/login${currentPath === "/" || currentPath.startsWith("/user/") ? "" : `?redirect_to=${encodeURIComponent(base + currentPath)}`}">Sign in</a>`;
  return html`<header class="site-header"><nav aria-label="Site">
<a class="brand" href="${base}/"><img src="${base}${logoPath}" width="24" height="24" alt="">${env.settings.appName}</a>
<a href="${base}/explore/repos">Explore</a>
<span class="spacer"></span>
${signedIn}
</nav></header>`;
}

/** A whole page: the site's header, the flash messages, the body and the footer. */
export function renderPage(chrome: PageChrome, request: Request, opts: PageOptions): Response {
  const { env, state } = chrome;
  const base = subUrl(env);
  const url = new URL(request.url);
  const flash = opts.flash ?? state.takeFlash();
  const doc = html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${opts.title} - ${env.settings.appName}</title>
<link rel="stylesheet" href="${base}${stylesheet}">
<link rel="icon" href="${base}${logoPath}" type="image/svg+xml">
${opts.head ?? ""}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${header(chrome, url.pathname)}
<main id="main"${opts.width ? html` class="${opts.width}"` : ""}>
${flash.map(flashBox)}
${opts.body}
</main>
<footer class="site-footer">Powered by hearth ${VERSION.hearth} · <a href="${base}/api/swagger">API</a></footer>
</body>
</html>
`;
  return new Response(doc.value, { status: opts.status ?? 200, headers: { ...PAGE_HEADERS, ...opts.headers } });
}
