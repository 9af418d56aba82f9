import { operation } from "../../../route.ts";
import { UserSettings, UserSettingsOptions } from "../../../../shapes/user.ts";
import { toAPIUserSettings } from "../../../../convert/user.ts";
import { updateSettings } from "../../../../services/user/profile.ts";
import { rejectPublicOnly } from "../../../guards.ts";

/** The doer's settings; Gitea's rejectPublicOnly stays in the handlers (it is about the token, not a resource). */
const access = { scope: "user", signIn: true } as const;

export const userSettingsOperations = [
  operation({
    method: "GET",
    path: "/user/settings",
    operationId: "getUserSettings",
    tag: "user",
    summary: "Get user settings",
    access,
    responses: { 200: UserSettings },
    handler: ({ env, principal, doer }) => {
      rejectPublicOnly(principal);
      return toAPIUserSettings(doer, env.settings.ui.defaultTheme);
    },
  }),
  operation({
    method: "PATCH",
    path: "/user/settings",
    operationId: "updateUserSettings",
    tag: "user",
    summary: "Update user settings",
    access,
    body: UserSettingsOptions,
    responses: { 200: UserSettings },
    handler: ({ env, principal, doer, body }) => {
      rejectPublicOnly(principal);
      const updated = updateSettings(env, doer, {
        fullName: body.full_name ?? undefined,
        website: body.website ?? undefined,
        description: body.description ?? undefined,
        location: body.location ?? undefined,
        language: body.language ?? undefined,
        theme: body.theme ?? undefined,
        diffViewStyle: body.diff_view_style ?? undefined,
        hideEmail: body.hide_email ?? undefined,
        hideActivity: body.hide_activity ?? undefined,
      });
      return toAPIUserSettings(updated, env.settings.ui.defaultTheme);
    },
  }),
];
