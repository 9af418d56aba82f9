/**
 * The floor for bench/writes.ts: a bare `Bun.serve` over `bun:sqlite` that inserts one row per
 * `POST` (the JSON body's `title` and `body`) and answers 201 with the row as JSON. The database
 * is opened as hearth opens its own (WAL, `synchronous` from FLOOR_SYNC), so the ratio to hearth
 * measures hearth's work, not SQLite's durability: no routing, no auth, no events.
 *
 *   FLOOR_DB=/tmp/floor.db FLOOR_SYNC=FULL bun bench/writes-floor.ts   # prints its port
 */
import { Database } from "bun:sqlite";
import { exitOnSignal } from "./lib/floor-exit.ts";

const path = process.env.FLOOR_DB;
const sync = process.env.FLOOR_SYNC ?? "FULL";
if (!path) throw new Error("FLOOR_DB is required");
if (!/^(FULL|NORMAL)$/.test(sync)) throw new Error("FLOOR_SYNC is FULL or NORMAL");

const db = new Database(path, { create: true, strict: true });
db.exec("PRAGMA journal_mode = WAL");
db.exec(`PRAGMA synchronous = ${sync}`);
db.exec("PRAGMA busy_timeout = 5000");
db.exec("CREATE TABLE IF NOT EXISTS row (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL, created_unix INTEGER NOT NULL)");
const insert = db.prepare("INSERT INTO row (title, body, created_unix) VALUES ($title, $body, $created) RETURNING id, title, body, created_unix");

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  idleTimeout: 0,
  async fetch(req) {
    if (req.method !== "POST") return new Response("ok");
    const input = (await req.json()) as { title?: string; body?: string };
    const row = insert.get({ title: input.title ?? "", body: input.body ?? "", created: Math.floor(Date.now() / 1000) });
    return Response.json(row, { status: 201 });
  },
});
console.log(server.port);

exitOnSignal(server, () => db.close());
