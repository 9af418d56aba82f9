/**
 * The GitHub Actions expression language (`${{ … }}`), evaluated as act's `exprparser` does: loose,
 * case-insensitive comparisons with GitHub's type coercion, `&&`/`||` returning operand values, object
 * filters (`a.*.b`), and the documented functions. The server uses it for job names, `runs-on`, matrices,
 * `run-name`, `concurrency` and job `if:` conditions; steps are evaluated by the runner, not here.
 */

export class ExpressionError extends Error {
  override name = "ExpressionError";
}

export type JobStatus = "success" | "failure" | "cancelled";

export const CONTEXT_NAMES = [
  "github", "env", "vars", "secrets", "inputs", "matrix", "needs", "strategy", "steps", "job", "jobs", "runner",
] as const;
export type ContextName = (typeof CONTEXT_NAMES)[number];

/** What an expression can read: the named contexts (absent ones read as null) and the job status. */
export type ExpressionContext = Partial<Record<ContextName, unknown>> & {
  /** The status `success()`, `failure()` and `cancelled()` test; success when left out. */
  status?: JobStatus;
};

// ---------------------------------------------------------------- lexer

type Token =
  | { kind: "num"; value: number; pos: number }
  | { kind: "str"; value: string; pos: number }
  | { kind: "ident"; value: string; pos: number }
  | { kind: "op"; value: string; pos: number }
  | { kind: "eof"; pos: number };

const OPERATORS = ["&&", "||", "==", "!=", "<=", ">=", "<", ">", "!", "(", ")", "[", "]", ".", ",", "*"];

function lex(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "'") {
      let value = "";
      let j = i + 1;
      for (;;) {
        if (j >= src.length) throw new ExpressionError(`unterminated string starting at position ${i} in: ${src}`);
        if (src[j] === "'") {
          if (src[j + 1] === "'") {
            value += "'";
            j += 2;
            continue;
          }
          break;
        }
        value += src[j];
        j++;
      }
      tokens.push({ kind: "str", value, pos: i });
      i = j + 1;
      continue;
    }
    // The language has no subtraction, so a minus sign only ever starts a number literal.
    if (/[0-9]/.test(c) || (c === "-" && /[0-9.]/.test(src[i + 1] ?? "")) || (c === "." && /[0-9]/.test(src[i + 1] ?? "") && tokens.at(-1)?.kind === "op")) {
      const m = /^-?(?:0x[0-9a-fA-F]+|0o[0-7]+|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)/.exec(src.slice(i));
      if (!m) throw new ExpressionError(`invalid number at position ${i} in: ${src}`);
      const text = m[0];
      const negative = text.startsWith("-");
      const body = negative ? text.slice(1) : text;
      let value = body.startsWith("0o") ? parseInt(body.slice(2), 8) : Number(body);
      if (negative) value = -value;
      tokens.push({ kind: "num", value, pos: i });
      i += text.length;
      if (/[A-Za-z_]/.test(src[i] ?? "")) throw new ExpressionError(`unexpected character '${src[i]}' at position ${i} in: ${src}`);
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(src.slice(i))!;
      tokens.push({ kind: "ident", value: m[0], pos: i });
      i += m[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (!op) throw new ExpressionError(`unexpected character '${c}' at position ${i} in: ${src}`);
    tokens.push({ kind: "op", value: op, pos: i });
    i += op.length;
  }
  tokens.push({ kind: "eof", pos: src.length });
  return tokens;
}

// ---------------------------------------------------------------- parser

