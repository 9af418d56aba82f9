import { html } from "../../../../lib/html.ts";
import { Forbidden, HearthError } from "../../../../lib/errors.ts";
import { registerUser } from "../../../../services/user/register.ts";
import { page, type PageContext } from "../../page.ts";
import { field, postForm } from "../../views/form.ts";

const anyone = { scope: "public", signIn: false } as const;

/** Gitea's form messages for what the account service refuses. */
function explain(err: HearthError, minLength: number): string {
  const m = err.message;
  if (m === "PasswordIsRequired") return `Password must be at least ${minLength} characters.`;
  if (m.startsWith("user already exists")) return "The username is already taken.";
  if (m.startsWith("e-mail already in use")) return "The email address is already used.";
  if (m.startsWith("name is reserved") || m.startsWith("name pattern")) return "The username is reserved.";
  if (m.startsWith("name is invalid")) return "The username may contain only letters, digits, dashes, underscores and dots.";
  if (m.startsWith("e-mail")) return "The email address is not valid.";
  return m;
}

function signUpPage(ctx: PageContext, opts: { userName?: string; email?: string; error?: string; status?: number }): Response {
  const { base, env } = ctx;
  if (env.settings.service.disableRegistration) {
    return ctx.render({
      title: "Register",
      width: "narrow",
      status: opts.status ?? 200,
      body: html`<h1>Register</h1><p>Registration is disabled. Please contact your site administrator.</p>`,
    });
  }
  return ctx.render({
    title: "Register",
    width: "narrow",
    status: opts.status,
    flash: opts.error ? [{ kind: "error", text: opts.error }] : undefined,
    body: html`<h1>Register</h1>
${postForm(
  ctx.state,
  `${base}/user/sign_up`,
  html`${field("user_name", "Username", { value: opts.userName ?? "", required: true, autocomplete: "username", autofocus: true })}
${field("email", "Email address", { type: "email", value: opts.email ?? "", required: true, autocomplete: "email" })}
${field("password", "Password", {
  type: "password",
  required: true,
  autocomplete: "new-password",
  help: `At least ${env.settings.security.minPasswordLength} characters.`,
})}
${field("retype", "Confirm password", { type: "password", required: true, autocomplete: "new-password" })}
<div class="form-actions"><button class="primary" type="submit">Register account</button></div>`,
)}
<p class="muted">Already have an account? <a href="${base}/user/login">Sign in now.</a></p>`,
  });
}

export const signUpForm = page({
  access: anyone,
  signInExempt: true,
  handler: (ctx) => (ctx.doer ? ctx.redirect("/") : signUpPage(ctx, {})),
});

export const signUp = page({
  access: anyone,
  signInExempt: true,
  async handler(ctx) {
    if (ctx.env.settings.service.disableRegistration) throw new Forbidden("Registration is disabled.");
    const userName = ctx.form.get("user_name")?.trim() ?? "";
    const email = ctx.form.get("email")?.trim() ?? "";
    const password = ctx.form.get("password") ?? "";
    if (password !== (ctx.form.get("retype") ?? "")) return signUpPage(ctx, { userName, email, error: "The passwords do not match." });
    let user;
    try {
      user = await registerUser(ctx.env, { username: userName, email, password });
    } catch (err) {
      if (err instanceof HearthError && !(err instanceof Forbidden)) {
        return signUpPage(ctx, { userName, email, error: explain(err, ctx.env.settings.security.minPasswordLength) });
      }
      throw err;
    }
    ctx.state.signIn(user.id, false);
    return ctx.redirect("/", { kind: "success", text: `Welcome, ${user.name}! Your account has been created.` });
  },
});
