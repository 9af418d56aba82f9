import { html } from "../../../../lib/html.ts";
import { TooManyRequests } from "../../../../lib/errors.ts";
import { signInWithPassword } from "../../../../services/user/signin.ts";
import { hasTotp, useScratchCode, verifyTotp } from "../../../../services/user/twofactor.ts";
import { getUserById } from "../../../../services/user/lookup.ts";
import type { UserRow } from "../../../../db/schema/index.ts";
import { page, type PageContext } from "../../page.ts";
import { field, postForm, safeRedirect } from "../../views/form.ts";

const anyone = { scope: "public", signIn: false } as const;

/** Gitea's wording: the same for an unknown account and a wrong password. */
const BAD_LOGIN = "Username or password is incorrect.";
const BAD_PASSCODE = "Your passcode is incorrect. If you misplaced your device, use your scratch code to sign in.";
/** A password accepted for an account with two-factor authentication waits this long for its code. */
const TWO_FACTOR_WAIT_SECONDS = 600;

function refuseWhileLimited(ctx: PageContext): void {
  const wait = ctx.limiter.retryAfter(ctx.ip);
  if (wait > 0) throw new TooManyRequests(wait, "Too many failed sign-in attempts. Try again later.");
}

function loginPage(ctx: PageContext, opts: { userName?: string; error?: string; redirectTo?: string }): Response {
  const { base, env } = ctx;
  const redirectTo = opts.redirectTo ?? ctx.query.get("redirect_to") ?? "";
  const { service } = env.settings;
  return ctx.render({
    title: "Sign in",
    width: "narrow",
    flash: opts.error ? [{ kind: "error", text: opts.error }] : undefined,
    body: html`<h1>Sign in</h1>
${postForm(
  ctx.state,
  `${base}/user/login`,
  html`${field("user_name", "Username or email address", { value: opts.userName ?? "", required: true, autocomplete: "username", autofocus: !opts.userName })}
${field("password", "Password", { type: "password", required: true, autocomplete: "current-password", autofocus: !!opts.userName })}
<label class="check"><input type="checkbox" name="remember" value="on"> Remember this device</label>
${redirectTo ? html`<input type="hidden" name="redirect_to" value="${redirectTo}">` : ""}
<div class="form-actions"><button class="primary" type="submit">Sign in</button></div>`,
)}
${
  service.showRegistrationButton && !service.disableRegistration
    ? html`<p class="muted">Need an account? <a href="${base}/user/sign_up">Register now.</a></p>`
    : ""
}`,
  });
}

/** After the password (and the code, if enrolled): in, with a new session, back where they were going. */
function finishSignIn(ctx: PageContext, user: UserRow, remember: boolean, redirectTo: string | undefined): Response {
  ctx.state.signIn(user.id, remember);
  if (user.mustChangePassword) {
    return ctx.redirect("/user/settings/account", { kind: "warning", text: "You must change your password before you continue." });
  }
  return ctx.redirect(safeRedirect(ctx.base, redirectTo) ?? "/");
}

export const loginForm = page({
  access: anyone,
  signInExempt: true,
  handler: (ctx) => (ctx.doer ? ctx.redirect(safeRedirect(ctx.base, ctx.query.get("redirect_to")) ?? "/") : loginPage(ctx, {})),
});

export const login = page({
  access: anyone,
  signInExempt: true,
  async handler(ctx) {
    refuseWhileLimited(ctx);
    const userName = ctx.form.get("user_name")?.trim() ?? "";
    const redirectTo = ctx.form.get("redirect_to") ?? undefined;
    const user = userName ? await signInWithPassword(ctx.env, userName, ctx.form.get("password") ?? "") : undefined;
    if (!user || !user.isActive) {
      ctx.limiter.recordFailure(ctx.ip);
      return loginPage(ctx, { userName, error: BAD_LOGIN, redirectTo });
    }
    const remember = ctx.form.get("remember") === "on";
    if (hasTotp(ctx.env, user)) {
      // The password is right; the session remembers whose, until the code comes.
      ctx.state.update((data) => {
        data.twoFactor = { uid: user.id, remember, since: Math.floor(Date.now() / 1000) };
        data.redirectTo = safeRedirect(ctx.base, redirectTo);
      });
      return ctx.redirect("/user/two_factor");
    }
    return finishSignIn(ctx, user, remember, redirectTo);
  },
});

