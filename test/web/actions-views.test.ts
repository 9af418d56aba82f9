import { describe, expect, test } from "bun:test";
import { ActionStatus } from "../../src/db/schema/index.ts";
import { COMPLETE_JOB, SET_UP_JOB, fullSteps } from "../../src/services/actions/full-steps.ts";
import { ansiToHtml, groupMarker, stripAnsi } from "../../src/http/web/views/action-log.ts";

const { Success, Failure, Cancelled, Skipped, Waiting, Running } = ActionStatus;

/** A step as Gitea's test writes one: status, log index and length, started and stopped. */
const step = (status: number, logIndex: number, logLength: number, startedUnix: number, stoppedUnix: number, name = "") => ({
  name,
  status,
  logIndex,
  logLength,
  startedUnix,
  stoppedUnix,
});
const task = (status: number, startedUnix: number, stoppedUnix: number, logLength: number) => ({ status, startedUnix, stoppedUnix, logLength });

/** Gitea's TestFullSteps (modules/actions/task_state_test.go), case by case. */
describe("fullSteps", () => {
  const cases: [string, ReturnType<typeof task>, ReturnType<typeof step>[], ReturnType<typeof step>[]][] = [
    [
      "regular",
      task(Success, 10000, 10100, 100),
      [step(Success, 10, 80, 10010, 10090)],
      [step(Success, 0, 10, 10000, 10010, SET_UP_JOB), step(Success, 10, 80, 10010, 10090), step(Success, 90, 10, 10090, 10100, COMPLETE_JOB)],
    ],
    [
      "failed step",
      task(Failure, 10000, 10100, 100),
      [step(Success, 10, 20, 10010, 10020), step(Failure, 30, 60, 10020, 10090), step(Cancelled, 0, 0, 0, 0)],
      [
        step(Success, 0, 10, 10000, 10010, SET_UP_JOB),
        step(Success, 10, 20, 10010, 10020),
        step(Failure, 30, 60, 10020, 10090),
        step(Cancelled, 0, 0, 0, 0),
        step(Failure, 90, 10, 10090, 10100, COMPLETE_JOB),
      ],
    ],
    [
      "first step is running",
      task(Running, 10000, 10100, 100),
      [step(Running, 10, 80, 10010, 0)],
      [step(Success, 0, 10, 10000, 10010, SET_UP_JOB), step(Running, 10, 80, 10010, 0), step(Waiting, 0, 0, 0, 0, COMPLETE_JOB)],
    ],
    [
      "first step has canceled",
      task(Failure, 10000, 10100, 100),
      [step(Cancelled, 0, 0, 0, 0)],
      [step(Failure, 0, 100, 10000, 10100, SET_UP_JOB), step(Cancelled, 0, 0, 0, 0), step(Failure, 100, 0, 10100, 10100, COMPLETE_JOB)],
    ],
    [
      "empty steps",
      task(Success, 10000, 10100, 100),
      [],
      [step(Success, 0, 100, 10000, 10100, SET_UP_JOB), step(Success, 100, 0, 10100, 10100, COMPLETE_JOB)],
    ],
    [
      "all steps finished but task is running",
      task(Running, 10000, 0, 100),
      [step(Success, 10, 80, 10010, 10090)],
      [step(Success, 0, 10, 10000, 10010, SET_UP_JOB), step(Success, 10, 80, 10010, 10090), step(Running, 90, 10, 10090, 0, COMPLETE_JOB)],
    ],
    [
      "skipped task",
      task(Skipped, 0, 0, 0),
      [step(Skipped, 0, 0, 0, 0)],
      [step(Skipped, 0, 0, 0, 0, SET_UP_JOB), step(Skipped, 0, 0, 0, 0), step(Skipped, 0, 0, 0, 0, COMPLETE_JOB)],
    ],
    [
      "first step is skipped",
      task(Success, 10000, 10100, 100),
      [step(Skipped, 0, 0, 0, 0), step(Success, 10, 80, 10010, 10090)],
      [step(Success, 0, 10, 10000, 10010, SET_UP_JOB), step(Skipped, 0, 0, 0, 0), step(Success, 10, 80, 10010, 10090), step(Success, 90, 10, 10090, 10100, COMPLETE_JOB)],
    ],
  ];
  for (const [name, t, steps, want] of cases) {
    test(name, () => expect(fullSteps(t, steps)).toEqual(want));
  }
});

describe("log rows as HTML", () => {
  const h = (s: string) => ansiToHtml(s).toString();
  test("text is escaped; colours, bold and bright colours become classes; a reset ends them", () => {
    expect(h("<b>&amp;</b>")).toBe("&lt;b&gt;&amp;amp;&lt;/b&gt;");
    expect(h("\x1b[1;31merror\x1b[0m: done")).toBe('<span class="ansi-fg-1 ansi-bold">error</span>: done');
    expect(h("\x1b[92mok\x1b[39m \x1b[44mbg\x1b[m")).toBe('<span class="ansi-fg-10">ok</span> <span class="ansi-bg-4">bg</span>');
    expect(h("\x1b[38;5;3mfrom 256\x1b[0m \x1b[38;5;200mtoo far\x1b[0m \x1b[38;2;1;2;3mtrue\x1b[0m")).toBe('<span class="ansi-fg-3">from 256</span> too far true');
  });
  test("other escapes and control characters are dropped; a carriage return keeps what followed it", () => {
    expect(h("\x1b[2K\x1b[1Gclean\x07\x00")).toBe("clean");
    expect(h("\x1b]0;title\x07after")).toBe("after");
    expect(h("10%\r50%\r100%")).toBe("100%");
    expect(h("line\r")).toBe("line");
    expect(stripAnsi("\x1b[1mbold\x1b[0m")).toBe("bold");
  });
  test("an attribute cannot be smuggled through a colour code", () => {
    expect(h('\x1b[31m"><img src=x onerror=alert(1)>')).toBe('<span class="ansi-fg-1">&quot;&gt;&lt;img src=x onerror=alert(1)&gt;</span>');
  });
  test("group markers of both spellings", () => {
    expect(groupMarker("::group::Install")).toEqual({ kind: "start", title: "Install" });
    expect(groupMarker("\x1b[36m##[group]Run tests\x1b[0m")).toEqual({ kind: "start", title: "Run tests" });
    expect(groupMarker("::endgroup::")).toEqual({ kind: "end" });
    expect(groupMarker("##[endgroup]")).toEqual({ kind: "end" });
    expect(groupMarker("echo ::group::")).toBeUndefined();
  });
});
