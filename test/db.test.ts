import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { openDatabase } from "../src/db/client.ts";
import { runMigrations } from "../src/db/migrate.ts";
import { migrations } from "../src/db/migrations.gen.ts";
import { renderMigrationIndex } from "../scripts/embed-migrations.ts";

describe("database", () => {
  test("the embedded migration index matches drizzle-kit's journal", () => {
    const current = readFileSync(join(import.meta.dir, "../src/db/migrations.gen.ts"), "utf8");
    expect(current).toBe(renderMigrationIndex());
    expect(migrations.length).toBeGreaterThan(0);
  });

  test("opening applies migrations once, with the durability pragmas", () => {
    const dir = mkdtempSync(join(tmpdir(), "hearth-db-"));
    try {
      const path = join(dir, "h.db");
      const first = openDatabase(path);
      const pragma = (name: string) => Object.values(first.sqlite.query(`PRAGMA ${name}`).get() as object)[0];
      expect(pragma("journal_mode")).toBe("wal");
      expect(pragma("foreign_keys")).toBe(1);
      expect(pragma("synchronous")).toBe(1); // NORMAL: see openDatabase
      expect(pragma("busy_timeout")).toBe(5000);
      first.close();
      const raw = new Database(path);
      expect(runMigrations(raw)).toEqual([]);
      const applied = raw.query("SELECT tag FROM hearth_migrations").all() as { tag: string }[];
      expect(applied.map((r) => r.tag)).toEqual(migrations.map((m) => m.tag));
      raw.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a database written by a newer hearth is refused, not silently used", () => {
    const raw = new Database(":memory:");
    runMigrations(raw);
    raw.query("INSERT INTO hearth_migrations (tag, hash, applied_unix) VALUES ('9999_future', 'x', 0)").run();
    expect(() => runMigrations(raw)).toThrow("newer version");
  });
});
