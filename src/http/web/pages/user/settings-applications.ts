import { html } from "../../../../lib/html.ts";
import { HearthError } from "../../../../lib/errors.ts";
import type { AccessTokenRow, UserRow } from "../../../../db/schema/index.ts";
import { SCOPE_CATEGORIES, SCOPE_PUBLIC_ONLY, ScopeSet } from "../../../../services/access/scopes.ts";
import { createToken, deleteToken, listTokens, normalizeScopes, storedScope } from "../../../../services/user/tokens.ts";
import { page, type PageContext } from "../../page.ts";
import { field, postForm } from "../../views/form.ts";
import { pageNumber, pager } from "../../views/pager.ts";
import { settingsLayout } from "../../views/settings-nav.ts";
import { dateOnly, timeAgo } from "../../views/time.ts";

const signedIn = { scope: "public", signIn: true } as const;

type Ctx = PageContext & { doer: UserRow };

const TOKENS_PER_PAGE = 50;
/** Gitea's HasRecentActivity: used within the last seven days. */
const RECENT_SECONDS = 7 * 86400;

/** What the new-token form holds after a refusal: the name and the scopes chosen. */
interface TokenValues {
  name: string;
  scopes: string[];
}

/** The categories a user may pick: `admin` only for site administrators, as Gitea's form. */
const categoriesFor = (doer: UserRow) => SCOPE_CATEGORIES.filter((c) => c !== "admin" || doer.isAdmin);

function tokenItem(ctx: Ctx, t: AccessTokenRow, now: number): ReturnType<typeof html> {
  const { base, state } = ctx;
  const scopes = ScopeSet.parse(storedScope(t));
  const used = t.updatedUnix > t.createdUnix;
  const recent = used && now - t.updatedUnix < RECENT_SECONDS;
  const permissions = scopes.toList().filter((s) => s !== SCOPE_PUBLIC_ONLY);
  return html`<li class="token">
<div class="token-main">
<h3 class="token-name">${t.name}</h3>
<p class="small"><span class="muted">Ends in</span> <code>…${t.tokenLastEight}</code>${recent ? html` <span class="tag ok">Used in the last 7 days</span>` : ""}</p>
<p class="small">Repository and Organization Access: ${scopes.publicOnly ? "Public only" : "All (public, private, and limited)"}</p>
<p class="small">Permissions: ${permissions.map((p, i) => html`${i ? ", " : ""}<code>${p}</code>`)}</p>
<p class="small muted">Added on ${dateOnly(t.createdUnix)} — ${used ? html`Last used ${timeAgo(t.updatedUnix, now)}` : "No recent activity"}</p>
</div>
<details class="confirm">
<summary class="button danger">Delete<span class="sr-only"> token ${t.name}</span></summary>
<div class="confirm-body">
<p>Deleting a token will revoke access to your account for applications using it. This cannot be undone.</p>
${postForm(
  state,
  `${base}/user/settings/applications/delete`,
  html`<input type="hidden" name="id" value="${t.id}"><button class="danger" type="submit">Delete Access Token</button>`,
)}
</div>
</details>
</li>`;
}

