import { describe, expect, test } from "bun:test";
import { TOTP, Secret } from "otpauth";
import { makeTestApp } from "../support/app.ts";
import { enrollTotp } from "../../src/services/user/twofactor.ts";
import { QUERY_TOKEN_WARNING } from "../../src/auth/authenticate.ts";
import { getTokenByHash } from "../../src/models/token.ts";
import { hashToken } from "../../src/crypto/token.ts";

const t = makeTestApp();
const alice = await t.user("alice", { password: "alice-password" });
const aliceToken = t.token(alice);

describe("token authentication", () => {
  test("Authorization: token and Bearer both authenticate", async () => {
    for (const header of [`token ${aliceToken}`, `Bearer ${aliceToken}`, `bearer ${aliceToken}`]) {
      const r = await t.json("GET", "/api/v1/user", { headers: { Authorization: header } });
      expect(r.status).toBe(200);
      expect(r.body.login).toBe("alice");
    }
  });

  test("the token scheme is case-sensitive as in Gitea", async () => {
    const r = await t.json("GET", "/api/v1/user", { headers: { Authorization: `Token ${aliceToken}` } });
    expect(r.status).toBe(401);
  });

  test("an unknown token is a 401 on every route, public ones too", async () => {
    for (const path of ["/api/v1/user", "/api/v1/version"]) {
      const r = await t.json("GET", path, { token: "0".repeat(40) });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ message: "invalid username, password or token", url: "http://hearth.test/api/swagger" });
    }
  });

  test("no credentials: public routes answer, signed-in routes say a token is required", async () => {
    expect((await t.json("GET", "/api/v1/version")).status).toBe(200);
    const r = await t.json("GET", "/api/v1/user");
    expect(r.status).toBe(401);
    expect(r.body.message).toBe("token is required");
  });

  test("query token and access_token work and carry the deprecation warning", async () => {
    for (const param of ["token", "access_token"]) {
      const r = await t.json("GET", `/api/v1/user?${param}=${aliceToken}`);
      expect(r.status).toBe(200);
      expect(r.body.login).toBe("alice");
      expect(r.headers.get("Warning")).toBe(QUERY_TOKEN_WARNING);
      expect(r.headers.get("X-Gitea-Warning")).toBe(QUERY_TOKEN_WARNING);
    }
  });

  test("the warning is on error responses too, and absent without a query token", async () => {
    const bad = await t.json("GET", "/api/v1/user?token=nope");
    expect(bad.status).toBe(401);
    expect(bad.headers.get("Warning")).toBe(QUERY_TOKEN_WARNING);
    const header = await t.json("GET", "/api/v1/user", { token: aliceToken });
    expect(header.headers.get("Warning")).toBeNull();
  });

  test("the token itself is never stored, only its hash", () => {
    const sqlite = (t.env.db as unknown as { $client: { query(s: string): { all(): unknown[] } } }).$client;
    const dump = JSON.stringify(sqlite.query("SELECT * FROM access_token").all());
    expect(dump).not.toContain(aliceToken);
    expect(getTokenByHash(t.env.db, hashToken(aliceToken))?.uid).toBe(alice.id);
  });

  test("a web session cookie is not accepted by the API", async () => {
    const r = await t.json("GET", "/api/v1/user", { headers: { Cookie: `i_like_gitea=${aliceToken}; _csrf=x` } });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe("token is required");
  });
});

describe("DISABLE_QUERY_AUTH_TOKEN", () => {
  const strict = makeTestApp("[security]\nDISABLE_QUERY_AUTH_TOKEN = true\n");
  test("query tokens are ignored entirely; headers still work", async () => {
    const u = await strict.user("qt");
    const tok = strict.token(u);
    const q = await strict.json("GET", `/api/v1/user?token=${tok}`);
    expect(q.status).toBe(401);
    expect(q.body.message).toBe("token is required");
    expect(q.headers.get("Warning")).toBe(QUERY_TOKEN_WARNING);
    const h = await strict.json("GET", "/api/v1/user", { token: tok });
    expect(h.status).toBe(200);
  });
});

