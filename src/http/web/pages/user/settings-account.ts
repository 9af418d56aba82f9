import { html } from "../../../../lib/html.ts";
import { HearthError, TooManyRequests } from "../../../../lib/errors.ts";
import type { UserRow } from "../../../../db/schema/index.ts";
import { addEmails, deleteEmailById, listEmails, makePrimaryEmail } from "../../../../services/user/emails.ts";
import { changeOwnPassword, type PasswordChangeRefusal } from "../../../../services/user/password.ts";
import { endOtherSessions } from "../../../../services/user/sessions.ts";
import { page, type PageContext } from "../../page.ts";
import { field, postForm } from "../../views/form.ts";
import { settingsLayout } from "../../views/settings-nav.ts";

const signedIn = { scope: "public", signIn: true } as const;

type Ctx = PageContext & { doer: UserRow };

/** The page, with a refused form's message and the address typed into the add form. */
function accountPage(ctx: Ctx, opts: { error?: string; email?: string } = {}): Response {
  const { base, env, state, doer } = ctx;
  const emails = listEmails(env, doer);
  const passwordForm = postForm(
    state,
    `${base}/user/settings/account`,
    html`${doer.passwd ? field("old_password", "Current Password", { type: "password", required: true, autocomplete: "current-password" }) : ""}
${field("password", "New Password", {
  type: "password",
  required: true,
  autocomplete: "new-password",
  help: `At least ${env.settings.security.minPasswordLength} characters. Your other signed-in sessions are signed out.`,
})}
${field("retype", "Confirm New Password", { type: "password", required: true, autocomplete: "new-password" })}
<div class="form-actions"><button class="primary" type="submit">Update Password</button></div>`,
  );
  const rows = emails.map((e) => {
    const idField = html`<input type="hidden" name="id" value="${e.id}">`;
    return html`<li class="email-row"><span class="email-address">${e.email}</span>
<span class="email-state">${e.isPrimary ? html`<span class="tag">Primary</span>` : ""} ${
      e.isActivated ? html`<span class="tag">Activated</span>` : html`<span class="tag warn">Requires activation</span>`
    }</span>
<span class="email-actions">${
      e.isPrimary
        ? ""
        : html`${
            e.isActivated
              ? postForm(
                  state,
                  `${base}/user/settings/account/email`,
                  html`<input type="hidden" name="_method" value="PRIMARY">${idField}<button type="submit">Make Primary<span class="sr-only">: ${e.email}</span></button>`,
                  html` class="inline"`,
                )
              : ""
          }${postForm(
            state,
            `${base}/user/settings/account/email/delete`,
            html`${idField}<button class="danger" type="submit">Remove<span class="sr-only">: ${e.email}</span></button>`,
            html` class="inline"`,
          )}`
    }</span></li>`;
  });
  const addForm = postForm(
    state,
    `${base}/user/settings/account/email`,
    html`${field("email", "New email address", { type: "email", value: opts.email ?? "", required: true, autocomplete: "email", maxlength: 254 })}
<div class="form-actions"><button class="primary" type="submit">Add Email Address</button></div>`,
  );
  return ctx.render({
    title: "Account",
    width: "medium",
    flash: opts.error ? [{ kind: "error", text: opts.error }] : undefined,
    body: settingsLayout(
      base,
      "account",
      html`<h1>Account</h1>
<section aria-labelledby="password-title"><h2 id="password-title">Password</h2>
${doer.mustChangePassword ? html`<p class="flash warning">You must change your password before you continue.</p>` : ""}
${passwordForm}</section>
<section aria-labelledby="emails-title"><h2 id="emails-title">Manage Email Addresses</h2>
<p class="muted">Your primary email address will be used for notifications, password recovery and, provided that it is not hidden, web-based Git operations.</p>
<ul class="rows box">${rows}</ul>
<h3>Add New Email Address</h3>
${addForm}</section>`,
    ),
  });
}

export const account = page({
  access: signedIn,
  handler: (ctx) => accountPage(ctx),
});

/** Gitea's words for each refusal of a password change. */
function refusalText(ctx: Ctx, refusal: PasswordChangeRefusal): string {
  if (refusal === "incorrect") return "The current password is incorrect.";
  if (refusal === "mismatch") return "The passwords do not match.";
  return `Password length cannot be less than ${ctx.env.settings.security.minPasswordLength} characters.`;
}

export const accountPost = page({
  access: signedIn,
  async handler(ctx) {
    const { env, state, doer, limiter, ip } = ctx;
    // A wrong current password counts as a failed sign-in: a session left open is no way to guess it.
    const wait = limiter.retryAfter(ip);
    if (wait > 0) throw new TooManyRequests(wait, "Too many failed sign-in attempts. Try again later.");
    const refusal = await changeOwnPassword(env, doer, {
      oldPassword: ctx.form.get("old_password") ?? "",
      password: ctx.form.get("password") ?? "",
      retype: ctx.form.get("retype") ?? "",
    });
    if (refusal) {
      if (refusal === "incorrect") limiter.recordFailure(ip);
      return accountPage(ctx, { error: refusalText(ctx, refusal) });
    }
    // Every other browser and remember-me token of the account is signed out; this one stays
    // signed in under a new session id (and a new remember-me token if it had one).
    endOtherSessions(env, doer.id, state.session);
    state.signIn(doer.id, state.cookies.has(env.settings.security.cookieRememberName));
    return ctx.redirect("/user/settings/account", {
      kind: "success",
      text: "Your password has been updated. Sign in using your new password from now on.",
    });
  },
});

/** The `id` field as Gitea's FormInt64 reads it: 0 when missing or not a number. */
const formId = (ctx: PageContext) => {
  const raw = ctx.form.get("id") ?? "";
  return /^\d{1,15}$/.test(raw) ? Number(raw) : 0;
};

export const emailPost = page({
  access: signedIn,
  handler(ctx) {
    const { env, doer } = ctx;
    if (ctx.form.get("_method") === "PRIMARY") {
      try {
        makePrimaryEmail(env, doer, formId(ctx));
      } catch (err) {
        if (err instanceof HearthError && err.status < 500) return accountPage(ctx, { error: err.message });
        throw err;
      }
      return ctx.redirect("/user/settings/account", { kind: "success", text: "Your primary email address has been changed." });
    }
    const email = ctx.form.get("email")?.trim() ?? "";
    if (email === "") return accountPage(ctx, { error: "Email address cannot be empty." });
    try {
      addEmails(env, doer, [email]);
    } catch (err) {
      if (!(err instanceof HearthError) || err.status >= 500) throw err;
      const used = err.message.startsWith("Email address has been used");
      return accountPage(ctx, { email, error: used ? "The email address is already used." : "The email address is invalid." });
    }
    return ctx.redirect("/user/settings/account", { kind: "success", text: "The new email address has been added." });
  },
});

export const emailDelete = page({
  access: signedIn,
  handler(ctx) {
    try {
      deleteEmailById(ctx.env, ctx.doer, formId(ctx));
    } catch (err) {
      if (err instanceof HearthError && err.status < 500) return accountPage(ctx, { error: err.message });
      throw err;
    }
    return ctx.redirect("/user/settings/account", { kind: "success", text: "The email address has been removed." });
  },
});
