import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

/** Debian's chromium (installed by .ci/run), or the one CHROMIUM names. */
export const CHROMIUM = [process.env.CHROMIUM, "/usr/bin/chromium", "/usr/lib/chromium/chromium"].find(
  (path): path is string => !!path && existsSync(path),
);

/** Headless chromium with nothing reaching outside hosts (WEB-NOTES.md lists why each flag). */
/**
 * `work`, or an error once `ms` passed: for the playwright calls that have no timeout of their own
 * (newContext, route, newPage, cookies), which under Bun have been seen to wait forever for a CDP
 * answer that never came, so the test can start over with a new browser instead of timing out.
 */
export async function deadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([work, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Chromium, started within 20 s (a second try if the first start hangs). */
export async function launchChromium(): Promise<Browser> {
  try {
    return await launchOnce();
  } catch {
    return await launchOnce();
  }
}

async function launchOnce(): Promise<Browser> {
  if (!CHROMIUM) throw new Error("chromium not found: apt-get install chromium (or set CHROMIUM to its path)");
  return chromium.launch({
    timeout: 20_000,
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * A context with JavaScript off whose requests to any origin but `origin` (and `allowed`) are
 * aborted and recorded in `elsewhere`, for the tests that pages load nothing from other hosts. A
 * route for other hosts only, rather than a listener on every request: playwright-core under Bun
 * sometimes loses a request object it reported (a redirect's) and fails with "Cannot find parent
 * object request@…".
 */
export async function jsOffPage(
  browser: Browser,
  origin: string,
  opts: { allowed?: string[]; viewport?: { width: number; height: number } } = {},
): Promise<{ ctx: BrowserContext; page: Page; elsewhere: string[]; close: () => Promise<void> }> {
  const ctx = await deadline(browser.newContext({ javaScriptEnabled: false, ...(opts.viewport ? { viewport: opts.viewport } : {}) }), 20_000, "a new browser context");
  const elsewhere: string[] = [];
  const allowed = opts.allowed ?? [];
  await ctx.route(
    (url) => url.protocol.startsWith("http") && url.origin !== origin && !allowed.includes(url.origin),
    (route) => {
      elsewhere.push(route.request().url());
      return route.abort();
    },
  );
  return { ctx, page: await ctx.newPage(), elsewhere, close: () => ctx.close() };
}

/** Signs in through the sign-in page's form, as a person would. */
export async function signInWithForm(page: Page, baseUrl: string, user: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}user/login`);
  await page.getByLabel("Username or email address").fill(user);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}