/** The account whose password was accepted and whose code is awaited, if still waiting. */
function pendingUser(ctx: PageContext): { user: UserRow; remember: boolean } | undefined {
  const pending = ctx.state.session?.data.twoFactor;
  if (!pending || pending.since < Math.floor(Date.now() / 1000) - TWO_FACTOR_WAIT_SECONDS) return undefined;
  const user = getUserById(ctx.env, pending.uid);
  return user ? { user, remember: pending.remember } : undefined;
}

function codePage(ctx: PageContext, scratch: boolean, error?: string): Response {
  const { base } = ctx;
  const body = scratch
    ? html`<h1>Scratch code</h1>
<p>Enter the scratch code you were given when you enrolled two-factor authentication.</p>
${postForm(
  ctx.state,
  `${base}/user/two_factor/scratch`,
  html`${field("token", "Scratch code", { required: true, autocomplete: "off", autofocus: true })}
<div class="form-actions"><button class="primary" type="submit">Verify</button></div>`,
)}`
    : html`<h1>Two-factor authentication</h1>
${postForm(
  ctx.state,
  `${base}/user/two_factor`,
  html`${field("passcode", "Passcode", { required: true, autocomplete: "one-time-code", inputmode: "numeric", autofocus: true, maxlength: 6 })}
<div class="form-actions"><button class="primary" type="submit">Verify</button></div>`,
)}
<p class="muted">Lost your device? <a href="${base}/user/two_factor/scratch">Use your scratch code.</a></p>`;
  return ctx.render({ title: "Two-factor authentication", width: "narrow", flash: error ? [{ kind: "error", text: error }] : undefined, body });
}

function finishTwoFactor(ctx: PageContext, pending: { user: UserRow; remember: boolean }): Response {
  const redirectTo = ctx.state.session?.data.redirectTo;
  return finishSignIn(ctx, pending.user, pending.remember, redirectTo ? `${ctx.base}${redirectTo}` : undefined);
}

export const twoFactorForm = page({
  access: anyone,
  signInExempt: true,
  handler: (ctx) => (pendingUser(ctx) ? codePage(ctx, false) : ctx.redirect("/user/login")),
});

export const twoFactor = page({
  access: anyone,
  signInExempt: true,
  async handler(ctx) {
    const pending = pendingUser(ctx);
    if (!pending) return ctx.redirect("/user/login");
    refuseWhileLimited(ctx);
    if (!(await verifyTotp(ctx.env, pending.user, ctx.form.get("passcode")?.trim() ?? ""))) {
      ctx.limiter.recordFailure(ctx.ip);
      return codePage(ctx, false, BAD_PASSCODE);
    }
    return finishTwoFactor(ctx, pending);
  },
});

export const scratchForm = page({
  access: anyone,
  signInExempt: true,
  handler: (ctx) => (pendingUser(ctx) ? codePage(ctx, true) : ctx.redirect("/user/login")),
});

export const scratch = page({
  access: anyone,
  signInExempt: true,
  handler(ctx) {
    const pending = pendingUser(ctx);
    if (!pending) return ctx.redirect("/user/login");
    refuseWhileLimited(ctx);
    if (!useScratchCode(ctx.env, pending.user, ctx.form.get("token") ?? "")) {
      ctx.limiter.recordFailure(ctx.ip);
      return codePage(ctx, true, "Your scratch code is incorrect.");
    }
    ctx.state.signIn(pending.user.id, pending.remember);
    return ctx.redirect("/user/settings/security", {
      kind: "info",
      text: "You have used your scratch code. You have been redirected to the two-factor settings page so you may remove your device enrollment or generate a new scratch code.",
    });
  },
});

export const logout = page({
  access: anyone,
  signInExempt: true,
  handler(ctx) {
    ctx.state.signOut();
    return ctx.redirect("/");
  },
});
