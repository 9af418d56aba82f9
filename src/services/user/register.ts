import type { Env } from "../env.ts";
import type { UserRow } from "../../db/schema/index.ts";
import { Forbidden } from "../../lib/errors.ts";
import { createUser } from "./account.ts";
import { countUsers } from "./lookup.ts";

/**
 * Self-registration (the web's sign-up form), as Gitea: refused when `[service]
 * DISABLE_REGISTRATION` is on; the first account of a new site becomes its administrator.
 * No mail confirmation and no captcha (the settings that would ask for them refuse to start).
 */
export async function registerUser(env: Env, input: { username: string; email: string; password: string }): Promise<UserRow> {
  if (env.settings.service.disableRegistration) throw new Forbidden("Registration is disabled.");
  return createUser(env, { ...input, mustChangePassword: false, isAdmin: countUsers(env) === 0 });
}
