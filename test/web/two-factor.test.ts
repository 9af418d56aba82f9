import { describe, expect, test } from "bun:test";
import { Secret, TOTP } from "otpauth";
import { makeTestApp, type TestApp } from "../support/app.ts";
import { WebClient, signedIn, visibleText } from "../support/web.ts";
import { eq } from "drizzle-orm";
import { webSessions } from "../../src/db/schema/index.ts";
import { hashToken } from "../../src/crypto/token.ts";

const t = makeTestApp("[security]\nLOGIN_RATE_LIMIT = 50\n");

/** The stored data of the client's session row, as the server keeps it. */
function sessionData(web: WebClient): string {
  const key = hashToken(web.cookies.get(t.settings.session.cookieName)!);
  return t.env.db.select().from(webSessions).where(eq(webSessions.id, key)).get()!.data;
}

function flashes(page: string): string[] {
  return [...page.matchAll(/<div class="flash (\w+)"[^>]*>([\s\S]*?)<\/div>/g)].map((m) => `${m[1]}: ${visibleText(m[2]!)}`);
}

/** The code an authenticator shows for `secret`, `steps` periods from now. */
function passcode(secret: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

/** Enrols `web`'s account through the pages; returns the secret and the scratch code shown once. */
async function enrol(web: WebClient): Promise<{ secret: string; scratch: string; page: string; code: string }> {
  const form = await web.page("/user/settings/security/two_factor/enroll");
  const secret = /<code class="secret"[^>]*>([A-Z2-7]+)<\/code>/.exec(form)![1]!;
  const code = passcode(secret);
  const res = await web.post("/user/settings/security/two_factor/enroll", { passcode: code });
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toBe("/user/settings/security");
  const page = await web.page("/user/settings/security");
  const scratch = /<code class="secret">([a-z0-9]{10})<\/code>/.exec(page)![1]!;
  return { secret, scratch, page, code };
}

/** Signs in with the password; the answer must send the visitor on to the two-factor step. */
async function passwordStep(app: TestApp, name: string): Promise<WebClient> {
  const web = new WebClient(app);
  const res = await web.signIn(name);
  expect(res.headers.get("location")).toBe("/user/two_factor");
  await web.page("/user/two_factor");
  return web;
}

describe("enrolling in two-factor authentication", () => {
  test("the page shows the secret and a QR code drawn on the server; the secret waits sealed in the session", async () => {
    await t.user("alice");
    const web = await signedIn(t, "alice");
    const before = await web.page("/user/settings/security");
    expect(visibleText(before)).toContain("Your account is not currently enrolled in two-factor authentication.");
    expect(before).toContain('href="/user/settings/security/two_factor/enroll"');

    const form = await web.page("/user/settings/security/two_factor/enroll");
    const secret = /<code class="secret"[^>]*>([A-Z2-7]+)<\/code>/.exec(form)![1]!;
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(form).toMatch(/<svg class="qr" role="img" aria-labelledby="qr-title"[^>]*viewBox="0 0 \d+ \d+"><title id="qr-title">/);
    expect(form).toContain('name="passcode"');
    expect(form).not.toMatch(/<script|\sstyle="|<img[^>]+src="(https?:)?\/\//);
    // Reloading shows the same secret: the authenticator already scanned keeps working.
    const again = await web.page("/user/settings/security/two_factor/enroll");
    expect(again).toContain(`>${secret}</code>`);
    // Stored sealed: the session row does not hold the secret in the clear.
    const data = sessionData(web);
    expect(data).toContain("enrolling");
    expect(data).not.toContain(secret);

    const wrong = await web.post("/user/settings/security/two_factor/enroll", { passcode: "000000" === passcode(secret) ? "111111" : "000000" });
    expect(wrong.status).toBe(200);
    const wrongText = await wrong.text();
    expect(flashes(wrongText)).toEqual(["error: The passcode is incorrect. Try again."]);
    expect(wrongText).toContain(`>${secret}</code>`);
    const empty = await web.post("/user/settings/security/two_factor/enroll", { passcode: "" });
    expect(flashes(await empty.text())).toEqual(["error: Passcode cannot be empty."]);
  });

  test("a right passcode enrols, the recovery key is shown once, and enrolling again is refused", async () => {
    await t.user("bob");
    const web = await signedIn(t, "bob");
    const { scratch, page } = await enrol(web);
    expect(flashes(page)).toEqual([
      `success: Your account has been successfully enrolled. Store your single-use recovery key in a safe place, as it will not be shown again. ${scratch}`,
    ]);
    const later = await web.page("/user/settings/security");
    expect(later).not.toContain(scratch);
    expect(visibleText(later)).toContain("Your account is currently enrolled in two-factor authentication.");
    // The session no longer holds an enrolment.
    expect(sessionData(web)).not.toContain("enrolling");

    const res = await web.get("/user/settings/security/two_factor/enroll");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/user/settings/security");
    expect(flashes(await web.page("/user/settings/security"))).toEqual(["error: Your account is currently enrolled in two-factor authentication."]);
    const post = await web.post("/user/settings/security/two_factor/enroll", { passcode: "123456" });
    expect(post.headers.get("location")).toBe("/user/settings/security");
  });

  test("a passcode without an enrolment page shown first is refused", async () => {
    await t.user("cyd");
    const web = await signedIn(t, "cyd");
    await web.page("/user/settings/security");
    const res = await web.post("/user/settings/security/two_factor/enroll", { passcode: "123456" });
    expect(res.headers.get("location")).toBe("/user/settings/security/two_factor/enroll");
    const page = await web.page("/user/settings/security/two_factor/enroll");
    expect(flashes(page)).toEqual(["error: Failed to get secret."]);
  });
});

describe("signing in with two-factor authentication", () => {
  test("password, then passcode; the same passcode never works twice", async () => {
    await t.user("dora");
    const { secret, code } = await enrol(await signedIn(t, "dora"));

    // The passcode used to enrol is spent.
    const first = await passwordStep(t, "dora");
    const replay = await first.post("/user/two_factor", { passcode: code });
    expect(replay.status).toBe(200);
    expect(visibleText(await replay.text())).toContain("Your passcode is incorrect.");

    const next = passcode(secret, 1);
    const ok = await first.post("/user/two_factor", { passcode: next });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/");
    expect(await first.page("/")).toContain('href="/dora"');

    const second = await passwordStep(t, "dora");
    const twice = await second.post("/user/two_factor", { passcode: next });
    expect(twice.status).toBe(200);
    expect(await second.page("/")).not.toContain('href="/dora"');
    const ok2 = await second.post("/user/two_factor", { passcode: passcode(secret, -1) });
    expect(ok2.status).toBe(303);
    expect(await second.page("/")).toContain('href="/dora"');
  });

  test("the recovery key signs in once, and a regenerated one replaces it", async () => {
    await t.user("egon");
    const settings = await signedIn(t, "egon");
    const { scratch } = await enrol(settings);

    const web = await passwordStep(t, "egon");
    await web.page("/user/two_factor/scratch");
    const used = await web.post("/user/two_factor/scratch", { token: scratch });
    expect(used.status).toBe(303);
    expect(used.headers.get("location")).toBe("/user/settings/security");
    const landing = await web.page("/user/settings/security");
    expect(visibleText(landing)).toContain("You have used your scratch code.");

    const again = await passwordStep(t, "egon");
    await again.page("/user/two_factor/scratch");
    const refused = await again.post("/user/two_factor/scratch", { token: scratch });
    expect(refused.status).toBe(200);
    expect(visibleText(await refused.text())).toContain("Your scratch code is incorrect.");

    const res = await web.post("/user/settings/security/two_factor/regenerate_scratch", {});
    expect(res.headers.get("location")).toBe("/user/settings/security");
    const page = await web.page("/user/settings/security");
    const fresh = /<code class="secret">([a-z0-9]{10})<\/code>/.exec(page)![1]!;
    expect(fresh).not.toBe(scratch);
    expect(flashes(page)[0]).toStartWith("success: Your single-use recovery key has been regenerated.");
    expect(await web.page("/user/settings/security")).not.toContain(fresh);
    const withFresh = await again.post("/user/two_factor/scratch", { token: fresh.toUpperCase() });
    expect(withFresh.status).toBe(303);
  });

  test("wrong passcodes are limited like wrong passwords", async () => {
    const app = makeTestApp("[security]\nLOGIN_RATE_LIMIT = 3\n");
    await app.user("fay");
    const { secret } = await enrol(await signedIn(app, "fay"));
    const web = await passwordStep(app, "fay");
    const wrong = passcode(secret, 1) === "000000" ? "111111" : "000000";
    for (let i = 0; i < 3; i++) expect((await web.post("/user/two_factor", { passcode: wrong })).status).toBe(200);
    const limited = await web.post("/user/two_factor", { passcode: passcode(secret, 1) });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    const scratch = await web.post("/user/two_factor/scratch", { token: "whatever12" });
    expect(scratch.status).toBe(429);
  });

  test("disabling two-factor authentication brings back the password-only sign-in", async () => {
    await t.user("gus");
    const web = await signedIn(t, "gus");
    await enrol(web);
    expect((await new WebClient(t).signIn("gus")).headers.get("location")).toBe("/user/two_factor");
    const page = await web.page("/user/settings/security");
    expect(page).toContain('action="/user/settings/security/two_factor/disable"');
    const res = await web.post("/user/settings/security/two_factor/disable", {});
    expect(res.headers.get("location")).toBe("/user/settings/security");
    const after = await web.page("/user/settings/security");
    expect(flashes(after)).toEqual(["success: Two-factor authentication has been disabled."]);
    expect(visibleText(after)).toContain("not currently enrolled");
    expect((await new WebClient(t).signIn("gus")).headers.get("location")).toBe("/");
    const twice = await web.post("/user/settings/security/two_factor/disable", {});
    expect(twice.headers.get("location")).toBe("/user/settings/security");
    expect(flashes(await web.page("/user/settings/security"))).toEqual([
      "error: Your account is not currently enrolled in two-factor authentication.",
    ]);
    const regen = await web.post("/user/settings/security/two_factor/regenerate_scratch", {});
    expect(regen.headers.get("location")).toBe("/user/settings/security");
    expect(flashes(await web.page("/user/settings/security"))).toEqual([
      "error: Your account is not currently enrolled in two-factor authentication.",
    ]);
  });
});