describe("basic authentication", () => {
  test("user name and password", async () => {
    const r = await t.json("GET", "/api/v1/user", { basic: ["alice", "alice-password"] });
    expect(r.status).toBe(200);
    expect(r.body.login).toBe("alice");
  });

  test("email and password", async () => {
    const r = await t.json("GET", "/api/v1/user", { basic: ["alice@example.com", "alice-password"] });
    expect(r.status).toBe(200);
  });

  test("a token as the password, or as the user name with an empty password", async () => {
    expect((await t.json("GET", "/api/v1/user", { basic: ["alice", aliceToken] })).status).toBe(200);
    expect((await t.json("GET", "/api/v1/user", { basic: [aliceToken, ""] })).status).toBe(200);
    expect((await t.json("GET", "/api/v1/user", { basic: [aliceToken, "x-oauth-basic"] })).status).toBe(200);
  });

  test("a wrong password and an unknown user fail identically", async () => {
    const wrong = await t.json("GET", "/api/v1/user", { basic: ["alice", "nope-nope"] });
    const unknown = await t.json("GET", "/api/v1/user", { basic: ["nobody", "nope-nope"] });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.message).toBe("invalid username, password or token");
  });

  test("malformed Authorization headers are a clear 4xx, never a 500", async () => {
    for (const header of ["Basic", "Basic !!!", "Basic " + btoa("no-colon"), "token", "Bearer a b", "Digest x", "\u00e9"]) {
      const r = await t.json("GET", "/api/v1/user", { headers: { Authorization: header } });
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
  });
});

describe("two-factor authentication inside basic auth", () => {
  test("TOTP is required on every endpoint for password logins, and codes are single-use", async () => {
    const bob = await t.user("bob2fa", { password: "bob-password" });
    const { secret } = await enrollTotp(t.env, bob);
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" });
    for (const path of ["/api/v1/user", "/api/v1/version", "/api/v1/settings/api"]) {
      const missing = await t.json("GET", path, { basic: ["bob2fa", "bob-password"] });
      expect(missing.status).toBe(401);
      expect(missing.body.message).toBe("invalid provided OTP");
    }
    const wrong = await t.json("GET", "/api/v1/user", {
      basic: ["bob2fa", "bob-password"],
      headers: { "X-Gitea-OTP": "000000" === totp.generate() ? "111111" : "000000" },
    });
    expect(wrong.status).toBe(401);
    const code = totp.generate();
    const ok = await t.json("GET", "/api/v1/user", { basic: ["bob2fa", "bob-password"], headers: { "X-Gitea-OTP": code } });
    expect(ok.status).toBe(200);
    expect(ok.body.login).toBe("bob2fa");
    const replay = await t.json("GET", "/api/v1/user", { basic: ["bob2fa", "bob-password"], headers: { "X-Gitea-OTP": code } });
    expect(replay.status).toBe(401);
  });

  test("a token used as the basic password skips the second factor", async () => {
    const carol = await t.user("carol2fa", { password: "carol-password" });
    await enrollTotp(t.env, carol);
    const tok = t.token(carol);
    expect((await t.json("GET", "/api/v1/user", { basic: ["carol2fa", tok] })).status).toBe(200);
    expect((await t.json("GET", "/api/v1/user", { token: tok })).status).toBe(200);
  });
});

describe("account state", () => {
  test("must-change-password blocks API use until cleared", async () => {
    const admin = await t.user("stateadmin", { admin: true });
    const adminToken = t.token(admin);
    const created = await t.json("POST", "/api/v1/admin/users", {
      token: adminToken,
      body: { username: "newbie", email: "newbie@example.com", password: "newbie-pass" },
    });
    expect(created.status).toBe(201);
    const blocked = await t.json("GET", "/api/v1/user", { basic: ["newbie", "newbie-pass"] });
    expect(blocked.status).toBe(403);
    expect(blocked.body.message).toBe("You must change your password. Change it at: http://hearth.test//user/change_password");
    const cleared = await t.json("PATCH", "/api/v1/admin/users/newbie", {
      token: adminToken,
      body: { login_name: "newbie", source_id: 0, must_change_password: false },
    });
    expect(cleared.status).toBe(200);
    expect((await t.json("GET", "/api/v1/user", { basic: ["newbie", "newbie-pass"] })).status).toBe(200);
  });

  test("a user prohibited from logging in is refused even with a token", async () => {
    const admin = await t.user("stateadmin2", { admin: true });
    const dave = await t.user("dave");
    const daveToken = t.token(dave);
    const missingLoginName = await t.json("PATCH", "/api/v1/admin/users/dave", {
      token: t.token(admin),
      body: { login_name: "", source_id: 0, prohibit_login: true },
    });
    expect(missingLoginName.status).toBe(422);
    expect(missingLoginName.body.message).toBe("[LoginName]: Required");
    expect((await t.json("GET", "/api/v1/user", { token: daveToken })).status).toBe(200);
    const edit = await t.json("PATCH", "/api/v1/admin/users/dave", {
      token: t.token(admin),
      body: { login_name: "dave", source_id: 0, prohibit_login: true },
    });
    expect(edit.status).toBe(200);
    const after = await t.json("GET", "/api/v1/user", { token: daveToken });
    expect(after.status).toBe(403);
    expect(after.body.message).toBe(
      "This account is prohibited from signing in, please contact your site administrator.",
    );
  });
});

