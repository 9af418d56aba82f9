import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { TOTP, Secret } from "otpauth";
import { makeTestApp } from "../support/app.ts";
import { launchChromium } from "../support/browser.ts";
import { enrollTotp } from "../../src/services/user/twofactor.ts";

/**
 * The web interface in a real browser with JavaScript off, as a person without scripts uses it:
 * signing in (with and without a one-time code), pages reached only through what is on screen,
 * and forms from another site refused. Nothing may be fetched from any other host.
 */
const t = makeTestApp("", { listen: true });
let browser: Browser;
const origin = () => new URL(t.baseUrl).origin;

beforeAll(async () => {
  browser = await launchChromium();
  await t.user("alice");
});
afterAll(async () => {
  await browser?.close();
});

/** A JavaScript-off context that records every request leaving for another host. */
async function context(): Promise<{ ctx: BrowserContext; page: Page; elsewhere: string[] }> {
  const ctx = await browser.newContext({ javaScriptEnabled: false });
  const page = await ctx.newPage();
  const elsewhere: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.protocol.startsWith("http") && url.origin !== origin()) elsewhere.push(r.url());
  });
  return { ctx, page, elsewhere };
}

async function signIn(page: Page, user: string, password = "password123"): Promise<void> {
  await page.goto(t.baseUrl);
  await page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Sign in" }).click();
  await page.getByLabel("Username or email address").fill(user);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

describe("signing in with JavaScript off", () => {
  test("password sign-in from the landing page reaches the dashboard, and signing out returns", async () => {
    const { ctx, page, elsewhere } = await context();
    await signIn(page, "alice");
    expect(new URL(page.url()).pathname).toBe("/");
    await expect(page.getByRole("heading", { name: /Repositories/ }).count()).resolves.toBe(1);
    expect(await page.getByRole("navigation", { name: "Site" }).innerText()).toContain("alice");
    const cookies = await ctx.cookies();
    expect(cookies.find((c) => c.name === "i_like_gitea")?.httpOnly).toBe(true);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Sign in" }).count()).resolves.toBe(1);
    expect(elsewhere).toEqual([]);
    await ctx.close();
  });

  test("with two-factor enrolled, the code page follows the password", async () => {
    const bob = await t.user("bob");
    const { secret } = await enrollTotp(t.env, bob);
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" });
    const { ctx, page } = await context();
    await signIn(page, "bob");
    expect(new URL(page.url()).pathname).toBe("/user/two_factor");
    await page.getByLabel("Passcode").fill("000000" === totp.generate() ? "111111" : "000000");
    await page.getByRole("button", { name: "Verify" }).click();
    expect(await page.getByRole("alert").innerText()).toContain("passcode is incorrect");
    await page.getByLabel("Passcode").fill(totp.generate());
    await page.getByRole("button", { name: "Verify" }).click();
    expect(new URL(page.url()).pathname).toBe("/");
    expect(await page.getByRole("navigation", { name: "Site" }).innerText()).toContain("bob");
    await ctx.close();
  });
});

describe("forms from another site", () => {
  test("a form on another origin cannot sign a visitor out", async () => {
    // The attacker's page: another origin (a second port) with a form posting to hearth.
    const evil = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () =>
        new Response(`<!DOCTYPE html><form method="post" action="${t.baseUrl}user/logout"><button>Win a prize</button></form>`, {
          headers: { "Content-Type": "text/html" },
        }),
    });
    try {
      const { ctx, page } = await context();
      await signIn(page, "alice");
      await page.goto(`http://127.0.0.1:${evil.port}/`);
      const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/user/logout")), page.getByRole("button").click()]);
      expect(response.status()).toBe(403);
      await page.goto(t.baseUrl);
      expect(await page.getByRole("navigation", { name: "Site" }).innerText()).toContain("alice");
      await ctx.close();
    } finally {
      evil.stop(true);
    }
  });
});
