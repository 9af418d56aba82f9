import { describe, expect, test } from "bun:test";
import { CronError, nextRun, parseCron, validateCron } from "./cron.ts";

const at = (iso: string) => Date.parse(iso) / 1000;
const next = (spec: string, iso: string) => new Date(nextRun(spec, at(iso)) * 1000).toISOString();

describe("nextRun (UTC)", () => {
  test.each([
    ["* * * * *", "2024-01-01T00:00:00Z", "2024-01-01T00:01:00.000Z"],
    ["* * * * *", "2024-01-01T00:00:30Z", "2024-01-01T00:01:00.000Z"],
    ["0 * * * *", "2024-01-01T00:00:00Z", "2024-01-01T01:00:00.000Z"],
    ["*/15 * * * *", "2024-01-01T10:07:00Z", "2024-01-01T10:15:00.000Z"],
    ["5/20 * * * *", "2024-01-01T10:26:00Z", "2024-01-01T10:45:00.000Z"],
    ["0 9-17/4 * * *", "2024-01-01T10:00:00Z", "2024-01-01T13:00:00.000Z"],
    ["30 2 * * *", "2024-01-01T03:00:00Z", "2024-01-02T02:30:00.000Z"],
    ["0 0 1 * *", "2024-01-15T00:00:00Z", "2024-02-01T00:00:00.000Z"],
    ["0 0 31 * *", "2024-02-01T00:00:00Z", "2024-03-31T00:00:00.000Z"],
    ["0 0 29 2 *", "2024-03-01T00:00:00Z", "2028-02-29T00:00:00.000Z"],
    ["0 12 * jan,JUL *", "2024-02-01T00:00:00Z", "2024-07-01T12:00:00.000Z"],
    ["0 0 * * mon-fri", "2024-01-06T00:00:00Z", "2024-01-08T00:00:00.000Z"], // Saturday → Monday
    ["0 0 * * SUN", "2024-01-01T00:00:00Z", "2024-01-07T00:00:00.000Z"],
    // both day fields restricted: either may match (the 13th, or any Friday)
    ["0 0 13 * 5", "2024-01-01T00:00:00Z", "2024-01-05T00:00:00.000Z"],
    ["0 0 13 * 5", "2024-01-06T00:00:00Z", "2024-01-12T00:00:00.000Z"],
    // day of week a star: only the day of month counts
    ["0 0 13 * *", "2024-01-01T00:00:00Z", "2024-01-13T00:00:00.000Z"],
    ["0 0 13 * ?", "2024-01-01T00:00:00Z", "2024-01-13T00:00:00.000Z"],
    ["@hourly", "2024-01-01T00:30:00Z", "2024-01-01T01:00:00.000Z"],
    ["@daily", "2024-01-01T00:30:00Z", "2024-01-02T00:00:00.000Z"],
    ["@midnight", "2024-01-01T00:30:00Z", "2024-01-02T00:00:00.000Z"],
    ["@weekly", "2024-01-01T00:30:00Z", "2024-01-07T00:00:00.000Z"],
    ["@monthly", "2024-01-01T00:30:00Z", "2024-02-01T00:00:00.000Z"],
    ["@yearly", "2024-01-01T00:30:00Z", "2025-01-01T00:00:00.000Z"],
    ["@annually", "2024-12-31T23:59:59Z", "2025-01-01T00:00:00.000Z"],
    ["59 23 31 12 *", "2024-12-31T23:59:00Z", "2025-12-31T23:59:00.000Z"],
  ])("%s after %s", (spec, after, want) => {
    expect(next(spec, after)).toBe(want);
  });
  test("@every adds its delay", () => {
    expect(nextRun("@every 1h30m", 1000)).toBe(1000 + 5400);
    expect(nextRun("@every 500ms", 1000)).toBe(1001);
  });
  test("a time zone prefix runs on that zone's wall clock", () => {
    // 09:00 in New York is 14:00 UTC in winter and 13:00 UTC in summer
    expect(next("TZ=America/New_York 0 9 * * *", "2024-01-10T00:00:00Z")).toBe("2024-01-10T14:00:00.000Z");
    expect(next("CRON_TZ=America/New_York 0 9 * * *", "2024-07-10T00:00:00Z")).toBe("2024-07-10T13:00:00.000Z");
    expect(next("TZ=UTC 0 9 * * *", "2024-07-10T00:00:00Z")).toBe("2024-07-10T09:00:00.000Z");
  });
  test("a spec that never fires is an error", () => {
    expect(() => nextRun("0 0 30 2 *", 0)).toThrow(CronError);
  });
});

describe("validation", () => {
  test.each([
    ["", /empty/],
    ["* * * *", /5 fields/],
    ["* * * * * *", /5 fields/],
    ["60 * * * *", /above maximum/],
    ["* 24 * * *", /above maximum/],
    ["* * 0 * *", /below minimum/],
    ["* * * 13 *", /above maximum/],
    ["* * * * 7", /above maximum/],
    ["5-1 * * * *", /beyond end/],
    ["*/0 * * * *", /positive/],
    ["1/2/3 * * * *", /too many slashes/],
    ["1-2-3 * * * *", /too many hyphens/],
    ["x * * * *", /parse int/],
    ["-1 * * * *", /parse int/],
    ["@fortnightly", /unrecognized descriptor/],
    ["@DAILY", /unrecognized descriptor/],
    ["@every soon", /duration/],
    ["TZ=Mars/Olympus 0 0 * * *", /bad location/],
  ])("%p", (spec, re) => {
    expect(() => parseCron(spec)).toThrow(CronError);
    expect(validateCron(spec)).toMatch(re);
  });
  test("valid specs", () => {
    expect(validateCron("0,30 8-18 * * MON-FRI")).toBeUndefined();
    expect(validateCron("@every 5m")).toBeUndefined();
  });
});
