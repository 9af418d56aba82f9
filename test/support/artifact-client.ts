import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The environment act_runner gives a step, for the @actions/artifact client talking to `baseUrl`. */
export function stepEnv(baseUrl: string, token: string): void {
  process.env.ACTIONS_RUNTIME_TOKEN = token;
  process.env.ACTIONS_RESULTS_URL = baseUrl;
  process.env.GITHUB_WORKSPACE = mkdtempSync(join(tmpdir(), "hearth-ws-"));
  // The client refuses GHES hosts; act_runner users run it with the github.com default.
  process.env.GITHUB_SERVER_URL = "https://github.com";
}

/** Runs the client without its progress lines (@actions/core writes them to stdout). */
export async function quietly<T>(work: () => Promise<T>): Promise<T> {
  const write = process.stdout.write;
  process.stdout.write = (() => true) as typeof process.stdout.write;
  try {
    return await work();
  } finally {
    process.stdout.write = write;
  }
}
