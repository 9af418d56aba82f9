import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { launchChromium } from "../support/browser.ts";
import { makeTestApp } from "../support/app.ts";

/**
 * The API docs page in a real browser: the document used to be big enough (41 MB) to crash the
 * tab, which no HTTP-level test sees. Debian's chromium, driven by playwright-core, opens
 * /api/swagger of a listening server and must render the operations from /swagger.v1.json.
 */
const t = makeTestApp("", { listen: true });
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe("/api/swagger in chromium", () => {
  test("swagger-ui renders the operations without crashing, loading nothing from elsewhere", async () => {
    const page = await browser.newPage();
    const origin = new URL(t.baseUrl).origin;
    const elsewhere: string[] = [];
    const pageErrors: string[] = [];
    let crashed = false;
    page.on("request", (request) => {
      const url = new URL(request.url());
      // data: and blob: URLs are swagger-ui's own inline images, not fetches.
      if (url.protocol.startsWith("http") && url.origin !== origin) elsewhere.push(request.url());
    });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("crash", () => {
      crashed = true;
    });

    const response = await page.goto(`${t.baseUrl}api/swagger`);
    expect(response?.status()).toBe(200);
    // swagger-ui names each operation's block `operations-{tag}-{operationId}`.
    const repoGet = page.locator("#operations-repository-repoGet");
    await repoGet.waitFor({ state: "visible", timeout: 45_000 });
    expect(await page.locator(".opblock-tag-section").count()).toBeGreaterThan(5);
    expect(await page.locator("#operations-issue-issueCreateIssueAttachment").count()).toBe(1);

    // Opening an operation shows its parameters and the response schema from #/definitions.
    await repoGet.locator(".opblock-summary").first().click();
    await repoGet.locator(".parameters").waitFor({ state: "visible" });
    expect(await repoGet.locator(".parameters").innerText()).toContain("owner");
    const responses = repoGet.locator(".responses-wrapper");
    await responses.waitFor({ state: "visible" });
    // The example value is built from #/definitions/Repository, which the browser resolved.
    expect(await responses.innerText()).toContain("clone_url");

    expect(crashed).toBe(false);
    expect(pageErrors).toEqual([]);
    expect(elsewhere).toEqual([]);
    // The page is still alive and answering.
    expect(await page.title()).toBe("hearth API");
    await page.close();
  });
});
