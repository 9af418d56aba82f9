import { renderSVG } from "uqr";
import { html, trusted, type Html } from "../../../../lib/html.ts";
import type { UserRow } from "../../../../db/schema/index.ts";
import { confirmTotpEnrollment, disableTotp, hasTotp, newTotpSecret, regenerateScratchCode } from "../../../../services/user/twofactor.ts";
import { page, type PageContext } from "../../page.ts";
import { field, postForm } from "../../views/form.ts";
import { settingsLayout } from "../../views/settings-nav.ts";

const signedIn = { scope: "public", signIn: true } as const;

type Ctx = PageContext & { doer: UserRow };

const ENROLLED = "Your account is currently enrolled in two-factor authentication.";
const NOT_ENROLLED = "Your account is not currently enrolled in two-factor authentication.";

function securityPage(ctx: Ctx): Response {
  const { base, env, state, doer } = ctx;
  const enrolled = hasTotp(env, doer);
  const twofa = enrolled
    ? html`<p class="status-line"><span class="tag ok">Enrolled</span> ${ENROLLED}</p>
<h3>Single-use recovery key</h3>
<p>If you misplaced your recovery key or have already used it to sign in, you can reset it here.</p>
${postForm(state, `${base}/user/settings/security/two_factor/regenerate_scratch`, html`<button type="submit">Regenerate Single-Use Recovery Key</button>`)}
<h3>Disable</h3>
<p>You can disable two-factor authentication if needed.</p>
<details class="confirm">
<summary class="button danger">Disable Two-Factor Authentication</summary>
<div class="confirm-body">
<p>Disabling two-factor authentication will make your account less secure. Continue?</p>
${postForm(state, `${base}/user/settings/security/two_factor/disable`, html`<button class="danger" type="submit">Yes, disable two-factor authentication</button>`)}
</div>
</details>`
    : html`<p class="status-line"><span class="tag">Not enrolled</span> ${NOT_ENROLLED}</p>
<p class="form-actions"><a class="button primary" href="${base}/user/settings/security/two_factor/enroll">Enroll into Two-Factor Authentication</a></p>`;
  return ctx.render({
    title: "Security",
    width: "medium",
    body: settingsLayout(
      base,
      "security",
      html`<h1>Security</h1>
<section aria-labelledby="twofa-title"><h2 id="twofa-title">Two-Factor Authentication (TOTP)</h2>
<p class="muted">To protect your account against password theft, you can use a smartphone or another device for receiving time-based one-time passwords ("TOTP"). If you lose your device, you will be able to use a single-use recovery key to regain access to your account.</p>
${twofa}</section>`,
    ),
  });
}

export const security = page({
  access: signedIn,
  handler: (ctx) => securityPage(ctx),
});

/** The sealing context of an enrolment's secret: it opens only for this account's session. */
const enrollContext = (uid: number) => `two_factor_enroll:${uid}`;

/** The otpauth:// URI being enrolled, kept sealed in the session between the page and its form. */
function pendingUri(ctx: Ctx): string | undefined {
  const sealed = ctx.state.session?.data.enrolling;
  if (!sealed) return undefined;
  try {
    return ctx.env.twoFactorBox.open(sealed, enrollContext(ctx.doer.id));
  } catch {
    return undefined;
  }
}

const secretOf = (uri: string) => new URL(uri).searchParams.get("secret") ?? "";

/** The QR code of the URI as inline SVG, drawn on the server (no script, no request for an image). */
function qrCode(uri: string): Html {
  const svg = renderSVG(uri, { border: 2, pixelSize: 6 });
  // uqr draws rectangles and one path from the URI's bits; only the element's own attributes are added.
  return trusted(
    svg
      .replace(/^<svg /, '<svg class="qr" role="img" aria-labelledby="qr-title" width="240" height="240" ')
      .replace(/^(<svg [^>]*>)/, '$1<title id="qr-title">QR code of the two-factor secret</title>'),
  );
}

function enrollPage(ctx: Ctx, uri: string, error?: string): Response {
  const { base, state } = ctx;
  const secret = secretOf(uri);
  return ctx.render({
    title: "Enroll into Two-Factor Authentication",
    width: "medium",
    flash: error ? [{ kind: "error", text: error }] : undefined,
    body: settingsLayout(
      base,
      "security",
      html`<h1>Enroll into Two-Factor Authentication</h1>
<ol class="steps">
<li><p>Scan this image with your authentication application:</p>
<div class="qr-box">${qrCode(uri)}</div></li>
<li><p>Or enter the secret:</p><code class="secret" aria-label="Two-factor secret">${secret}</code></li>
<li><p>And enter the passcode shown in the application:</p>
${postForm(
  state,
  `${base}/user/settings/security/two_factor/enroll`,
  html`${field("passcode", "Passcode", { required: true, autocomplete: "one-time-code", inputmode: "numeric", autofocus: true, maxlength: 6 })}
<div class="form-actions"><button class="primary" type="submit">Verify</button></div>`,
)}</li>
</ol>`,
      { below: true },
    ),
  });
}

export const enrollForm = page({
  access: signedIn,
  async handler(ctx) {
    const { env, state, doer } = ctx;
    if (hasTotp(env, doer)) return ctx.redirect("/user/settings/security", { kind: "error", text: ENROLLED });
    let uri = pendingUri(ctx);
    if (!uri) {
      uri = (await newTotpSecret(env, doer)).uri;
      const sealed = env.twoFactorBox.seal(uri, enrollContext(doer.id));
      state.update((data) => (data.enrolling = sealed));
    }
    return enrollPage(ctx, uri);
  },
});

export const enroll = page({
  access: signedIn,
  async handler(ctx) {
    const { env, state, doer } = ctx;
    if (hasTotp(env, doer)) return ctx.redirect("/user/settings/security", { kind: "error", text: ENROLLED });
    const uri = pendingUri(ctx);
    if (!uri) return ctx.redirect("/user/settings/security/two_factor/enroll", { kind: "error", text: "Failed to get secret." });
    const passcode = ctx.form.get("passcode")?.trim() ?? "";
    if (passcode === "") return enrollPage(ctx, uri, "Passcode cannot be empty.");
    const scratch = await confirmTotpEnrollment(env, doer, secretOf(uri), passcode);
    if (!scratch) return enrollPage(ctx, uri, "The passcode is incorrect. Try again.");
    state.update((data) => delete data.enrolling);
    return ctx.redirect("/user/settings/security", {
      kind: "success",
      text: "Your account has been successfully enrolled. Store your single-use recovery key in a safe place, as it will not be shown again.",
      secret: scratch,
    });
  },
});

export const regenerateScratch = page({
  access: signedIn,
  handler(ctx) {
    const scratch = regenerateScratchCode(ctx.env, ctx.doer);
    if (!scratch) return ctx.redirect("/user/settings/security", { kind: "error", text: NOT_ENROLLED });
    return ctx.redirect("/user/settings/security", {
      kind: "success",
      text: "Your single-use recovery key has been regenerated. Store it in a safe place, as it will not be shown again.",
      secret: scratch,
    });
  },
});

export const disable = page({
  access: signedIn,
  handler(ctx) {
    if (!disableTotp(ctx.env, ctx.doer)) return ctx.redirect("/user/settings/security", { kind: "error", text: NOT_ENROLLED });
    return ctx.redirect("/user/settings/security", { kind: "success", text: "Two-factor authentication has been disabled." });
  },
});
