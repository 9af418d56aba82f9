import { describe, expect, test } from "bun:test";
import { makeTestApp } from "../support/app.ts";
import { expectShape } from "../support/shape.ts";
import { User } from "../../src/shapes/user.ts";

const t = makeTestApp();
const root = await t.user("root", { admin: true });
const rootToken = t.token(root);
const plain = await t.user("plain");
const plainToken = t.token(plain);

const create = (body: unknown, token = rootToken) => t.json("POST", "/api/v1/admin/users", { token, body });

describe("POST /admin/users", () => {
  test("creates a user with Gitea's defaults", async () => {
    const r = await create({ username: "carol", email: "Carol@Example.com", password: "carol-pass", full_name: "Carol" });
    expect(r.status).toBe(201);
    expectShape(r.body, User);
    expect(r.body).toMatchObject({ login: "carol", full_name: "Carol", email: "carol@example.com", active: true, is_admin: false, visibility: "public" });
    // must_change_password defaults to true: a password login is refused until it is cleared
    expect((await t.json("GET", "/api/v1/user", { basic: ["carol", "carol-pass"] })).status).toBe(403);
  });

  test("created_at sets the account's creation time", async () => {
    const r = await create({
      username: "olduser",
      email: "old@example.com",
      password: "old-password",
      must_change_password: false,
      created_at: "2020-01-02T03:04:05Z",
    });
    expect(r.status).toBe(201);
    expect(new Date(r.body.created).toISOString()).toBe("2020-01-02T03:04:05.000Z");
    expect((await t.json("GET", "/api/v1/user", { basic: ["olduser", "old-password"] })).status).toBe(200);
  });

  test("restricted and visibility are taken from the request", async () => {
    const r = await create({ username: "rv", email: "rv@example.com", password: "rv-password", restricted: true, visibility: "limited" });
    expect(r.body).toMatchObject({ restricted: true, visibility: "limited" });
  });

  test("validation in Gitea's words and codes", async () => {
    const cases: [unknown, number, string][] = [
      [{ email: "x@example.com", password: "password1" }, 422, "[Username]: Required"],
      [{ username: "x1", password: "password1" }, 422, "[Email]: Required"],
      [{ username: "x2", email: "x2@example.com", password: "short" }, 400, "PasswordIsRequired"],
      [{ username: "x3", email: "x3@example.com" }, 400, "PasswordIsRequired"],
      [{ username: "bad..name", email: "x4@example.com", password: "password1" }, 422, "name is invalid [bad..name]: must be valid alpha or numeric or dash(-_) or dot characters"],
      [{ username: "Admin.keys", email: "x5@example.com", password: "password1" }, 422, "name pattern is not allowed [pattern: *.keys]"],
      [{ username: "api", email: "x6@example.com", password: "password1" }, 422, "name is reserved [name: api]"],
      [{ username: "x7", email: "not-an-email", password: "password1" }, 422, "e-mail invalid [email: not-an-email]"],
      [{ username: "x8", email: "a b@example.com", password: "password1" }, 422, "e-mail address contains unsupported character [email: a b@example.com]"],
      [{ username: "ROOT", email: "x9@example.com", password: "password1" }, 422, "user already exists [name: ROOT]"],
      [{ username: "x10", email: "ROOT@example.com", password: "password1" }, 422, "e-mail already in use [email: ROOT@example.com]"],
      [{ username: "x11", email: "x11@example.com", password: "password1", visibility: "secret" }, 422, "[Visibility]: In"],
      [{ username: "x".repeat(41), email: "x12@example.com", password: "password1" }, 422, "[Username]: MaxSize"],
      [{ username: "x13", email: "x13@example.com", password: "password1", created_at: "yesterday" }, 422, "[CreatedAt]: Invalid timestamp: Received \"yesterday\""],
    ];
    for (const [body, status, message] of cases) {
      const r = await create(body);
      expect({ body, status: r.status, message: r.body.message }).toEqual({ body, status, message });
    }
  });

  test("malformed bodies are 422, never 500", async () => {
    for (const body of ["{", "[]", "null", '"x"', "42", '{"username": {"a": 1}}']) {
      const r = await t.json("POST", "/api/v1/admin/users", { token: rootToken, body });
      expect(r.status).toBe(422);
    }
  });

  test("only site admins, only with the admin scope", async () => {
    const r = await create({ username: "y1", email: "y1@example.com", password: "password1" }, plainToken);
    expect(r.status).toBe(403);
    expect(r.body.message).toBe("user should be the site admin");
    const noScope = await create({ username: "y2", email: "y2@example.com", password: "password1" }, t.token(root, ["read:admin"]));
    expect(noScope.status).toBe(403);
    expect(noScope.body.message).toContain("required=[write:admin]");
    expect((await t.json("POST", "/api/v1/admin/users", { body: {} })).status).toBe(401);
  });
});

