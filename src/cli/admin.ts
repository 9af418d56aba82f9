import { randomBytes } from "node:crypto";
import type { Command } from "./command.ts";
import { UsageError } from "./command.ts";
import { configFlags, withRuntime } from "./runtime.ts";
import { createUser, deleteUser, setPassword } from "../services/user/account.ts";
import { adminListUsers } from "../services/user/profile.ts";
import { createToken, normalizeScopes } from "../services/user/tokens.ts";
import { disableTotp, enrollTotp, hasTotp } from "../services/user/twofactor.ts";
import { countUsers, findUserByEmail, getUserById, requireUser } from "../services/user/lookup.ts";
import { regenerateHooks } from "../services/repo/maintenance.ts";
import { UserType, type UserRow } from "../db/schema/index.ts";
import { NotFound } from "../lib/errors.ts";
import type { Env } from "../services/env.ts";
import { sendMailCommand } from "./sendmail.ts";

type Flags = Record<string, string | boolean | undefined>;

const out = (line: string) => process.stdout.write(line + "\n");

function scopesFrom(value: string | boolean | undefined): string[] {
  const scopes = String(value ?? "all")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  // Checked before anything is written, so a typo in a scope never leaves a half-done change behind.
  normalizeScopes(scopes);
  return scopes;
}

/** An individual user by name, with a CLI-shaped message instead of the API's 404 text. */
function userByName(env: Env, name: string): UserRow {
  try {
    return requireUser(env, name);
  } catch (err) {
    if (err instanceof NotFound) throw new Error(`user '${name}' does not exist`);
    throw err;
  }
}

const createUserCommand: Command = {
  name: "create",
  description: "Create a new user in database",
  flags: [
    ...configFlags,
    { name: "username", short: "u", type: "string", description: "username", required: true },
    { name: "password", short: "p", type: "string", description: "user password" },
    { name: "email", short: "e", type: "string", description: "user email address", required: true },
    { name: "fullname", type: "string", description: "the full name of the user" },
    { name: "admin", type: "bool", description: "user is an admin", default: false },
    { name: "restricted", type: "bool", description: "make a restricted user account" },
    { name: "random-password", type: "bool", description: "generate a random password for the user", default: false },
    { name: "random-password-length", type: "string", description: "length of the random password", default: "12" },
    {
      name: "must-change-password",
      type: "bool",
      description: "user must change password after initial login (default true, false for the first user)",
    },
    { name: "access-token", type: "bool", description: "generate an access token for the user", default: false },
    { name: "access-token-name", type: "string", description: "name of the generated access token", default: "gitea-admin" },
    { name: "access-token-scopes", type: "string", description: "scopes of the generated access token", default: "all" },
  ],
  async run(flags: Flags) {
    let password = flags.password as string | undefined;
    if (flags["random-password"]) {
      if (password) throw new UsageError("--password and --random-password are mutually exclusive");
      const len = Number(flags["random-password-length"]);
      if (!Number.isInteger(len) || len < 1 || len > 255) throw new UsageError("invalid --random-password-length");
      password = randomBytes(len).toString("base64url").slice(0, len);
    }
    if (!password) throw new UsageError("must set either --password or --random-password");
    const scopes = flags["access-token"] ? scopesFrom(flags["access-token-scopes"]) : [];
    await withRuntime(flags, async (env) => {
      // Gitea: the first account is the one setting up the instance, so it is not forced to change its password.
      const mustChange = (flags["must-change-password"] as boolean | undefined) ?? countUsers(env) > 0;
      const user = await createUser(env, {
        username: String(flags.username),
        email: String(flags.email),
        password,
        fullName: flags.fullname as string | undefined,
        isAdmin: Boolean(flags.admin),
        restricted: flags.restricted as boolean | undefined,
        mustChangePassword: mustChange,
      });
      if (flags["random-password"]) out(`generated random password is '${password}'`);
      if (flags["access-token"]) {
        const { token } = createToken(env, user, String(flags["access-token-name"]), scopes);
        out(`Access token was successfully created... ${token}`);
      }
      out(`New user '${user.name}' has been successfully created!`);
    });
  },
};

const listUsersCommand: Command = {
  name: "list",
  description: "List users",
  flags: [...configFlags, { name: "admin", type: "bool", description: "list only admin users", default: false }],
  async run(flags: Flags) {
    await withRuntime(flags, async (env) => {
      const rows: string[][] = [["ID", "Username", "Email", "IsActive", "IsAdmin", "2FA"]];
      for (let offset = 0; ; offset += 500) {
        const { rows: users } = adminListUsers(env, {
          isAdmin: flags.admin ? true : undefined,
          sort: "id",
          offset,
          limit: 500,
        });
        for (const u of users) {
          rows.push([String(u.id), u.name, u.email, String(u.isActive), String(u.isAdmin), String(hasTotp(env, u))]);
        }
        if (users.length < 500) break;
      }
      const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
      for (const r of rows) out(r.map((c, i) => c.padEnd(widths[i]! + 1)).join("").trimEnd());
    });
  },
};

