/**
 * The floor for bench/run.ts: a bare `Bun.serve` that answers every request with the same bytes
 * hearth returned for `GET /api/v1/user` (read once from BASELINE_BODY), with the same
 * Content-Type. No routing, no auth, no database: only what Bun itself costs per request.
 *
 *   BASELINE_PORT=8081 BASELINE_BODY=user.json bun bench/baseline-server.ts
 *
 * run.ts compiles it with `bun build --compile` so it starts the way dist/hearth does.
 */
import { readFileSync } from "node:fs";
import { exitOnSignal } from "./lib/floor-exit.ts";

const port = Number(process.env.BASELINE_PORT ?? "0");
const bodyFile = process.env.BASELINE_BODY;
const contentType = process.env.BASELINE_CONTENT_TYPE ?? "application/json;charset=utf-8";
const body: Uint8Array = bodyFile ? readFileSync(bodyFile) : new TextEncoder().encode('{"version":"baseline"}');

const server = Bun.serve({
  hostname: "127.0.0.1",
  port,
  idleTimeout: 0,
  // A new Response per request, as an application handler would build one.
  fetch: () => new Response(body, { headers: { "Content-Type": contentType } }),
});

exitOnSignal(server);
