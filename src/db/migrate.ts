import type { Database } from "bun:sqlite";
import { migrations } from "./migrations.gen.ts";

const BREAKPOINT = "--> statement-breakpoint";

/**
 * Applies embedded migrations in journal order, each in its own immediate transaction, recording
 * them in `hearth_migrations`. Idempotent: an applied tag is skipped, so every start may call it.
 */
export function runMigrations(sqlite: Database): string[] {
  sqlite.exec(
    "CREATE TABLE IF NOT EXISTS hearth_migrations (tag TEXT PRIMARY KEY NOT NULL, hash TEXT NOT NULL, applied_unix INTEGER NOT NULL)",
  );
  const applied = new Map(
    sqlite
      .query<{ tag: string; hash: string }, []>("SELECT tag, hash FROM hearth_migrations")
      .all()
      .map((r) => [r.tag, r.hash]),
  );
  const known = new Set(migrations.map((m) => m.tag));
  for (const tag of applied.keys()) {
    if (!known.has(tag)) {
      throw new Error(`database has migration ${tag}, which this hearth does not know: it was written by a newer version`);
    }
  }
  const ran: string[] = [];
  for (const m of migrations) {
    if (applied.has(m.tag)) continue;
    const hash = new Bun.CryptoHasher("sha256").update(m.sql).digest("hex");
    const statements = m.sql
      .split(BREAKPOINT)
      .map((s) => s.trim())
      .filter(Boolean);
    sqlite.transaction(() => {
      for (const s of statements) sqlite.exec(s);
      sqlite
        .query("INSERT INTO hearth_migrations (tag, hash, applied_unix) VALUES (?, ?, ?)")
        .run(m.tag, hash, Math.floor(Date.now() / 1000));
    }).immediate();
    ran.push(m.tag);
  }
  return ran;
}
