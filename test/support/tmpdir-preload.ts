import { afterAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Preloaded by `bun test` (bunfig.toml): every temporary directory the tests make — clones, work
 * trees, test apps, the servers and git processes they start inherit TMPDIR too — goes under one
 * directory for the run, removed when the run ends, so runs do not fill the machine's /tmp.
 */
const root = mkdtempSync(join(tmpdir(), "hearth-tests-"));
process.env.TMPDIR = root;
// A global afterAll: bun test does not run process exit handlers of a preload.
afterAll(() => rmSync(root, { recursive: true, force: true }));
