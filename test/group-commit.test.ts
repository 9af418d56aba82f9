import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, sqliteOf, writeTx } from "../src/db/client.ts";
import { committed, enableGroupCommit } from "../src/db/group-commit.ts";
import { answer } from "../src/http/answer.ts";
import type { App } from "../src/http/app.ts";
import { makeTestApp } from "./support/app.ts";

/** A database with scratch tables: `item`, and `child` whose foreign key is checked at COMMIT. */
function scratch(group: boolean) {
  const path = join(mkdtempSync(join(tmpdir(), "group-commit-")), "hearth.db");
  const database = openDatabase(path);
  database.sqlite.exec("CREATE TABLE item (n INTEGER PRIMARY KEY)");
  database.sqlite.exec("CREATE TABLE child (n INTEGER PRIMARY KEY, item INTEGER REFERENCES item(n) DEFERRABLE INITIALLY DEFERRED)");
  if (group) enableGroupCommit(database.sqlite);
  const reader = new Database(path, { readonly: true });
  const stored = () => (reader.query("SELECT n FROM item ORDER BY n").values() as number[][]).map((r) => r[0]);
  afterAll(() => {
    reader.close();
    database.close();
  });
  const insert = (n: number) => writeTx(database.db, () => database.sqlite.query("INSERT INTO item (n) VALUES (?)").run(n));
  return { path, database, stored, insert };
}

describe("group commit (the server's writes of one event-loop turn share a transaction)", () => {
  test("writes of one turn are committed together at its end; another connection sees them only then", async () => {
    const s = scratch(true);
    s.insert(1);
    s.insert(2);
    expect(s.database.sqlite.query("SELECT count(*) AS c FROM item").get()).toEqual({ c: 2 });
    expect(s.stored()).toEqual([]);
    await committed(s.database.sqlite);
    expect(s.stored()).toEqual([1, 2]);
    s.insert(3);
    await committed(s.database.sqlite);
    expect(s.stored()).toEqual([1, 2, 3]);
  });

  test("a write that throws rolls back only itself; the rest of its group is stored", async () => {
    const s = scratch(true);
    s.insert(1);
    expect(() =>
      writeTx(s.database.db, () => {
        s.database.sqlite.query("INSERT INTO item (n) VALUES (2)").run();
        throw new Error("refused halfway");
      }),
    ).toThrow("refused halfway");
    s.insert(3);
    await committed(s.database.sqlite);
    expect(s.stored()).toEqual([1, 3]);
  });

  test("a commit that fails rejects the group, stores none of it, and the next turn writes again", async () => {
    const s = scratch(true);
    s.insert(1);
    writeTx(s.database.db, () => s.database.sqlite.query("INSERT INTO child (n, item) VALUES (1, 99)").run());
    await expect(committed(s.database.sqlite)).rejects.toThrow(/FOREIGN KEY/);
    expect(s.stored()).toEqual([]);
    expect(s.database.sqlite.inTransaction).toBe(false);
    s.insert(5);
    await committed(s.database.sqlite);
    expect(s.stored()).toEqual([5]);
  });

  test("closing the connection commits the group still open", () => {
    const s = scratch(true);
    s.insert(7);
    s.database.close();
    const again = new Database(s.path, { readonly: true });
    expect(again.query("SELECT n FROM item").values()).toEqual([[7]]);
    again.close();
  });

  test("without it (the one-shot commands), each write commits as writeTx returns", () => {
    const s = scratch(false);
    s.insert(1);
    expect(s.stored()).toEqual([1]);
    expect(s.database.sqlite.inTransaction).toBe(false);
  });
});

describe("answers wait for the commit of their writes", () => {
  const t = makeTestApp();
  const sqlite = sqliteOf(t.env.db);
  sqlite.exec("CREATE TABLE scratch_parent (n INTEGER PRIMARY KEY)");
  sqlite.exec("CREATE TABLE scratch_child (n INTEGER PRIMARY KEY, p INTEGER REFERENCES scratch_parent(n) DEFERRABLE INITIALLY DEFERRED)");
  const reader = new Database(t.settings.database.path, { readonly: true });
  afterAll(() => reader.close());
  const appWriting = (sql: string) =>
    ({
      handle: async () => {
        writeTx(t.env.db, () => sqlite.exec(sql));
        return new Response("{}", { status: 201, headers: { "Content-Type": "application/json" } });
      },
    }) as unknown as App;

  test("an answered write is already visible to another connection", async () => {
    const r = await answer(appWriting("INSERT INTO scratch_parent (n) VALUES (1)"), t.env, new Request("http://hearth.test/x"));
    expect(r.status).toBe(201);
    expect(reader.query("SELECT n FROM scratch_parent").values()).toEqual([[1]]);
  });

  test("a write whose commit fails is answered with Gitea's 500 error, not its success", async () => {
    const r = await answer(appWriting("INSERT INTO scratch_child (n, p) VALUES (1, 42)"), t.env, new Request("http://hearth.test/x"));
    expect(r.status).toBe(500);
    expect(await r.json()).toEqual({ message: expect.any(String), url: expect.stringContaining("/api/swagger") });
    expect(reader.query("SELECT count(*) FROM scratch_child").values()).toEqual([[0]]);
  });
});

describe("the work queue acts only on committed items", () => {
  const t = makeTestApp();
  const sqlite = sqliteOf(t.env.db);
  sqlite.exec("CREATE TABLE scratch_p (n INTEGER PRIMARY KEY)");
  sqlite.exec("CREATE TABLE scratch_c (n INTEGER PRIMARY KEY, p INTEGER REFERENCES scratch_p(n) DEFERRABLE INITIALLY DEFERRED)");
  const ran: string[] = [];
  t.env.queue.register<string>("group-commit-test", async (payload) => {
    ran.push(payload);
  });

  test("an item put by a change whose commit failed never runs; the next one does", async () => {
    // A wake-up scheduled before the change's group opens: the worker claims within that open group.
    t.env.queue.hurry("group-commit-test");
    writeTx(t.env.db, (tx) => {
      t.env.queue.put(tx, "group-commit-test", "doomed");
      sqlite.exec("INSERT INTO scratch_c (n, p) VALUES (1, 7)");
    });
    await expect(committed(sqlite)).rejects.toThrow(/FOREIGN KEY/);
    writeTx(t.env.db, (tx) => t.env.queue.put(tx, "group-commit-test", "kept"));
    await t.env.queue.idle();
    expect(ran).toEqual(["kept"]);
  });
});