describe("REQUIRE_SIGNIN_VIEW", () => {
  const closed = makeTestApp("[service]\nREQUIRE_SIGNIN_VIEW = true\n");
  test("anonymous callers are refused everywhere; signed-in ones pass", async () => {
    const r = await closed.json("GET", "/api/v1/version");
    expect(r.status).toBe(403);
    expect(r.body.message).toBe("Only signed in user is allowed to call APIs.");
    const u = await closed.user("viewer");
    expect((await closed.json("GET", "/api/v1/version", { token: closed.token(u) })).status).toBe(200);
  });
});

describe("reverse-proxy authentication", () => {
  test("ignored on the API by default", async () => {
    const r = await t.json("GET", "/api/v1/user", { headers: { "X-WEBAUTH-USER": "alice" } });
    expect(r.status).toBe(401);
  });

  const proxied = makeTestApp(
    "[service]\nENABLE_REVERSE_PROXY_AUTHENTICATION_API = true\n[security]\nREVERSE_PROXY_AUTHENTICATION_USER = X-Proxy-User\n",
  );
  test("accepted when ENABLE_REVERSE_PROXY_AUTHENTICATION_API is on, with the configured header", async () => {
    await proxied.user("erin");
    const ok = await proxied.json("GET", "/api/v1/user", { headers: { "X-Proxy-User": "erin" } });
    expect(ok.status).toBe(200);
    expect(ok.body.login).toBe("erin");
    const unknown = await proxied.json("GET", "/api/v1/user", { headers: { "X-Proxy-User": "ghost-user" } });
    expect(unknown.status).toBe(401);
    const defaultHeader = await proxied.json("GET", "/api/v1/user", { headers: { "X-WEBAUTH-USER": "erin" } });
    expect(defaultHeader.status).toBe(401);
  });
});

describe("sudo", () => {
  test("an admin may act as another user; others may not", async () => {
    const admin = await t.user("sudoadmin", { admin: true });
    const frank = await t.user("frank");
    const asFrank = await t.json("GET", "/api/v1/user?sudo=frank", { token: t.token(admin) });
    expect(asFrank.status).toBe(200);
    expect(asFrank.body.login).toBe("frank");
    const header = await t.json("GET", "/api/v1/user", { token: t.token(admin), headers: { Sudo: "frank" } });
    expect(header.body.login).toBe("frank");
    const denied = await t.json("GET", "/api/v1/user?sudo=sudoadmin", { token: t.token(frank) });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe("Only administrators allowed to sudo.");
    const missing = await t.json("GET", "/api/v1/user?sudo=nobody-here", { token: t.token(admin) });
    expect(missing.status).toBe(404);
  });
});

describe("failed sign-in rate limiting", () => {
  const limited = makeTestApp("[security]\nLOGIN_RATE_LIMIT = 3\nLOGIN_RATE_WINDOW = 60\n");
  test("after too many failures an address gets 429 with Retry-After, even with the right password", async () => {
    await limited.user("gina", { password: "gina-password" });
    for (let i = 0; i < 3; i++) {
      expect((await limited.json("GET", "/api/v1/user", { basic: ["gina", "wrong-password"] })).status).toBe(401);
    }
    const blocked = await limited.json("GET", "/api/v1/user", { basic: ["gina", "gina-password"] });
    expect(blocked.status).toBe(429);
    const retry = Number(blocked.headers.get("Retry-After"));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect(blocked.body.message).toContain("too many failed sign-in attempts");
  });

  test("tokens are not held up by the password limit", async () => {
    const u = await limited.user("hank");
    expect((await limited.json("GET", "/api/v1/user", { token: limited.token(u) })).status).toBe(200);
  });
});