export type Node =
  | { type: "literal"; value: null | boolean | number | string }
  | { type: "context"; name: string }
  | { type: "property"; object: Node; name: string }
  | { type: "index"; object: Node; index: Node }
  | { type: "filter"; object: Node }
  | { type: "not"; operand: Node }
  | { type: "binary"; op: string; left: Node; right: Node }
  | { type: "logical"; op: "&&" | "||"; left: Node; right: Node }
  | { type: "call"; name: string; args: Node[] };

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[], private readonly src: string) {}

  parse(): Node {
    const node = this.or();
    const t = this.peek();
    if (t.kind !== "eof") this.fail(t, "unexpected");
    return node;
  }

  private peek(): Token {
    return this.tokens[this.pos]!;
  }
  private next(): Token {
    return this.tokens[this.pos++]!;
  }
  private isOp(value: string): boolean {
    const t = this.peek();
    return t.kind === "op" && t.value === value;
  }
  private expectOp(value: string): void {
    if (!this.isOp(value)) this.fail(this.peek(), `expected '${value}', found`);
    this.pos++;
  }
  private fail(t: Token, what: string): never {
    const shown = t.kind === "eof" ? "end of expression" : `'${"value" in t ? String(t.value) : ""}'`;
    throw new ExpressionError(`${what} ${shown} at position ${t.pos} in expression: ${this.src}`);
  }

  private or(): Node {
    let left = this.and();
    while (this.isOp("||")) {
      this.pos++;
      left = { type: "logical", op: "||", left, right: this.and() };
    }
    return left;
  }
  private and(): Node {
    let left = this.equality();
    while (this.isOp("&&")) {
      this.pos++;
      left = { type: "logical", op: "&&", left, right: this.equality() };
    }
    return left;
  }
  private equality(): Node {
    let left = this.comparison();
    while (this.isOp("==") || this.isOp("!=")) {
      const op = (this.next() as { value: string }).value;
      left = { type: "binary", op, left, right: this.comparison() };
    }
    return left;
  }
  private comparison(): Node {
    let left = this.unary();
    while (this.isOp("<") || this.isOp("<=") || this.isOp(">") || this.isOp(">=")) {
      const op = (this.next() as { value: string }).value;
      left = { type: "binary", op, left, right: this.unary() };
    }
    return left;
  }
  private unary(): Node {
    if (this.isOp("!")) {
      this.pos++;
      return { type: "not", operand: this.unary() };
    }
    return this.postfix(this.primary());
  }
  private postfix(node: Node): Node {
    for (;;) {
      if (this.isOp(".")) {
        this.pos++;
        const t = this.next();
        if (t.kind === "op" && t.value === "*") node = { type: "filter", object: node };
        else if (t.kind === "ident") node = { type: "property", object: node, name: t.value };
        else this.fail(t, "expected a property name after '.', found");
      } else if (this.isOp("[")) {
        this.pos++;
        if (this.isOp("*")) {
          this.pos++;
          node = { type: "filter", object: node };
        } else {
          node = { type: "index", object: node, index: this.or() };
        }
        this.expectOp("]");
      } else {
        return node;
      }
    }
  }
  private primary(): Node {
    const t = this.next();
    switch (t.kind) {
      case "num":
      case "str":
        return { type: "literal", value: t.value };
      case "ident": {
        const lower = t.value.toLowerCase();
        if (this.isOp("(")) {
          this.pos++;
          const args: Node[] = [];
          if (!this.isOp(")")) {
            args.push(this.or());
            while (this.isOp(",")) {
              this.pos++;
              args.push(this.or());
            }
          }
          this.expectOp(")");
          return { type: "call", name: lower, args };
        }
        if (lower === "null") return { type: "literal", value: null };
        if (lower === "true") return { type: "literal", value: true };
        if (lower === "false") return { type: "literal", value: false };
        if (lower === "nan") return { type: "literal", value: NaN };
        if (lower === "infinity") return { type: "literal", value: Infinity };
        return { type: "context", name: lower };
      }
      case "op":
        if (t.value === "(") {
          const inner = this.or();
          this.expectOp(")");
          return inner;
        }
        return this.fail(t, "unexpected");
      case "eof":
        return this.fail(t, "unexpected");
    }
  }
}

/** Parses an expression (without `${{ }}`), throwing `ExpressionError` on a syntax error. */
export function parseExpression(expr: string): Node {
  return new Parser(lex(expr), expr).parse();
}

// ---------------------------------------------------------------- values and coercion

/** The result of an object filter (`.*`): property access maps over its elements. */
class Filtered extends Array<unknown> {}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** JavaScript `undefined` (a missing property) reads as null, as Go's nil does. */
const norm = (v: unknown): unknown => (v === undefined ? null : v);

/** GitHub's truthiness: false, 0, -0, NaN, '' and null are falsy; arrays and objects truthy. */
export function isTruthy(v: unknown): boolean {
  v = norm(v);
  if (v === null || v === false || v === "") return false;
  if (typeof v === "number") return v !== 0 && !Number.isNaN(v);
  return true;
}

export function toNumber(v: unknown): number {
  v = norm(v);
  if (v === null) return 0;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number") return v;
  if (typeof v === "string") {
    if (v.trim() === "") return 0;
    const lower = v.trim().toLowerCase();
    if (/^[-+]?0o[0-7]+$/.test(lower)) return (lower.startsWith("-") ? -1 : 1) * parseInt(lower.replace(/^[-+]?0o/, ""), 8);
    return Number(v);
  }
  return NaN;
}

