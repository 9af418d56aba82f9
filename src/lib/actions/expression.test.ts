import { describe, expect, test } from "bun:test";
import { evaluate, evaluateIf, evaluateTemplate, ExpressionError, interpolate, looseEquals, toText } from "./expression.ts";

describe("literals", () => {
  test.each([
    ["null", null],
    ["true", true],
    ["FALSE", false],
    ["42", 42],
    ["-3.5", -3.5],
    ["0xff", 255],
    ["1e3", 1000],
    ["2.5E-1", 0.25],
    ["'it''s'", "it's"],
    ["''", ""],
  ])("%s", (expr, want) => {
    expect(evaluate(expr)).toEqual(want);
  });
});

const ctx = {
  github: {
    ref: "refs/heads/main",
    event_name: "push",
    event: {
      issue: { labels: [{ name: "bug" }, { name: "ui" }, { other: 1 }] },
      commits: [{ message: "a" }, { message: "b" }],
    },
  },
  matrix: { os: "ubuntu", version: 1.17, list: [1, 2] },
  vars: { FLAG: "on", EMPTY: "" },
  inputs: { n: 3 },
  env: { "my-key": "v" },
};

describe("property access", () => {
  test.each([
    ["github.ref", "refs/heads/main"],
    ["GITHUB.Ref", "refs/heads/main"],
    ["github['ref']", "refs/heads/main"],
    ["github['REF']", "refs/heads/main"],
    ["github.nothing", null],
    ["github.nothing.deeper", null],
    ["matrix.list[1]", 2],
    ["matrix.list[5]", null],
    ["matrix.list['x']", null],
    ["env.my-key", "v"],
    // act keeps an element without the property as null
    ["github.event.issue.labels.*.name", ["bug", "ui", null]],
    ["github.event.issue.labels.name", ["bug", "ui", null]],
    ["github.event.commits.*.message", ["a", "b"]],
    ["matrix.*", ["ubuntu", 1.17, [1, 2]]],
    ["github.event.commits[0].message", "a"],
    ["secrets.TOKEN", null],
  ])("%s", (expr, want) => {
    expect(evaluate(expr, ctx)).toEqual(want);
  });
  test("an unknown context is an error", () => {
    expect(() => evaluate("nope.x", ctx)).toThrow(/unavailable context: nope/);
  });
});

describe("operators", () => {
  test.each([
    ["!true", false],
    ["!''", true],
    ["!0", true],
    ["!null", true],
    ["!github", false],
    ["1 < 2", true],
    ["'a' < 'B'", true],
    ["'10' > 9", true],
    ["1 <= 1", true],
    ["2 >= 3", false],
    ["'abc' == 'ABC'", true],
    ["'abc' != 'abd'", true],
    ["1 == '1'", true],
    ["0 == ''", true],
    ["null == 0", true],
    ["true == 1", true],
    ["true == 'true'", false],
    ["'0x10' == 16", true],
    ["github == github", true],
    ["github.event == github.event.issue", false],
    ["0xff == 255", true],
    ["'a' && 'b'", "b"],
    ["'' && 'b'", ""],
    ["'' || 'b'", "b"],
    ["'a' || 'b'", "a"],
    ["null || 0 || 'x'", "x"],
    ["(1 == 1) && !(2 < 1)", true],
    ["github.event_name == 'push' && vars.FLAG == 'ON'", true],
    ["vars.EMPTY || 'default'", "default"],
  ])("%s", (expr, want) => {
    expect(evaluate(expr, ctx)).toEqual(want);
  });
  test("NaN is never equal", () => {
    expect(evaluate("'abc' == 0")).toBe(false);
    expect(evaluate("fromJSON('{}') == 0")).toBe(false);
  });
});

