import { expect, test } from "bun:test";
import { jitOnLoad } from "../../src/http/jit-on-load.ts";

test("the normal JIT policy is set once an interval sees enough requests, and only once", async () => {
  const set: number[] = [];
  const jit = jitOnLoad(5, (p) => set.push(p), 20);
  for (let i = 0; i < 4; i++) jit.touch();
  await Bun.sleep(60);
  expect(set).toEqual([]); // four in an interval, then none: still idle
  for (let i = 0; i < 5; i++) jit.touch();
  while (set.length === 0) await Bun.sleep(5);
  for (let i = 0; i < 50; i++) jit.touch();
  await Bun.sleep(60);
  expect(set).toEqual([1]);
  jit.stop();
});
