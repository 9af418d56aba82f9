import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { makeTestApp } from "../support/app.ts";
import { jsOffPage, launchChromium, signInWithForm } from "../support/browser.ts";
import { CI_WORKFLOW, ownerRunner, pushFiles, runNextTask, waitForRuns } from "../support/actions-pages.ts";

const AXE = require.resolve("axe-core/axe.min.js");

/**
 * The Actions pages in a real browser with JavaScript off: from the repository to a run, a job
 * and a step's log by what is on screen, a line's anchor opening its step, the re-run button, and
 * no critical or serious axe finding. Nothing may be fetched from another host.
 */
const t = makeTestApp("", { listen: true });
let browser: Browser;
const origin = () => new URL(t.baseUrl).origin;

beforeAll(async () => {
  browser = await launchChromium();
  const alice = await t.user("alice");
  await t.ok("POST", "/api/v1/user/repos", t.token(alice), { name: "tools", auto_init: true }, 201);
  const repoId = (await t.ok("GET", "/api/v1/repos/alice/tools", undefined)).id as number;
  const runner = await ownerRunner(t, alice.id);
  await pushFiles(t, "alice", "tools", { ".gitea/workflows/ci.yml": CI_WORKFLOW }, "Add CI");
  await waitForRuns(t, repoId, 1);
  await runNextTask(t, runner, {
    setupLines: ["act_runner version v0.2.13"],
    steps: [{ lines: ["compiling \x1b[32mok\x1b[0m", "linking"] }, { lines: ["all checks passed"] }],
  });
  await runNextTask(t, runner, { steps: [{ lines: ["1 test failed"], result: "failure" }] });
});
afterAll(async () => {
  await browser?.close();
});

const jsOff = () => jsOffPage(browser, origin());
const signIn = (page: Page) => signInWithForm(page, t.baseUrl, "alice", "password123");

describe("the Actions pages with JavaScript off", () => {
  test("repository → Actions → run → job → a step's log, by what is on screen", async () => {
    const { page, elsewhere, close } = await jsOff();
    await page.goto(`${t.baseUrl}alice/tools`);
    await page.getByRole("navigation", { name: "Repository" }).getByRole("link", { name: "Actions" }).click();
    expect(new URL(page.url()).pathname).toBe("/alice/tools/actions");
    await page.getByRole("link", { name: "Add CI" }).click();
    expect(new URL(page.url()).pathname).toBe("/alice/tools/actions/runs/1");
    await page.getByRole("link", { name: "build" }).click();
    expect(new URL(page.url()).pathname).toBe("/alice/tools/actions/runs/1/jobs/0");
    // A successful step is folded; opening it shows its rows, the colour code gone.
    const line = page.getByText("compiling ok");
    expect(await line.isVisible()).toBe(false);
    await page.locator("summary", { hasText: "echo build" }).click();
    expect(await line.isVisible()).toBe(true);
    expect(await page.getByText("all checks passed").isVisible()).toBe(false);
    // The failed job's failed step is open by itself.
    await page.getByRole("navigation", { name: "Jobs" }).getByRole("link", { name: /test/ }).click();
    expect(await page.getByText("1 test failed").isVisible()).toBe(true);
    expect(elsewhere).toEqual([]);
    await close();
  });

  test("a line's anchor opens its step", async () => {
    const { page, close } = await jsOff();
    await page.goto(`${t.baseUrl}alice/tools/actions/runs/1/jobs/0#jobstep-2-1`);
    expect(await page.getByText("all checks passed").isVisible()).toBe(true);
    await close();
  });

  test("the owner re-runs the run with the button", async () => {
    const { page, elsewhere, close } = await jsOff();
    await signIn(page);
    await page.goto(`${t.baseUrl}alice/tools/actions/runs/1`);
    await page.getByRole("button", { name: "Re-run all jobs" }).click();
    expect(new URL(page.url()).pathname).toBe("/alice/tools/actions/runs/1");
    expect(await page.getByText("All jobs of the run will run again.").isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Cancel" }).isVisible()).toBe(true);
    expect(elsewhere).toEqual([]);
    await close();
  });

  test("axe finds no critical or serious problem", async () => {
    const problems: string[] = [];
    for (const scheme of ["light", "dark"] as const) {
      const ctx = await browser.newContext({ bypassCSP: true, colorScheme: scheme });
      const page = await ctx.newPage();
      for (const path of ["alice/tools/actions", "alice/tools/actions/runs/1", "alice/tools/actions/runs/1/jobs/0#jobstep-1-1", "alice/tools/actions/runs/1/jobs/1"]) {
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
