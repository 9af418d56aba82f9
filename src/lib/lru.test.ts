import { expect, test } from "bun:test";
import { Lru } from "./lru.ts";

test("the least recently used entries go first, by count and by weight; an entry heavier than the cache is not kept", () => {
  const lru = new Lru<string>(3, 10);
  lru.set("a", "A", 2);
  lru.set("b", "B", 2);
  lru.set("c", "C", 2);
  expect(lru.get("a")).toBe("A"); // a is now the most recent
  lru.set("d", "D", 2); // four entries: b, the least recent, goes
  expect([lru.get("b"), lru.get("c"), lru.get("a"), lru.get("d")]).toEqual([undefined, "C", "A", "D"]);
  lru.set("e", "E", 7); // 2 + 2 + 2 + 7 > 10: the oldest go until it fits
  expect(lru.size).toBe(2);
  expect([lru.get("d"), lru.get("e")]).toEqual(["D", "E"]);
  lru.set("huge", "H", 11);
  expect(lru.get("huge")).toBeUndefined();
  expect(lru.size).toBe(2);
});