/**
 * act prints an integer with Go's fmt.Sprint and a float with `%.15G`: 15 significant digits, trailing
 * zeros dropped, an exponent (`1E+21`, `1E-05`) below 1e-4 or from 1e15 on.
 */
function numberToString(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (!Number.isFinite(n)) return n > 0 ? "Infinity" : "-Infinity";
  if (Object.is(n, -0) || n === 0) return "0";
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return String(n);
  const [mantissa, expText] = n.toExponential(14).split("e");
  const exp = Number(expText);
  const trim = (t: string) => (t.includes(".") ? t.replace(/0+$/, "").replace(/\.$/, "") : t);
  if (exp < -4 || exp >= 15) {
    const sign = exp < 0 ? "-" : "+";
    return `${trim(mantissa!)}E${sign}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  return trim(n.toFixed(Math.max(0, 14 - exp)));
}

/** How a value prints inside a string (`${{ }}`, `format`, `join`). */
export function toText(v: unknown): string {
  v = norm(v);
  if (v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "number") return numberToString(v);
  if (Array.isArray(v)) return "Array";
  return "Object";
}

function kind(v: unknown): "null" | "boolean" | "number" | "string" | "object" {
  if (v === null) return "null";
  if (typeof v === "boolean" || typeof v === "number" || typeof v === "string") return typeof v as never;
  return "object";
}

/** Loose equality: different primitive types compare as numbers, strings case-insensitively, objects by identity. */
export function looseEquals(a: unknown, b: unknown): boolean {
  a = norm(a);
  b = norm(b);
  const ka = kind(a);
  const kb = kind(b);
  if (ka === "object" || kb === "object") return a === b;
  if (ka !== kb) return toNumber(a) === toNumber(b);
  if (ka === "string") return (a as string).toLowerCase() === (b as string).toLowerCase();
  if (ka === "number") return a === b; // NaN never equals itself
  return a === b;
}

function compare(op: string, a: unknown, b: unknown): boolean {
  a = norm(a);
  b = norm(b);
  let l: number | string;
  let r: number | string;
  if (typeof a === "string" && typeof b === "string") {
    l = a.toLowerCase();
    r = b.toLowerCase();
  } else if (kind(a) === "object" || kind(b) === "object") {
    return false;
  } else {
    l = toNumber(a);
    r = toNumber(b);
    if (Number.isNaN(l) || Number.isNaN(r)) return false;
  }
  switch (op) {
    case "<":
      return l < r;
    case "<=":
      return l <= r;
    case ">":
      return l > r;
    default:
      return l >= r;
  }
}

function lookup(obj: unknown, key: string): unknown {
  // act reads a property of every element of an array, filtered (`a.*.b`) or not (`a.b`)
  if (Array.isArray(obj)) return obj.map((el) => lookup(el, key));
  if (!isObject(obj)) return null;
  if (Object.hasOwn(obj, key)) return norm(obj[key]);
  const lower = key.toLowerCase();
  for (const k of Object.keys(obj)) if (k.toLowerCase() === lower) return norm(obj[k]);
  return null;
}

function property(obj: unknown, key: string): unknown {
  if (obj instanceof Filtered) {
    const out = new Filtered();
    for (const el of obj) out.push(lookup(el, key));
    return out;
  }
  return lookup(obj, key);
}

function filter(obj: unknown): Filtered {
  const out = new Filtered();
  const add = (v: unknown) => {
    if (Array.isArray(v)) out.push(...v);
    else if (isObject(v)) out.push(...Object.values(v));
  };
  if (obj instanceof Filtered) obj.forEach(add);
  else add(obj);
  return out;
}

function index(obj: unknown, idx: unknown): unknown {
  if (Array.isArray(obj)) {
    if (typeof idx === "string") return null;
    const n = Math.trunc(toNumber(idx));
    return Number.isNaN(n) || n < 0 || n >= obj.length ? null : norm(obj[n]);
  }
  if (isObject(obj)) return typeof idx === "string" || typeof idx === "number" ? lookup(obj, toText(idx)) : null;
  return null;
}

// ---------------------------------------------------------------- functions

function formatString(fmt: string, args: unknown[]): string {
  let out = "";
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i]!;
    if (c === "{") {
      if (fmt[i + 1] === "{") {
        out += "{";
        i++;
        continue;
      }
      const m = /^\{(\d+)\}/.exec(fmt.slice(i));
      if (!m) throw new ExpressionError(`format: invalid format string '${fmt}'`);
      const n = Number(m[1]);
      if (n >= args.length) throw new ExpressionError(`format: the format string '${fmt}' refers to argument {${n}}, but only ${args.length} were given`);
      out += toText(args[n]);
      i += m[0].length - 1;
    } else if (c === "}") {
      if (fmt[i + 1] !== "}") throw new ExpressionError(`format: unbalanced '}' in format string '${fmt}'`);
      out += "}";
      i++;
    } else {
      out += c;
    }
  }
  return out;
}

/** Go's json.MarshalIndent with two spaces: object keys sorted, `<`, `>` and `&` escaped. */
function goJSON(v: unknown): string {
  const sortKeys = (x: unknown): unknown =>
    Array.isArray(x)
      ? x.map(sortKeys)
      : isObject(x)
        ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, sortKeys(x[k])]))
        : x;
  return JSON.stringify(sortKeys(v), null, 2)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026");
}

function plain(v: unknown): unknown {
  return v instanceof Filtered ? [...v] : v;
}

function callFunction(name: string, args: unknown[], ctx: ExpressionContext): unknown {
  const arity = (min: number, max = min) => {
    if (args.length < min || args.length > max) {
      const want = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
      throw new ExpressionError(`${name}() takes ${want} argument(s), got ${args.length}`);
    }
  };
  switch (name) {
    case "contains": {
      arity(2);
      const [search, item] = args;
      if (Array.isArray(search)) return search.some((el) => looseEquals(el, item));
      if (isObject(search)) return false;
      return toText(search).toLowerCase().includes(toText(item).toLowerCase());
    }
    case "startswith":
      arity(2);
      return toText(args[0]).toLowerCase().startsWith(toText(args[1]).toLowerCase());
    case "endswith":
      arity(2);
      return toText(args[0]).toLowerCase().endsWith(toText(args[1]).toLowerCase());
    case "format":
      arity(1, Infinity);
      return formatString(toText(args[0]), args.slice(1));
    case "join": {
      arity(1, 2);
      const sep = args.length > 1 ? toText(args[1]) : ",";
      if (Array.isArray(args[0])) return args[0].map(toText).join(sep);
      return toText(args[0]);
    }
    case "tojson":
      arity(1);
      return goJSON(plain(norm(args[0])));
    case "fromjson": {
      arity(1);
      if (typeof args[0] !== "string") {
        throw new ExpressionError(`fromJSON: cannot parse a ${kind(norm(args[0]))} as JSON, only a string`);
      }
      try {
        return JSON.parse(args[0]) as unknown;
      } catch (err) {
        throw new ExpressionError(`fromJSON: invalid JSON '${args[0]}': ${(err as Error).message}`);
      }
    }
    case "success":
      arity(0);
      return (ctx.status ?? "success") === "success";
    case "always":
      arity(0);
      return true;
    case "failure":
      arity(0);
      return ctx.status === "failure";
    case "cancelled":
      arity(0);
      return ctx.status === "cancelled";
    case "case": {
      // case(pred1, value1, pred2, value2, ..., default)
      if (args.length < 3 || args.length % 2 === 0) {
        throw new ExpressionError(`case() takes pairs of condition and value plus a default (an odd number, at least 3), got ${args.length}`);
      }
      for (let i = 0; i < args.length - 1; i += 2) if (isTruthy(args[i])) return args[i + 1];
      return args[args.length - 1];
    }
    case "hashfiles":
      throw new ExpressionError("hashFiles() needs the job's workspace and is only available inside steps, on the runner");
    default:
      throw new ExpressionError(`unknown function: ${name}()`);
  }
}

// ---------------------------------------------------------------- evaluation

function evalNode(node: Node, ctx: ExpressionContext): unknown {
  switch (node.type) {
    case "literal":
      return node.value;
    case "context": {
      if (!(CONTEXT_NAMES as readonly string[]).includes(node.name)) {
        throw new ExpressionError(`unavailable context: ${node.name}`);
      }
      return norm(ctx[node.name as ContextName]);
    }
    case "property":
      return property(evalNode(node.object, ctx), node.name);
    case "index":
      return index(evalNode(node.object, ctx), evalNode(node.index, ctx));
    case "filter":
      return filter(evalNode(node.object, ctx));
    case "not":
      return !isTruthy(evalNode(node.operand, ctx));
    case "logical": {
      const left = evalNode(node.left, ctx);
      if (node.op === "&&") return isTruthy(left) ? evalNode(node.right, ctx) : left;
      return isTruthy(left) ? left : evalNode(node.right, ctx);
    }
    case "binary": {
      const l = evalNode(node.left, ctx);
      const r = evalNode(node.right, ctx);
      if (node.op === "==") return looseEquals(l, r);
      if (node.op === "!=") return !looseEquals(l, r);
      return compare(node.op, l, r);
    }
    case "call":
      return callFunction(node.name, node.args.map((a) => evalNode(a, ctx)), ctx);
  }
}

/** Evaluates a bare expression (no `${{ }}`). */
export function evaluate(expr: string, ctx: ExpressionContext = {}): unknown {
  return plain(evalNode(parseExpression(expr), ctx));
}

interface Segment {
  literal?: string;
  expr?: string;
}

/** Splits text into literal parts and `${{ … }}` expressions; a `}}` inside a quoted string does not close. */
export function splitTemplate(text: string): Segment[] {
  const out: Segment[] = [];
  let i = 0;
  while (i < text.length) {
    const start = text.indexOf("${{", i);
    if (start < 0) {
      out.push({ literal: text.slice(i) });
      break;
    }
    if (start > i) out.push({ literal: text.slice(i, start) });
    let j = start + 3;
    let inString = false;
    for (;;) {
      if (j >= text.length) throw new ExpressionError(`unclosed '\${{' at position ${start} in: ${text}`);
      const c = text[j]!;
      if (c === "'") inString = !inString; // '' inside a string toggles twice, leaving it open
      else if (!inString && c === "}" && text[j + 1] === "}") break;
      j++;
    }
    out.push({ expr: text.slice(start + 3, j).trim() });
    i = j + 2;
  }
  return out;
}

/** Replaces every `${{ … }}` in `text` with its value printed as GitHub prints it. */
export function interpolate(text: string, ctx: ExpressionContext = {}): string {
  if (!text.includes("${{")) return text;
  return splitTemplate(text)
    .map((s) => (s.expr !== undefined ? toText(evaluate(s.expr, ctx)) : s.literal!))
    .join("");
}

/**
 * Evaluates a value that may be a whole `${{ expr }}` (keeping the value's type, so a matrix can come from
 * `fromJSON`), text with embedded expressions (a string), or plain text (returned as is).
 */
export function evaluateTemplate(text: string, ctx: ExpressionContext = {}): unknown {
  const segments = splitTemplate(text);
  if (segments.length === 1 && segments[0]!.expr !== undefined) return evaluate(segments[0]!.expr, ctx);
  return interpolate(text, ctx);
}

const STATUS_FUNCTIONS = new Set(["success", "always", "failure", "cancelled"]);

function usesStatusFunction(node: Node): boolean {
  switch (node.type) {
    case "call":
      return STATUS_FUNCTIONS.has(node.name) || node.args.some(usesStatusFunction);
    case "property":
    case "filter":
      return usesStatusFunction(node.object);
    case "index":
      return usesStatusFunction(node.object) || usesStatusFunction(node.index);
    case "not":
      return usesStatusFunction(node.operand);
    case "binary":
    case "logical":
      return usesStatusFunction(node.left) || usesStatusFunction(node.right);
    default:
      return false;
  }
}

/**
 * A job's `if:`: a bare condition or one wrapped in `${{ }}`; empty means `success()`, and a condition
 * without a status function is read as `success() && (condition)`, as GitHub and act do.
 */
export function evaluateIf(cond: string | undefined | null, ctx: ExpressionContext = {}): boolean {
  const text = (cond ?? "").trim();
  if (text === "") return callFunction("success", [], ctx) as boolean;
  const segments = splitTemplate(text);
  let node: Node;
  if (segments.length === 1 && segments[0]!.expr !== undefined) node = parseExpression(segments[0]!.expr);
  else if (!text.includes("${{")) node = parseExpression(text);
  else node = { type: "literal", value: interpolate(text, ctx) }; // text around an expression: a non-empty string
  if (!usesStatusFunction(node)) {
    node = { type: "logical", op: "&&", left: { type: "call", name: "success", args: [] }, right: node };
  }
  return isTruthy(evalNode(node, ctx));
}
