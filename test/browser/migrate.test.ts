import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { makeTestApp } from "../support/app.ts";
import { deadline, jsOffPage, launchChromium, signInWithForm } from "../support/browser.ts";
import { gitOk, localRepo } from "../support/git.ts";
import { startGitDaemon } from "../support/git-daemon.ts";

const AXE = require.resolve("axe-core/axe.min.js");

/**
 * A migration in a real browser with JavaScript off, by what is on screen: the header's "+" menu,
 * the chooser, the Git form, a mirror brought in from a `git daemon` on loopback, its settings.
 * Screenshots of the three pages go to SCREENSHOT_DIR (else a temporary directory) for a person to
 * look at; axe finds no critical or serious problem on them in light and dark.
 */
const t = makeTestApp("[migrations]\nALLOW_LOCALNETWORKS = true\n", { listen: true });
let browser: Browser;
const origin = () => new URL(t.baseUrl).origin;
const shots = process.env.SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), "hearth-migrate-shots-"));
mkdirSync(shots, { recursive: true });

let daemonUrl = "";
let stopDaemon = () => {};

beforeAll(async () => {
  browser = await launchChromium();
  await t.user("alice");
  const daemon = await startGitDaemon();
  stopDaemon = daemon.stop;
  const work = await localRepo("main");
  await gitOk(["clone", "-q", "--bare", work, join(daemon.base, "upstream.git")]);
  daemonUrl = `${daemon.url}upstream.git`;
});
afterAll(async () => {
  stopDaemon();
  await browser?.close();
});

const jsOff = () => jsOffPage(browser, origin(), { viewport: { width: 1100, height: 900 } });
const signIn = (page: Page) => signInWithForm(page, t.baseUrl, "alice", "password123");

describe("a migration with JavaScript off", () => {
  test("+ → New Migration → Git → a mirror → its settings, by what is on screen", async () => {
    const { page, elsewhere, close } = await jsOff();
    await signIn(page);
    await page.locator("summary", { hasText: "Create…" }).click();
    await page.screenshot({ path: join(shots, "create-menu.png"), clip: { x: 0, y: 0, width: 1100, height: 200 } });
    await page.getByRole("link", { name: "New Migration" }).click();
    expect(new URL(page.url()).pathname).toBe("/repo/migrate");
    await page.screenshot({ path: join(shots, "migrate-chooser.png"), fullPage: true });

    await page.getByRole("link", { name: "Git", exact: true }).click();
    expect(new URL(page.url()).search).toBe("?service_type=1");
    // A source that is not there: the form comes back with the message and what was typed.
    await page.getByLabel("Migrate / Clone From URL").fill(daemonUrl.replace("upstream", "missing"));
    await page.getByLabel("Repository Name").fill("upstream");
    await page.getByRole("button", { name: "Migrate Repository" }).click();
    expect(await page.getByRole("alert").innerText()).toContain("Migration failed");
    expect(await page.getByLabel("Repository Name").inputValue()).toBe("upstream");
    await page.screenshot({ path: join(shots, "migrate-error.png"), fullPage: true });
    await page.getByLabel("Migrate / Clone From URL").fill(daemonUrl);
    await page.getByLabel("This repository will be a mirror").check();
    await page.getByLabel("Mirror Interval").fill("3h");
    await page.getByLabel("Repository Name").fill("upstream");
    await page.getByLabel("Description").fill("A mirror of upstream");
    await page.screenshot({ path: join(shots, "migrate-form.png"), fullPage: true });
    await page.getByRole("button", { name: "Migrate Repository" }).click();
    expect(new URL(page.url()).pathname).toBe("/alice/upstream");
    expect(await page.getByText(`mirror of ${daemonUrl}`).isVisible()).toBe(true);

    await page.getByRole("navigation", { name: "Repository" }).getByRole("link", { name: "Settings" }).click();
    expect(new URL(page.url()).pathname).toBe("/alice/upstream/settings");
    expect(await page.getByLabel("Mirror Interval").inputValue()).toBe("3h0m0s");
    await page.getByRole("button", { name: "Synchronize Now" }).click();
    expect(await page.getByText("Pulling changes from the remote").isVisible()).toBe(true);
    await page.locator("summary", { hasText: "Convert to Regular Repository" }).click();
    await page.screenshot({ path: join(shots, "mirror-settings.png"), fullPage: true });
    for (const name of ["migrate-chooser", "migrate-error", "migrate-form", "mirror-settings"]) {
      const png = Bun.file(join(shots, `${name}.png`));
      expect(png.size).toBeGreaterThan(5_000);
    }
    expect(elsewhere).toEqual([]);
    await close();
  });

  test("axe finds no critical or serious problem", async () => {
    const problems: string[] = [];
    for (const scheme of ["light", "dark"] as const) {
      const ctx = await deadline(browser.newContext({ bypassCSP: true, colorScheme: scheme }), 20_000, "a new browser context");
      const page = await ctx.newPage();
      await signIn(page);
      for (const path of ["repo/migrate", "repo/migrate?service_type=3", "alice/upstream/settings"]) {
        await page.goto(`${t.baseUrl}${path}`);
        await page.addScriptTag({ path: AXE });
        const result = (await page.evaluate(`axe.run(document, { resultTypes: ["violations"] })`)) as {
          violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
        };
        for (const v of result.violations) {
          if (v.impact === "critical" || v.impact === "serious") problems.push(`${scheme} /${path}: ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`);
        }
      }
      await ctx.close();
    }
    expect(problems).toEqual([]);
  });
});