const changePasswordCommand: Command = {
  name: "change-password",
  description: "Change a user's password",
  flags: [
    ...configFlags,
    { name: "username", short: "u", type: "string", description: "the user to change password for", required: true },
    { name: "password", short: "p", type: "string", description: "new password to set for user", required: true },
    { name: "must-change-password", type: "bool", description: "user must change password on next login", default: true },
  ],
  async run(flags: Flags) {
    await withRuntime(flags, async (env) => {
      const user = userByName(env, String(flags.username));
      await setPassword(env, user, String(flags.password), Boolean(flags["must-change-password"]));
      out(`${user.name}'s password has been successfully updated!`);
    });
  },
};

const deleteUserCommand: Command = {
  name: "delete",
  description: "Delete specific user by id, name or email",
  flags: [
    ...configFlags,
    { name: "id", type: "string", description: "ID of user of the user to delete" },
    { name: "username", short: "u", type: "string", description: "username of the user to delete" },
    { name: "email", short: "e", type: "string", description: "email of the user to delete" },
    { name: "purge", type: "bool", description: "purge user, all their repositories, organizations and comments", default: false },
  ],
  async run(flags: Flags) {
    if (!flags.id && !flags.username && !flags.email) throw new UsageError("You must provide the id, username or email of a user to delete");
    if (flags.id !== undefined && !/^[1-9]\d*$/.test(String(flags.id))) throw new UsageError(`invalid --id ${JSON.stringify(flags.id)}`);
    await withRuntime(flags, async (env) => {
      let user = flags.username ? userByName(env, String(flags.username)) : undefined;
      if (!user && flags.email) user = findUserByEmail(env, String(flags.email));
      if (!user && flags.id) user = getUserById(env, Number(flags.id));
      // Organizations share the user table; this command deletes people only.
      if (!user || user.type !== UserType.Individual) throw new Error("user does not exist");
      if (flags.id && user.id !== Number(flags.id)) throw new Error(`the user with id ${flags.id} is not ${user.name}`);
      if (flags.email && user.email.toLowerCase() !== String(flags.email).toLowerCase()) {
        throw new Error(`the user ${user.name} does not have email ${flags.email}`);
      }
      deleteUser(env, undefined, user, Boolean(flags.purge));
    });
  },
};

const generateTokenCommand: Command = {
  name: "generate-access-token",
  description: "Generate an access token for a specific user",
  flags: [
    ...configFlags,
    { name: "username", short: "u", type: "string", description: "username", required: true },
    { name: "token-name", short: "t", type: "string", description: "token name", default: "gitea-admin" },
    { name: "raw", type: "bool", description: "display only the token value", default: false },
    { name: "scopes", type: "string", description: "comma separated list of scopes to apply to access token", default: "all" },
  ],
  async run(flags: Flags) {
    await withRuntime(flags, async (env) => {
      const user = userByName(env, String(flags.username));
      const { token } = createToken(env, user, String(flags["token-name"]), scopesFrom(flags.scopes));
      out(flags.raw ? token : `Access token was successfully created: ${token}`);
    });
  },
};

const enrollTwoFactorCommand: Command = {
  name: "enroll-2fa",
  description: "Enrol a user in TOTP two-factor authentication and print the secret (until the web UI exists)",
  flags: [
    ...configFlags,
    { name: "username", short: "u", type: "string", description: "username", required: true },
    { name: "raw", type: "bool", description: "print only the base32 secret", default: false },
  ],
  async run(flags: Flags) {
    await withRuntime(flags, async (env) => {
      const user = userByName(env, String(flags.username));
      const { secret, uri } = await enrollTotp(env, user);
      if (flags.raw) out(secret);
      else out(`TOTP enrolled for ${user.name}.\nsecret: ${secret}\nuri: ${uri}`);
    });
  },
};

const disableTwoFactorCommand: Command = {
  name: "disable-2fa",
  description: "Remove a user's two-factor authentication",
  flags: [...configFlags, { name: "username", short: "u", type: "string", description: "username", required: true }],
  async run(flags: Flags) {
    await withRuntime(flags, async (env) => {
      const user = userByName(env, String(flags.username));
      out(disableTotp(env, user) ? `two-factor authentication removed for ${user.name}` : `${user.name} had no two-factor authentication`);
    });
  },
};

const regenerateCommand: Command = {
  name: "regenerate",
  description: "Regenerate specific files",
  subcommands: [
    {
      name: "hooks",
      description: "Regenerate git hooks (after the executable moved)",
      flags: [...configFlags],
      async run(flags: Flags) {
        await withRuntime(flags, async (env) => {
          const n = await regenerateHooks(env);
          out(`hooks regenerated for ${n} repositories`);
        });
      },
    },
  ],
};

export const adminCommand: Command = {
  name: "admin",
  description: "Perform common administrative operations",
  subcommands: [
    regenerateCommand,
    sendMailCommand,
    {
      name: "user",
      description: "Modify users",
      subcommands: [
        createUserCommand,
        listUsersCommand,
        changePasswordCommand,
        deleteUserCommand,
        generateTokenCommand,
        enrollTwoFactorCommand,
        disableTwoFactorCommand,
      ],
    },
  ],
};
