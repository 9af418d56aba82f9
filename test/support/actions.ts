import { expect } from "bun:test";
import type { TestApp } from "./app.ts";
import { eventsIdle } from "../../src/services/events/bus.ts";
import { refAnnouncementsIdle } from "../../src/services/repo/push-events.ts";
import { pullSyncIdle } from "../../src/services/pull/push-sync.ts";
import { listRuns, jobsOfRun } from "../../src/models/actions-run.ts";
import type { ActionRunJobRow, ActionRunRow } from "../../src/db/schema/index.ts";

/** Waits until a change's background work (push announcements, pull syncs, events and what they start) is done. */
export async function settled(t: Pick<TestApp, "env">): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await refAnnouncementsIdle(t.env);
    await pullSyncIdle(t.env);
    await eventsIdle(t.env);
  }
}

const b64 = (s: string) => Buffer.from(s).toString("base64");

/** Creates or updates a file through the contents API (a push by the token's owner), then waits for what follows. */
export async function putFile(t: TestApp, repo: string, path: string, content: string, token: string, message: string, branch?: string): Promise<string> {
  const url = `/api/v1/repos/${repo}/contents/${path}${branch ? `?ref=${encodeURIComponent(branch)}` : ""}`;
  const existing = await t.json("GET", url, { token });
  const body = { content: b64(content), message, ...(branch ? { branch } : {}), ...(existing.status === 200 ? { sha: existing.body.sha } : {}) };
  const res = await t.json(existing.status === 200 ? "PUT" : "POST", `/api/v1/repos/${repo}/contents/${path}`, { token, body });
  expect({ status: res.status < 300 ? "ok" : res.status, body: res.status < 300 ? undefined : res.body }).toEqual({ status: "ok", body: undefined });
  await settled(t);
  return res.body.commit.sha as string;
}

/** A repository's runs, newest first, straight from the table. */
export function runsOf(t: Pick<TestApp, "env">, repoId: number): ActionRunRow[] {
  return listRuns(t.env.db, { repoId }, { offset: 0, limit: 1000 }).rows;
}

export function jobsOf(t: Pick<TestApp, "env">, runId: number): ActionRunJobRow[] {
  return jobsOfRun(t.env.db, runId);
}