describe("functions", () => {
  test.each([
    ["contains('Hello world', 'WORLD')", true],
    ["contains(github.event.issue.labels.*.name, 'BUG')", true],
    ["contains(github.event.issue.labels.*.name, 'docs')", false],
    ["contains(fromJSON('[1,2]'), '2')", true],
    ["startsWith('Hello', 'he')", true],
    ["endsWith('Hello', 'LO')", true],
    ["endsWith(github.ref, '/main')", true],
    ["format('{0} {1} {0}', 'a', 1.5)", "a 1.5 a"],
    ["format('{{0}} {0}', true)", "{0} true"],
    ["join(matrix.list, '-')", "1-2"],
    ["join(github.event.commits.*.message)", "a,b"],
    ["join(github.event.issue.labels.*.name, ' ')", "bug ui "],
    ["join('abc')", "abc"],
    ["join(1.5)", "1.5"],
    ["join(null)", ""],
    ["contains(github.event, 'Object')", false],
    ["contains(1234, 23)", true],
    ["toJSON(matrix.list)", "[\n  1,\n  2\n]"],
    ["toJSON(fromJSON('{\"b\":1,\"a\":\"<&>\"}'))", '{\n  "a": "\\u003c\\u0026\\u003e",\n  "b": 1\n}'],
    ["toJSON(null)", "null"],
    ["case(false, 'a', true, 'b', 'c')", "b"],
    ["case(false, 'a', 'c')", "c"],
    ["fromJSON('{\"a\": [1]}').a[0]", 1],
    ["fromJSON('true')", true],
    ["always()", true],
    ["success()", true],
    ["failure()", false],
    ["cancelled()", false],
    ["FORMAT('{0}', null)", ""],
  ])("%s", (expr, want) => {
    expect(evaluate(expr, ctx)).toEqual(want);
  });
  test("status functions read the caller's status", () => {
    expect(evaluate("failure()", { status: "failure" })).toBe(true);
    expect(evaluate("success()", { status: "failure" })).toBe(false);
    expect(evaluate("cancelled()", { status: "cancelled" })).toBe(true);
  });
  test("hashFiles is refused with a clear error", () => {
    expect(() => evaluate("hashFiles('**/go.sum')")).toThrow(/only available inside steps/);
  });
  test.each([
    ["format('{1}', 'a')", /refers to argument/],
    ["format('{', 'a')", /invalid format/],
    ["fromJSON('{')", /invalid JSON/],
    ["fromJSON(1)", /only a string/],
    ["case(true, 1)", /odd number/],
    ["contains('a')", /takes 2/],
    ["nosuch()", /unknown function/],
  ])("%s fails", (expr, re) => {
    expect(() => evaluate(expr, ctx)).toThrow(re);
  });
});

describe("syntax errors", () => {
  test.each(["", "1 +", "'open", "a.", "(1", "1 2", "github[", "a ==", "@", "contains(1,"])("%p", (expr) => {
    expect(() => evaluate(expr, ctx)).toThrow(ExpressionError);
  });
});

describe("interpolate", () => {
  test.each([
    ["plain", "plain"],
    ["${{ matrix.os }}", "ubuntu"],
    ["build on ${{ matrix.os }} / ${{matrix.version}}", "build on ubuntu / 1.17"],
    ["${{ matrix.list }}", "Array"],
    ["${{ github.event }}", "Object"],
    ["${{ null }}-${{ true }}", "-true"],
    ["${{ 'a}}b' }}", "a}}b"],
    ["${{ 1e21 }}", "1E+21"],
    ["${{ 100 }}", "100"],
    ["${{ 0.1 }}", "0.1"],
    ["${{ 0.00001 }}", "1E-05"],
    ["${{ 0.0001 }}", "0.0001"],
    ["${{ 1.10 }}", "1.1"],
    ["${{ fromJSON('0.30000000000000004') }}", "0.3"],
    ["${{ 123456.789 }}", "123456.789"],
    ["${{ -2.5 }}", "-2.5"],
  ])("%p", (text, want) => {
    expect(interpolate(text, ctx)).toBe(want);
  });
  test("an unclosed expression is an error", () => {
    expect(() => interpolate("a ${{ b", ctx)).toThrow(/unclosed/);
  });
  test("evaluateTemplate keeps a whole expression's type", () => {
    expect(evaluateTemplate("${{ fromJSON('[1,2]') }}")).toEqual([1, 2]);
    expect(evaluateTemplate("x ${{ 1 }}")).toBe("x 1");
    expect(evaluateTemplate("plain")).toBe("plain");
  });
});

describe("evaluateIf", () => {
  test.each([
    ["", "success", true],
    ["", "failure", false],
    ["github.ref == 'refs/heads/main'", "success", true],
    ["${{ github.ref == 'refs/heads/main' }}", "success", true],
    ["github.ref == 'refs/heads/main'", "failure", false],
    ["always()", "failure", true],
    ["${{ failure() }}", "failure", true],
    ["failure() || github.ref == 'x'", "success", false],
    ["!cancelled()", "failure", true],
    ["false", "success", false],
    ["vars.EMPTY", "success", false],
    // text around an expression is a non-empty string, so it is true (GitHub's well-known trap)
    ["${{ false }} && true", "success", true],
  ] as const)("%p with %s", (cond, status, want) => {
    expect(evaluateIf(cond, { ...ctx, status })).toBe(want);
  });
});

test("toText and looseEquals", () => {
  expect(toText(1.5)).toBe("1.5");
  expect(toText(-0)).toBe("0");
  expect(toText(NaN)).toBe("NaN");
  expect(looseEquals(undefined, null)).toBe(true);
});