describe("PATCH /admin/users/{username}", () => {
  test("changes only given fields; a new password works and revokes tokens", async () => {
    const dan = await t.user("dan", { password: "dan-password" });
    const danToken = t.token(dan);
    const r = await t.json("PATCH", "/api/v1/admin/users/dan", {
      token: rootToken,
      body: { login_name: "dan", source_id: 0, full_name: "Dan D", website: "https://dan.example", max_repo_creation: 3, password: "dan-new-password" },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ full_name: "Dan D", website: "https://dan.example", login_name: "dan", email: "dan@example.com" });
    expect((await t.json("GET", "/api/v1/user", { basic: ["dan", "dan-password"] })).status).toBe(401);
    expect((await t.json("GET", "/api/v1/user", { basic: ["dan", "dan-new-password"] })).status).toBe(200);
    expect((await t.json("GET", "/api/v1/user", { token: danToken })).status).toBe(401);
  });

  test("email change replaces the primary address; taken or invalid emails are 400 and change nothing", async () => {
    const erinToken = t.token(await t.user("erin"));
    const ok = await t.json("PATCH", "/api/v1/admin/users/erin", { token: rootToken, body: { login_name: "erin", email: "erin2@example.com" } });
    expect(ok.status).toBe(200);
    expect(ok.body.email).toBe("erin2@example.com");
    const emails = await t.json("GET", "/api/v1/user/emails", { token: erinToken });
    expect(emails.body).toEqual([{ email: "erin2@example.com", verified: true, primary: true, user_id: expect.any(Number), username: "erin" }]);

    const taken = await t.json("PATCH", "/api/v1/admin/users/erin", {
      token: rootToken,
      body: { login_name: "erin", email: "root@example.com", full_name: "should not stick" },
    });
    expect(taken.status).toBe(400);
    expect(taken.body.message).toBe("e-mail already in use [email: root@example.com]");
    expect((await t.json("GET", "/api/v1/users/erin", { token: rootToken })).body.full_name).toBe("");
    const invalid = await t.json("PATCH", "/api/v1/admin/users/erin", { token: rootToken, body: { login_name: "erin", email: "" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toBe("e-mail invalid [email: ]");
  });

  test("the last admin cannot be demoted; unknown users are 404", async () => {
    const r = await t.json("PATCH", "/api/v1/admin/users/root", { token: rootToken, body: { login_name: "root", admin: false } });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(`can not delete the last admin user [uid: ${root.id}]`);
    expect((await t.json("PATCH", "/api/v1/admin/users/nobody", { token: rootToken, body: { login_name: "x" } })).status).toBe(404);
    const promote = await t.json("PATCH", "/api/v1/admin/users/plain", { token: rootToken, body: { login_name: "plain", admin: true } });
    expect(promote.body.is_admin).toBe(true);
    const demote = await t.json("PATCH", "/api/v1/admin/users/plain", { token: rootToken, body: { login_name: "plain", admin: false } });
    expect(demote.body.is_admin).toBe(false);
  });
});

describe("DELETE /admin/users/{username}", () => {
  test("deletes the user and everything hanging off it", async () => {
    const gone = await t.user("gone");
    const goneToken = t.token(gone);
    expect((await t.request("DELETE", "/api/v1/admin/users/gone", { token: rootToken })).status).toBe(204);
    expect((await t.json("GET", "/api/v1/users/gone")).status).toBe(404);
    expect((await t.json("GET", "/api/v1/user", { token: goneToken })).status).toBe(401);
    // the email is free again
    const again = await create({ username: "gone2", email: "gone@example.com", password: "password1" });
    expect(again.status).toBe(201);
    expect((await t.request("DELETE", "/api/v1/admin/users/gone2?purge=true", { token: rootToken })).status).toBe(204);
  });

  test("an admin cannot delete themself; unknown users are 404", async () => {
    const self = await t.json("DELETE", "/api/v1/admin/users/root", { token: rootToken });
    expect(self.status).toBe(422);
    expect(self.body.message).toBe("you cannot delete yourself");
    expect((await t.json("DELETE", "/api/v1/admin/users/nobody", { token: rootToken })).status).toBe(404);
  });
});

describe("GET /admin/users", () => {
  test("lists with filters, sort and paging", async () => {
    const all = await t.json("GET", "/api/v1/admin/users?limit=50", { token: rootToken });
    expect(all.status).toBe(200);
    const names = all.body.map((u: { login: string }) => u.login);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(Number(all.headers.get("X-Total-Count"))).toBe(all.body.length);
    for (const u of all.body) expectShape(u, User);

    const admins = await t.json("GET", "/api/v1/admin/users?is_admin=true", { token: rootToken });
    expect(admins.body.map((u: { login: string }) => u.login)).toEqual(["root"]);
    const q = await t.json("GET", "/api/v1/admin/users?q=caro", { token: rootToken });
    expect(q.body.map((u: { login: string }) => u.login)).toEqual(["carol"]);
    const limited = await t.json("GET", "/api/v1/admin/users?visibility=limited", { token: rootToken });
    expect(limited.body.map((u: { login: string }) => u.login)).toEqual(["rv"]);
    const byId = await t.json("GET", "/api/v1/admin/users?sort=id&order=desc&limit=1", { token: rootToken });
    expect(byId.body[0].id).toBe(Math.max(...all.body.map((u: { id: number }) => u.id)));
    expect(byId.headers.get("Link")).toContain('rel="next"');

    for (const [qs, msg] of [
      ["visibility=x", 'Invalid visibility: "x"'],
      ["sort=age", 'Invalid sort mode: "age"'],
      ["sort=id&order=up", 'Invalid sort order: "up"'],
    ]) {
      const r = await t.json("GET", `/api/v1/admin/users?${qs}`, { token: rootToken });
      expect(r.status).toBe(422);
      expect(r.body.message).toBe(msg);
    }
    expect((await t.json("GET", "/api/v1/admin/users", { token: plainToken })).status).toBe(403);
  });
});
