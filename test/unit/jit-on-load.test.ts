import { expect, test } from "bun:test";
import { jitOnLoad } from "../../src/http/jit-on-load.ts";
import { requestPulse } from "../../src/http/request-pulse.ts";

test("the normal JIT policy is set once a second sees enough requests, and only once", () => {
  const set: number[] = [];
  const onSecond = jitOnLoad(5, (p) => set.push(p));
  onSecond(4);
  onSecond(0);
  expect(set).toEqual([]); // four in a second, then none: still idle
  onSecond(5);
  expect(set).toEqual([1]);
  onSecond(50);
  expect(set).toEqual([1]);
});

test("the pulse hands every listener the requests of each interval, counted afresh", async () => {
  const heard: number[][] = [[], []];
  const pulse = requestPulse(20, [(n) => heard[0]!.push(n), (n) => heard[1]!.push(n)]);
  for (let i = 0; i < 3; i++) pulse.touch();
  while (heard[0]!.length < 2) await Bun.sleep(5);
  pulse.stop();
  expect(heard[0]![0]).toBe(3);
  expect(heard[0]![1]).toBe(0);
  expect(heard[1]).toEqual(heard[0]!);
});
