import { html, type Html } from "../../../../lib/html.ts";
import { HearthError, Invalid } from "../../../../lib/errors.ts";
import type { UserRow } from "../../../../db/schema/index.ts";
import { updateSettings } from "../../../../services/user/profile.ts";
import { renameAccount } from "../../../../services/user/rename.ts";
import { deleteAvatar, imageType, setAvatarImage } from "../../../../services/user/avatar.ts";
import { Visibility } from "../../../../services/user/visibility.ts";
import { page, type PageContext } from "../../page.ts";
import { avatarImg } from "../../layout.ts";
import { field, postForm } from "../../views/form.ts";
import { settingsLayout } from "../../views/settings-nav.ts";

/** Every settings page: the signed-in user's own, reached through the web session. */
const signedIn = { scope: "public", signIn: true } as const;

/** What the profile form holds: the account's values, or what was typed into a refused form. */
interface ProfileValues {
  name: string;
  fullName: string;
  website: string;
  location: string;
  description: string;
  visibility: number;
  keepEmailPrivate: boolean;
  keepActivityPrivate: boolean;
}

const VISIBILITIES: readonly { value: number; label: string; help: string }[] = [
  { value: Visibility.Public, label: "Public", help: "Visible to everyone" },
  { value: Visibility.Limited, label: "Limited", help: "Visible only to authenticated users" },
  { value: Visibility.Private, label: "Private", help: "Visible only to members of organizations you have joined" },
];

const valuesOf = (user: UserRow): ProfileValues => ({
  name: user.name,
  fullName: user.fullName,
  website: user.website,
  location: user.location,
  description: user.description,
  visibility: user.visibility,
  keepEmailPrivate: user.keepEmailPrivate,
  keepActivityPrivate: user.hideActivity,
});

function checkbox(name: string, label: string, checked: boolean, help: string): Html {
  return html`<label class="check"><input type="checkbox" name="${name}" value="on"${checked ? html` checked` : ""} aria-describedby="f-${name}-help"> ${label}</label>
<p class="field-help" id="f-${name}-help">${help}</p>`;
}

function profilePage(ctx: PageContext & { doer: UserRow }, values: ProfileValues, error?: string): Response {
  const { base, env, state, doer } = ctx;
  const noReply = `${doer.lowerName}@${env.settings.service.noReplyAddress}`;
  const profileForm = postForm(
    state,
    `${base}/user/settings`,
    html`${field("name", "Username", {
      value: values.name,
      required: true,
      autocomplete: "username",
      maxlength: 40,
      help: "Changing your username also changes your account URL. The old username will redirect until someone claims it.",
    })}
${field("full_name", "Full Name", { value: values.fullName, autocomplete: "name", maxlength: 100 })}
<p class="field-static"><span class="field-static-label">Email Address</span> ${doer.email} <a href="${base}/user/settings/account">Manage email addresses</a></p>
<label for="f-description">Biography</label>
<textarea id="f-description" name="description" rows="3" maxlength="255" placeholder="Tell us a little bit about yourself! (You can use Markdown)">${values.description}</textarea>
${field("website", "Website", { type: "url", value: values.website, autocomplete: "url", maxlength: 255 })}
${field("location", "Location", { value: values.location, maxlength: 50, help: "Share your approximate location with others" })}
<fieldset>
<legend>Privacy</legend>
<fieldset class="choices">
<legend>User visibility</legend>
${VISIBILITIES.map(
  (v) => html`<label class="check"><input type="radio" name="visibility" value="${v.value}"${values.visibility === v.value ? html` checked` : ""}> ${v.label} <span class="muted small">${v.help}</span></label>`,
)}
</fieldset>
${checkbox(
  "keep_email_private",
  "Hide Email Address",
  values.keepEmailPrivate,
  `Hides your email address from your profile and from pull requests or files you edit on the web. Pushed commits are not changed. Use ${noReply} in commits to associate them with your account.`,
)}
${checkbox("keep_activity_private", "Hide Activity from profile page", values.keepActivityPrivate, "Makes the activity visible only for you and the admins")}
</fieldset>
<div class="form-actions"><button class="primary" type="submit">Update Profile</button></div>`,
  );
  const avatarForms = html`<div class="avatar-current">${avatarImg(env, doer, 96, false)}</div>
${postForm(
  state,
  `${base}/user/settings/avatar`,
  html`<input type="hidden" name="source" value="local">
<label for="f-avatar">Choose new avatar</label>
<input id="f-avatar" name="avatar" type="file" accept="image/png,image/jpeg,image/gif,image/webp" required aria-describedby="f-avatar-help">
<p class="field-help" id="f-avatar-help">PNG, JPEG, GIF or WebP, at most ${Math.floor(env.settings.picture.avatarMaxFileSize / 1024)} KiB.</p>
<div class="form-actions"><button class="primary" type="submit">Update Avatar</button></div>`,
  html` enctype="multipart/form-data"`,
)}
${
  doer.avatar
    ? postForm(state, `${base}/user/settings/avatar/delete`, html`<div class="form-actions"><button class="danger" type="submit">Delete Current Avatar</button></div>`)
    : ""
}`;
  return ctx.render({
    title: "Profile",
    width: "medium",
    flash: error ? [{ kind: "error", text: error }] : undefined,
    body: settingsLayout(
      base,
      "profile",
      html`<h1>Profile</h1>
<section aria-labelledby="public-profile"><h2 id="public-profile">Public Profile</h2>
<p class="muted">Control how your profile is shown to other users. Your primary email address will be used for notifications, password recovery and web-based Git operations.</p>
${profileForm}</section>
<section aria-labelledby="avatar-title"><h2 id="avatar-title">Avatar</h2>
${avatarForms}</section>`,
    ),
  });
}