function applicationsPage(ctx: Ctx, values: TokenValues = { name: "", scopes: [] }, error?: string): Response {
  const { base, env, state, doer } = ctx;
  const pageNo = pageNumber(ctx.query);
  const tokens = listTokens(env, doer, (pageNo - 1) * TOKENS_PER_PAGE, TOKENS_PER_PAGE);
  const now = Math.floor(Date.now() / 1000);
  const chosen = new Set(values.scopes);
  const publicOnly = chosen.has(SCOPE_PUBLIC_ONLY);
  const levelOf = (category: string) => (chosen.has(`write:${category}`) ? "write" : chosen.has(`read:${category}`) ? "read" : "");
  const option = (value: string, label: string, selected: boolean) =>
    html`<option value="${value}"${selected ? html` selected` : ""}>${label}</option>`;
  const form = postForm(
    state,
    `${base}/user/settings/applications`,
    html`${field("name", "Token Name", { value: values.name, required: true, maxlength: 255, autocomplete: "off" })}
<fieldset class="choices">
<legend>Repository and Organization Access</legend>
<label class="check"><input type="radio" name="scope-public-only" value="${SCOPE_PUBLIC_ONLY}"${publicOnly ? html` checked` : ""}> Public only</label>
<label class="check"><input type="radio" name="scope-public-only" value=""${publicOnly ? "" : html` checked`}> All (public, private, and limited)</label>
</fieldset>
<fieldset>
<legend>Permissions</legend>
<p class="field-help">Selected token permissions limit authorization only to the corresponding <a href="${base}/api/swagger">API</a> routes. Select at least one.</p>
<div class="scope-grid">${categoriesFor(doer).map((c) => {
      const current = levelOf(c);
      return html`<div class="scope-field"><label for="scope-${c}">${c}</label>
<select id="scope-${c}" name="scope-${c}">${option("", "No Access", current === "")}${option(`read:${c}`, "Read", current === "read")}${option(
        `write:${c}`,
        "Read and Write",
        current === "write",
      )}</select></div>`;
    })}</div>
</fieldset>
<div class="form-actions"><button class="primary" type="submit">Generate Token</button></div>`,
  );
  return ctx.render({
    title: "Applications",
    width: "medium",
    flash: error ? [{ kind: "error", text: error }] : undefined,
    body: settingsLayout(
      base,
      "applications",
      html`<h1>Applications</h1>
<section aria-labelledby="tokens-title"><h2 id="tokens-title">Manage Access Tokens <span class="counter">${tokens.total}</span></h2>
<p class="muted">These tokens grant access to your account using the API.</p>
${
  tokens.rows.length
    ? html`<ul class="rows box tokens">${tokens.rows.map((t) => tokenItem(ctx, t, now))}</ul>`
    : html`<p class="empty box">You have no access tokens.</p>`
}
${pager(ctx.url, pageNo, TOKENS_PER_PAGE, tokens.total)}</section>
<section aria-labelledby="new-token-title"><h2 id="new-token-title">Generate New Token</h2>
${form}</section>`,
    ),
  });
}

export const applications = page({
  access: signedIn,
  handler: (ctx) => applicationsPage(ctx),
});

/**
 * The scopes of the form: every `scope-*` field, as Gitea 1.25 reads them (one select per
 * category and the public-only choice); the single `scope` field of older Gitea forms too.
 */
function formScopes(form: URLSearchParams): string[] {
  const out: string[] = [];
  for (const [key, value] of form) {
    if ((key === "scope" || key.startsWith("scope-")) && value !== "") out.push(...value.split(",").filter((v) => v !== ""));
  }
  return out;
}

export const applicationsPost = page({
  access: signedIn,
  handler(ctx) {
    const values: TokenValues = { name: ctx.form.get("name")?.trim() ?? "", scopes: formScopes(ctx.form) };
    if (values.name === "") return applicationsPage(ctx, values, "Token Name cannot be empty.");
    if ([...values.name].length > 255) return applicationsPage(ctx, values, "Token Name must contain at most 255 characters.");
    let normalized = "";
    try {
      if (values.scopes.length) normalized = normalizeScopes(values.scopes);
    } catch (err) {
      if (err instanceof HearthError && err.status < 500) return applicationsPage(ctx, values, err.message);
      throw err;
    }
    const scopes = ScopeSet.parse(normalized);
    if (!SCOPE_CATEGORIES.some((c) => scopes.has(c, "read"))) {
      return applicationsPage(ctx, values, "You must select at least one permission to create a token");
    }
    let token: string;
    try {
      ({ token } = createToken(ctx.env, ctx.doer, values.name, scopes.toList()));
    } catch (err) {
      if (!(err instanceof HearthError) || err.status >= 500) throw err;
      const duplicate = err.message === "access token name has been used already";
      return applicationsPage(
        ctx,
        values,
        duplicate ? `${values.name} has been used as an application name already. Please use a new one.` : err.message,
      );
    }
    return ctx.redirect("/user/settings/applications", {
      kind: "success",
      text: "Your new token has been generated. Copy it now as it will not be shown again.",
      secret: token,
    });
  },
});

export const applicationsDelete = page({
  access: signedIn,
  handler(ctx) {
    const id = ctx.form.get("id") ?? "";
    // Gitea's FormInt64("id"): a number, never a name (the API's delete also takes names).
    if (!/^[1-9]\d{0,14}$/.test(id)) return applicationsPage(ctx, undefined, "The access token does not exist.");
    try {
      deleteToken(ctx.env, ctx.doer, id);
    } catch (err) {
      if (err instanceof HearthError && err.status < 500) return applicationsPage(ctx, undefined, "The access token does not exist.");
      throw err;
    }
    return ctx.redirect("/user/settings/applications", {
      kind: "success",
      text: "The token has been deleted. Applications using it no longer have access to your account.",
    });
  },
});
