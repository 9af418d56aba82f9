/**
 * A second floor for bench/startup.ts: the least a server on hearth's stack can be. `Bun.serve`
 * routing through hearth's router (http/router.ts) to one route that answers
 * `GET /api/v1/version` with a count read through bun:sqlite from hearth's own database file
 * (STACK_DB), no other module. Compiled as dist/hearth is (`--bytecode`, ESM), so its start-up and
 * idle memory are what Bun, the router and SQLite cost before any of hearth's code.
 *
 *   STACK_PORT=8082 STACK_DB=data/hearth.db bun bench/stack-floor-server.ts
 */
import { Database } from "bun:sqlite";
import { Router } from "../src/http/router.ts";
import { exitOnSignal } from "./lib/floor-exit.ts";

const db = new Database(process.env.STACK_DB ?? ":memory:");
db.exec("PRAGMA journal_mode = WAL");
const tables = db.query<{ n: number }, []>("SELECT count(*) AS n FROM sqlite_schema");

const router = new Router();
router.add("GET", "/api/v1/version", () => Response.json({ version: "stack-floor", tables: tables.get()?.n ?? 0 }));

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.STACK_PORT ?? "0"),
  fetch(request) {
    const url = new URL(request.url);
    const found = router.find(request.method, url.pathname);
    return found ? found.handler(request, found.params) : new Response("404 page not found\n", { status: 404 });
  },
});

exitOnSignal(server, () => db.close());
