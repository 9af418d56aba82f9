import type { Env } from "../services/env.ts";
import { pingDatabase } from "../services/health.ts";

/** Gitea's /api/healthz: `pass` with 200, or `fail` with 424 when a dependency is down. */
export function healthz(env: Env): Response {
  const time = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
  const db = pingDatabase(env) ? "pass" : "fail";
  const body = {
    status: db,
    description: env.settings.appName,
    checks: { "database:ping": [{ status: db, time }] },
  };
  return new Response(JSON.stringify(body, null, 2), {
    status: db === "pass" ? 200 : 424,
    headers: { "Content-Type": "application/json" },
  });
}
