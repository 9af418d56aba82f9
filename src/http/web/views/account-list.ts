import type { Env } from "../../../services/env.ts";
import type { UserRow } from "../../../db/schema/index.ts";
import { Visibility } from "../../../services/user/visibility.ts";
import { html, type Html, type HtmlValue } from "../../../lib/html.ts";
import { avatarImg } from "../layout.ts";
import { dateOnly } from "./time.ts";

/** `/{name}` of this site, escaped, below `base`: an account's profile. */
export function accountPath(base: string, account: Pick<UserRow, "name">): string {
  return `${base}/${encodeURIComponent(account.name)}`;
}

/** A badge for an account that is not public: "Private" or "Limited". */
export function visibilityBadge(account: Pick<UserRow, "visibility">): Html | "" {
  if (account.visibility === Visibility.Private) return html`<span class="tag">Private</span>`;
  if (account.visibility === Visibility.Limited) return html`<span class="tag">Limited</span>`;
  return "";
}

/**
 * Whether `viewer` is shown `account`'s email address: signed in, and the address is not kept
 * private (the account itself and site admins always), as Gitea's user cards and API do.
 */
export function showsEmail(account: UserRow, viewer: UserRow | undefined): boolean {
  if (!viewer || !account.email) return false;
  return !account.keepEmailPrivate || viewer.isAdmin || viewer.id === account.id;
}

export interface AccountListOptions {
  empty: string;
  viewer: UserRow | undefined;
  /** Extra text after an account's name (a member's role). */
  extra?: (account: UserRow) => HtmlValue;
}

/** One account in a list: avatar, name and full name, its badges, location, email and when it joined. */
export function accountItem(env: Env, base: string, account: UserRow, opts: AccountListOptions): Html {
  const details: Html[] = [];
  if (account.location) details.push(html`<span>${account.location}</span>`);
  if (showsEmail(account, opts.viewer)) details.push(html`<a href="mailto:${account.email}">${account.email}</a>`);
  if (account.createdUnix > 0) details.push(html`<span>Joined ${dateOnly(account.createdUnix)}</span>`);
  return html`<li class="account-item">${avatarImg(env, account, 40)}<div>
<div><a href="${accountPath(base, account)}"><strong>${account.name}</strong></a>${
    account.fullName && account.fullName !== account.name ? html` <span class="muted">${account.fullName}</span>` : ""
  } ${visibilityBadge(account)}${opts.extra ? opts.extra(account) : ""}</div>
${details.length ? html`<div class="stats small">${details}</div>` : ""}</div></li>`;
}

/** A box of accounts, or a line saying there are none. */
export function accountList(env: Env, base: string, accounts: readonly UserRow[], opts: AccountListOptions): Html {
  if (!accounts.length) return html`<div class="box"><p class="empty">${opts.empty}</p></div>`;
  return html`<div class="box"><ul>${accounts.map((a) => accountItem(env, base, a, opts))}</ul></div>`;
}

/**
 * An account's website as a link when it is an http(s) address (anything else, a `javascript:` URL
 * included, is shown as text), marked as the account's own and not endorsed by the site.
 */
export function websiteLink(website: string): Html | undefined {
  const text = website.trim();
  if (!text) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) return html`<span>${text}</span>`;
  return html`<a href="${url.href}" rel="nofollow noopener me">${text}</a>`;
}