export const profile = page({
  access: signedIn,
  handler: (ctx) => profilePage(ctx, valuesOf(ctx.doer)),
});

/** Go's form binding of a checkbox: present and true-ish. */
const checked = (form: URLSearchParams, name: string) => ["on", "true", "1"].includes((form.get(name) ?? "").toLowerCase());

/** The form's visibility: Gitea posts 0, 1 or 2; the names are accepted too. Missing keeps the current one. */
function visibilityOf(value: string | null, current: number): number | undefined {
  if (value === null || value === "") return current;
  const byName: Record<string, number> = { public: Visibility.Public, limited: Visibility.Limited, private: Visibility.Private };
  const n = byName[value.toLowerCase()] ?? (/^[0-2]$/.test(value) ? Number(value) : undefined);
  return n;
}

const runes = (s: string) => [...s].length;

/** Gitea's ValidSiteUrl: empty, or an http(s) URL. */
function validSiteUrl(value: string): boolean {
  if (value === "") return true;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** The form's first problem, in Gitea's words (UpdateProfileForm's bindings). */
function profileProblem(v: ProfileValues): string | undefined {
  if (runes(v.name) > 40) return "Username must contain at most 40 characters.";
  if (runes(v.fullName) > 100) return "Full Name must contain at most 100 characters.";
  if (!validSiteUrl(v.website)) return `"${v.website}" is not a valid URL.`;
  if (runes(v.website) > 255) return "Website must contain at most 255 characters.";
  if (runes(v.location) > 50) return "Location must contain at most 50 characters.";
  if (runes(v.description) > 255) return "Biography must contain at most 255 characters.";
  return undefined;
}

/** A refused rename in Gitea's words (form.username_been_taken, user.form.name_reserved, ...). */
function renameProblem(err: Invalid, name: string): string {
  const m = err.message;
  if (m.startsWith("user already exists")) return "The username is already taken.";
  if (m.startsWith("name is reserved")) return `The username "${name}" is reserved.`;
  if (m.startsWith("name pattern is not allowed")) return `The pattern "${name}" is not allowed in a username.`;
  if (m.startsWith("name is invalid")) return `User name "${name}" contains invalid characters.`;
  return m;
}

export const profilePost = page({
  access: signedIn,
  handler(ctx) {
    const { env, form } = ctx;
    let doer: UserRow = ctx.doer;
    const visibility = visibilityOf(form.get("visibility"), doer.visibility);
    const values: ProfileValues = {
      name: form.get("name")?.trim() ?? "",
      fullName: form.get("full_name")?.trim() ?? "",
      website: form.get("website")?.trim() ?? "",
      location: form.get("location")?.trim() ?? "",
      description: form.get("description")?.trim() ?? "",
      visibility: visibility ?? doer.visibility,
      keepEmailPrivate: checked(form, "keep_email_private"),
      keepActivityPrivate: checked(form, "keep_activity_private"),
    };
    const problem = visibility === undefined ? "User visibility is not one of public, limited or private." : profileProblem(values);
    if (problem) return profilePage(ctx, values, problem);
    if (values.name !== "" && values.name !== doer.name) {
      try {
        doer = renameAccount(env, doer, values.name);
      } catch (err) {
        if (err instanceof Invalid) return profilePage(ctx, values, renameProblem(err, values.name));
        throw err;
      }
    }
    updateSettings(env, doer, {
      fullName: values.fullName,
      website: values.website,
      location: values.location,
      description: values.description,
      visibility: values.visibility,
      hideEmail: values.keepEmailPrivate,
      hideActivity: values.keepActivityPrivate,
    });
    return ctx.redirect("/user/settings", { kind: "success", text: "Your profile has been updated." });
  },
});

export const avatarPost = page({
  access: signedIn,
  async handler(ctx) {
    const { env, doer } = ctx;
    const refuse = (text: string) => profilePage(ctx, valuesOf(doer), text);
    const file = ctx.files.get("avatar");
    if (!file || file.size === 0) return refuse("Choose an image file to upload.");
    const max = env.settings.picture.avatarMaxFileSize;
    if (file.size > max) {
      return refuse(`The uploaded file size (${Math.floor(file.size / 1024)} KiB) exceeds the maximum size (${Math.floor(max / 1024)} KiB).`);
    }
    const data = new Uint8Array(await file.arrayBuffer());
    if (!imageType(data)) return refuse("The uploaded file is not an image.");
    try {
      setAvatarImage(env, doer, data);
    } catch (err) {
      if (err instanceof HearthError && err.status < 500) return refuse(err.message);
      throw err;
    }
    return ctx.redirect("/user/settings", { kind: "success", text: "Your avatar has been updated." });
  },
});

export const avatarDelete = page({
  access: signedIn,
  handler(ctx) {
    deleteAvatar(ctx.env, ctx.doer);
    return ctx.redirect("/user/settings", { kind: "success", text: "Your avatar has been deleted." });
  },
});
