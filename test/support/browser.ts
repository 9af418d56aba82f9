import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

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
