import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

/** Debian's chromium (installed by .ci/run), or the one CHROMIUM names. */
export const CHROMIUM = [process.env.CHROMIUM, "/usr/bin/chromium", "/usr/lib/chromium/chromium"].find(
  (path): path is string => !!path && existsSync(path),
);

/** Headless chromium with nothing reaching outside hosts (WEB-NOTES.md lists why each flag). */
export async function launchChromium(): Promise<Browser> {
  if (!CHROMIUM) throw new Error("chromium not found: apt-get install chromium (or set CHROMIUM to its path)");
  return chromium.launch({
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
