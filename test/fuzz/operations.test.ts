import { describe, expect, test } from "bun:test";
import type { GenericSchema } from "valibot";
import { apiOperations } from "../../src/http/api/v1/index.ts";
import type { AnyOperation } from "../../src/http/route.ts";
import { makeTestApp } from "../support/app.ts";

/**
 * Walks every declared /api/v1 operation with malformed input, as a site admin so that handlers
 * are reached, against resources that exist so that paths resolve: numbers that are negative,
 * fractional, out of range or not numbers at all, 256 KB strings, NUL bytes, `..`, malformed
 * percent escapes and bad UTF-8 in path parameters, the same in query parameters, and invalid
 * JSON, wrong types, arrays for objects and wrong content types in bodies.
 *
 * No case may answer 5xx, an error must have Gitea's `{"message", "url"}` shape, and no answer may
 * show where the server keeps its files. Cases are derived from the operation list and fixed
 * value tables (rotated by position, never random), so a run is the same every time.
 */

const t = makeTestApp();
const API = "/api/v1";

// ---------------------------------------------------------------------------------------------
// Fixtures: one of everything a path can name, created through the API.

const root = await t.user("root", { admin: true });
const alice = await t.user("alice");
const token = t.token(root);
const ok = (method: string, path: string, body?: unknown, status = 201) => t.ok(method, `${API}${path}`, token, body, status);

await ok("POST", "/orgs", { username: "acme" });
const repo = await ok("POST", "/user/repos", { name: "r", auto_init: true });
await ok("POST", "/repos/root/r/branches", { new_branch_name: "feat", old_branch_name: "main" });
await ok("POST", "/repos/root/r/contents/sub/x.txt", { content: btoa("x\n"), branch: "feat" });
await ok("POST", "/repos/root/r/contents/.editorconfig", { content: btoa("root = true\n[*]\nindent_style = space\n") });
const head = (await ok("GET", "/repos/root/r/branches/main", undefined, 200)).commit.id as string;
await ok("POST", "/repos/root/r/tags", { tag_name: "v1", target: "main" });
const release = await ok("POST", "/repos/root/r/releases", { tag_name: "v1", name: "v1" });
const label = await ok("POST", "/repos/root/r/labels", { name: "bug", color: "#ff0000" });
const orgLabel = await ok("POST", "/orgs/acme/labels", { name: "org-bug", color: "#00ff00" });
const milestone = await ok("POST", "/repos/root/r/milestones", { title: "m1" });
const issue = await ok("POST", "/repos/root/r/issues", { title: "i1", labels: [label.id], milestone: milestone.id });
const comment = await ok("POST", `/repos/root/r/issues/${issue.number}/comments`, { body: "c" });
const pull = await ok("POST", "/repos/root/r/pulls", { head: "feat", base: "main", title: "p" });
const review = await ok("POST", `/repos/root/r/pulls/${pull.number}/reviews`, { body: "r", event: "COMMENT" }, 200);
const time = await ok("POST", `/repos/root/r/issues/${issue.number}/times`, { time: 60 }, 200);
const team = await ok("POST", "/orgs/acme/teams", { name: "devs", permission: "write", units: ["repo.code"] });
// An organization's repository, for the team paths, with the team on it and root in the team.
await ok("POST", "/orgs/acme/repos", { name: "ar", auto_init: true });
await ok("PUT", `/teams/${team.id}/repos/acme/ar`, undefined, 204);
await ok("PUT", `/teams/${team.id}/members/root`, undefined, 204);
const tagProtection = await ok("POST", "/repos/root/r/tag_protections", { name_pattern: "v*", whitelist_usernames: ["root"] });
// A rule matching no branch: writes to main stay possible, so bodies reach git.
await ok("POST", "/repos/root/r/branch_protections", { rule_name: "protected-*" });
await ok("PUT", "/repos/root/r/collaborators/alice", {}, 204);
await ok("PUT", "/repos/root/r/topics/fuzz", undefined, 204);
// Inactive hooks: nothing is delivered anywhere.
const hook = { type: "gitea", config: { url: "http://hearth.invalid/hook", content_type: "json" }, active: false };
const repoHook = await ok("POST", "/repos/root/r/hooks", hook);
const orgHook = await ok("POST", "/orgs/acme/hooks", hook);
const userHook = await ok("POST", "/user/hooks", hook);
const adminHook = await ok("POST", "/admin/hooks", hook);
await ok("PUT", "/repos/root/r/actions/secrets/SECRET", { data: "s" });
await ok("PUT", "/orgs/acme/actions/secrets/SECRET", { data: "s" });
await ok("PUT", "/user/actions/secrets/SECRET", { data: "s" });
await ok("POST", "/repos/root/r/actions/variables/VAR", { value: "v" });
await ok("POST", "/orgs/acme/actions/variables/VAR", { value: "v" });
await ok("POST", "/user/actions/variables/VAR", { value: "v" });

async function upload(path: string) {
  const form = new FormData();
  form.append("attachment", new Blob(["hello\n"]), "a.txt");
  const r = await t.json("POST", `${API}${path}`, { token, body: form });
  expect({ path, status: r.status }).toEqual({ path, status: 201 });
  return r.body;
}
// alice's comment on root's issue makes a notification thread for root.
await t.ok("POST", `${API}/repos/root/r/issues/${issue.number}/comments`, t.token(alice), { body: "from alice" }, 201);
const threads = await ok("GET", "/notifications?all=true", undefined, 200);
const threadId = String(threads[0]?.id ?? 1);

const issueAsset = await upload(`/repos/root/r/issues/${issue.number}/assets`);
const commentAsset = await upload(`/repos/root/r/issues/comments/${comment.id}/assets`);
const releaseAsset = await upload(`/repos/root/r/releases/${release.id}/assets`);

/**
 * The value of a path parameter that names an existing resource, by the path it sits in: the
 * same name (`id`, `attachment_id`) means a different table under different parents.
 */
function validParam(path: string, name: string): string {
  const rules: [RegExp, string][] = [
    [/\/repos\/:owner\/:repo\/hooks\/:id/, String(repoHook.id)],
    [/\/orgs\/:org\/hooks\/:id/, String(orgHook.id)],
    [/\/user\/hooks\/:id/, String(userHook.id)],
    [/\/admin\/hooks\/:id/, String(adminHook.id)],
    [/\/orgs\/:org\/labels\/:id/, String(orgLabel.id)],
    [/\/labels\/:id/, String(label.id)],
    [/\/milestones\/:id/, String(milestone.id)],
    [/\/releases\/:id/, String(release.id)],
    [/\/comments\/:id/, String(comment.id)],
    [/\/reviews\/:id/, String(review.id)],
    [/\/times\/:id/, String(time.id)],
    [/\/teams\/:id/, String(team.id)],
    [/\/tag_protections\/:id/, String(tagProtection.id)],
    [/\/repositories\/:id/, String(repo.id)],
    [/\/notifications\/threads\/:id/, threadId],
  ];
  if (name === "id") return rules.find(([re]) => re.test(path))?.[1] ?? "1";
  if (name === "attachment_id") {
    if (path.includes("/releases/")) return String(releaseAsset.id);
    return String(path.includes("/comments/") ? commentAsset.id : issueAsset.id);
  }
  if (name === "index") {
    // `/pulls/{base}/{head}` names branches where other pull paths name a number.
    if (path.endsWith("/pulls/:index/*")) return "main";
    return String(path.includes("/pulls/") ? pull.number : issue.number);
  }
  // The team paths need an organization's repository.
  const orgRepo = path.startsWith("/teams/") || path.startsWith("/repos/:owner/:repo/teams");
  const values: Record<string, string> = {
    owner: orgRepo ? "acme" : "root",
    repo: orgRepo ? "ar" : "r",
    org: "acme",
    username: path.startsWith("/orgs/") || path.startsWith("/teams/") ? "root" : "alice",
    user: "root",
    collaborator: "alice",
    team: "devs",
    topic: "fuzz",
    sha: path.includes("/trees/") || path.includes("/statuses/") || path.includes("/commits/") ? head : "main",
    ref: "main",
    filepath: "README.md",
    token: "t1",
    name: path.includes("branch_protections") ? "protected-*" : path.includes("push_mirrors") ? "fuzz" : path.includes("licenses") ? "MIT" : "Go",
    position: "1",
    uuid: "fuzz",
    secretname: "SECRET",
    variablename: "VAR",
  };
  return values[name] ?? "fuzz";
}

/** The value of a `/*` tail naming something that exists. */
function validWildcard(op: AnyOperation): string {
  const p = op.path;
  if (p.includes("/branches/")) return "feat";
  if (p.includes("/releases/tags/") || p.includes("/tags/")) return "v1";
  if (p.includes("/git/refs/")) return "heads/main";
  if (p.includes("/compare/")) return "main...feat";
  if (p.includes("/archive/")) return "main.zip";
  if (p.includes("/pulls/")) return "feat";
  // A file to create must not exist yet.
  if (p.includes("/contents/") && op.method === "POST") return `new${++made}.txt`;
  return "README.md";
}

// ---------------------------------------------------------------------------------------------
// Malformed values.

const HUGE = "x".repeat(256 * 1024);

/** Path segments, as they go on the wire (escapes included): ids and indexes get NUMBERS too. */
const NUMBERS = ["-1", "0", "1e309", "99999999999999999999", "1.5", "NaN"];
// A bare `..` or `%2e%2e` segment never reaches the server as such: URL parsing (here as in any
// client) resolves it, addressing the parent resource instead. Escaped slashes keep it in.
const SEGMENTS = [
  "%00",
  "a%00b",
  "%2E%2E%2Fx",
  "..%2F..%2Fetc%2Fpasswd",
  "%FF",
  "%C0%AF",
  "%ED%A0%80",
  "%zz",
  "%",
  "-1",
  ":(top)",
  HUGE,
];
const NUMERIC_PARAMS = new Set(["id", "index", "attachment_id", "position"]);

/** Query values, on the wire. */
const QUERY_VALUES = [
  ...NUMBERS,
  "%00",
  "a%00b",
  "%zz",
  "%FF",
  "..",
  "..%2F..%2Fetc%2Fpasswd",
  "%3A(top)",
  "%3A!x",
  HUGE,
  "",
  "true",
  "-",
];

/** Queries read before any handler: sudo and query tokens. */
const AUTH_QUERIES = ["sudo=%00", `sudo=${HUGE}`, "sudo=-1", "access_token=%FF", "token=a%00b", "sudo=%zz"];

/** JSON values for body fields: wrong types, out-of-range numbers, hostile strings. */
const FIELD_VALUES: unknown[] = [
  null,
  -1,
  0,
  1.5,
  1e308,
  99999999999999999999,
  HUGE,
  "a\0b",
  "..",
  "../../etc/passwd",
  ":(top)",
  "\ud800",
  "",
  [],
  {},
  true,
  [null],
  [-1],
  [HUGE],
  { a: null },
];

/** Whole bodies, as text: not JSON, JSON of the wrong shape, absurd nesting. */
const RAW_BODIES = ["{", "[]", "null", '"x"', "1e309", "[{}]", "{}", `{"a":`, "[".repeat(5000) + "]".repeat(5000)];

/** `n` values of `list`, starting at a place that moves with `seed`: every value gets used across operations. */
function rotate<T>(list: readonly T[], seed: number, n: number): T[] {
  return Array.from({ length: Math.min(n, list.length) }, (_, i) => list[(seed * 7 + i * 5) % list.length]!);
}

// ---------------------------------------------------------------------------------------------
// Reading schemas (valibot's runtime shapes), for field names and plausible values.

type Schema = GenericSchema & {
  type: string;
  entries?: Record<string, Schema>;
  wrapped?: Schema;
  options?: unknown[];
  item?: Schema;
  literal?: unknown;
  pipe?: { type: string }[];
};

function unwrap(s: Schema): Schema {
  return s.wrapped ? unwrap(s.wrapped) : s;
}

function entriesOf(s: Schema | undefined): Record<string, Schema> {
  if (!s) return {};
  const inner = unwrap(s);
  if (inner.entries) return inner.entries;
  // A union of objects: the fields of its first member.
  if (inner.type === "union" && inner.options?.length) return entriesOf(inner.options[0] as Schema);
  return {};
}

const isRequired = (s: Schema) => !["optional", "nullish", "nullable", "exact_optional", "undefinedable"].includes(s.type);

/** Numbers names in samples, so that each creation makes something new instead of a conflict. */
let made = 0;

/** A value the schema accepts, as far as a sample can: so a field's neighbours do not fail first. */
function sample(s: Schema): unknown {
  const inner = unwrap(s);
  const actions = new Set((inner.pipe ?? []).map((a) => a.type));
  switch (inner.type) {
    case "string":
      if (actions.has("email")) return "fuzz@example.com";
      if (actions.has("url")) return "http://hearth.invalid/";
      if (actions.has("iso_timestamp")) return "2024-01-02T03:04:05Z";
      return `fuzz${++made}`;
    case "number":
      return 1;
    case "boolean":
      // false: no hook made active (nothing is delivered), no repository made private or archived.
      return false;
    case "literal":
      return inner.literal;
    case "picklist":
      return inner.options?.[0];
    case "array":
      return [];
    case "union":
    case "variant":
      return inner.options?.length ? sample(inner.options[0] as Schema) : undefined;
    case "object":
    case "loose_object":
    case "strict_object":
      return Object.fromEntries(Object.entries(inner.entries ?? {}).map(([k, v]) => [k, sample(v)]));
    case "record":
      return {};
    default:
      return "fuzz";
  }
}

/**
 * Fields naming things in the fixture repository: given these, a body gets past "not found" to
 * the code that hands its other fields to git (a tag's message, a commit's author).
 */
const KNOWN: Record<string, unknown | (() => unknown)> = {
  target: "main",
  target_commitish: "main",
  branch: "main",
  old_branch_name: "main",
  old_ref_name: "main",
  base: "main",
  head: "feat",
  ref: "main",
  content: btoa("fuzz\n"),
  // Optional in the schema, required by the service: a new one each time.
  tag_name: () => `fuzz-tag${++made}`,
  new_branch_name: () => `fuzz-branch${++made}`,
  files: () => [{ operation: "create", path: `files${++made}.txt`, content: btoa("fuzz\n") }],
  password: "fuzz-password-1",
  email: () => `fuzz${++made}@example.com`,
};

/** The body's required fields with plausible values, and the known names: the base of every field's mutation. */
function bodyBase(op: AnyOperation): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(entriesOf(op.body))) {
    const known = KNOWN[k];
    if (known !== undefined) out[k] = typeof known === "function" ? known() : known;
    else if (isRequired(s)) out[k] = sample(s);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Cases.

interface Case {
  what: string;
  url: string;
  body?: string | Uint8Array | FormData;
  contentType?: string;
}

const enc = (s: string) => encodeURIComponent(s);

function buildPath(op: AnyOperation, override: { name: string; raw: string } | undefined): string {
  let path = op.path.replace(/:([A-Za-z_]\w*)/g, (_, name: string) =>
    override?.name === name ? override.raw : enc(validParam(op.path, name)),
  );
  if (path.endsWith("/*")) {
    const tail = override?.name === "*" ? override.raw : validWildcard(op).split("/").map(enc).join("/");
    path = path.slice(0, -1) + tail;
  }
  // An operation chosen by a `.{suffix}` on its last parameter keeps that suffix.
  if (op.suffix) path += `.${op.suffix.values[0]}`;
  return `${API}${path}`;
}

function casesFor(op: AnyOperation, seed: number): Case[] {
  const cases: Case[] = [];
  const basePath = buildPath(op, undefined);

  // Path parameters, one at a time, the others valid.
  const params = [...op.path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]!);
  if (op.path.endsWith("/*")) params.push("*");
  params.forEach((name, i) => {
    const values = NUMERIC_PARAMS.has(name) ? [...NUMBERS, ...rotate(SEGMENTS, seed + i, 3)] : rotate(SEGMENTS, seed + i, 5);
    // A NUL everywhere: it is what git arguments and ref names cannot carry.
    if (!values.includes("a%00b")) values.push("a%00b");
    for (const raw of values) cases.push({ what: `path ${name}`, url: buildPath(op, { name, raw }) });
  });

  // Query parameters, one at a time; paging out of range (any handler may page); what the
  // authentication layer reads from every query (sudo, a token).
  const queryKeys = Object.keys(entriesOf(op.query));
  queryKeys.forEach((key, i) => {
    const values = rotate(QUERY_VALUES, seed + i, 5);
    if (!values.includes("a%00b")) values.push("a%00b");
    for (const raw of values) cases.push({ what: `query ${key}`, url: `${basePath}?${enc(key)}=${raw}` });
  });
  cases.push(
    { what: "query page/limit", url: `${basePath}?page=99999999999999999999&limit=99999999999999999999` },
    { what: "query page/limit", url: `${basePath}?page=-1&limit=1e309` },
    { what: "query auth", url: `${basePath}?${rotate(AUTH_QUERIES, seed, 1)[0]}` },
  );

  if (op.multipartFile) {
    const form = new FormData();
    form.append("other", "no file in this form");
    const empty = new FormData();
    empty.append(op.multipartFile, new Blob([]), "");
    cases.push(
      { what: "multipart: JSON instead", url: basePath, body: "{}", contentType: "application/json" },
      { what: "multipart: no boundary", url: basePath, body: "x", contentType: "multipart/form-data" },
      { what: "multipart: garbage", url: basePath, body: "--b\r\nno headers\r\n--b", contentType: "multipart/form-data; boundary=b" },
      { what: "multipart: file missing", url: basePath, body: form },
      { what: "multipart: empty file without a name", url: basePath, body: empty },
    );
  }

  if (op.body) {
    for (const raw of RAW_BODIES) cases.push({ what: `body ${raw.slice(0, 12)}`, url: basePath, body: raw, contentType: "application/json" });
    cases.push(
      { what: "body as form", url: basePath, body: "a=%zz&b&=&%00=%00&name=..", contentType: "application/x-www-form-urlencoded" },
      { what: "body as text/plain", url: basePath, body: "not json at all", contentType: "text/plain" },
      // `{"a":"<bad UTF-8>"}`
      { what: "body bad UTF-8", url: basePath, body: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0x22, 0x7d]), contentType: "application/json" },
    );
    Object.keys(entriesOf(op.body)).forEach((field, i) => {
      const values = rotate(FIELD_VALUES, seed + i, 5);
      if (!values.includes("a\0b")) values.push("a\0b");
      for (const value of values) {
        const body = JSON.stringify({ ...bodyBase(op), [field]: value });
        // A fresh path too: a file created by one case must not make the next one a conflict.
        cases.push({ what: `body ${field}`, url: buildPath(op, undefined), body, contentType: "application/json" });
      }
    });
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Order: what removes or moves the fixtures runs last, so every other case still finds them.

const MOVES = new Set(["repoTransfer", "acceptRepoTransfer", "rejectRepoTransfer", "renameOrg", "adminRenameUser", "repoMergePullRequest"]);
const depth = (op: AnyOperation) => op.path.split("/").length;
const late = (op: AnyOperation) => op.method === "DELETE" || MOVES.has(op.operationId);
const ordered = [
  ...apiOperations.filter((op) => !late(op)),
  ...apiOperations.filter((op) => late(op) && op.method !== "DELETE"),
  // Deeper paths first: a label goes before its repository, a repository before its owner.
  ...apiOperations.filter((op) => op.method === "DELETE").sort((a, b) => depth(b) - depth(a)),
];

const SERVER_DIR = t.dir;

interface Outcome {
  server: string[];
  shape: string[];
}

async function run(op: AnyOperation, c: Case, out: Outcome): Promise<number> {
  const headers: Record<string, string> = {};
  if (c.contentType) headers["Content-Type"] = c.contentType;
  const res = await t.request(op.method, c.url, { token, body: c.body, headers });
  const text = await res.text();
  const shown = typeof c.body === "string" ? c.body.slice(0, 160) : c.body instanceof FormData ? "<multipart form>" : c.body ? "<bytes>" : "";
  const line = `${op.operationId} [${c.what}] ${op.method} ${c.url.slice(0, 160)} body=${shown} -> ${res.status} ${text.slice(0, 300)}`;
  if (res.status >= 500) out.server.push(line);
  else if (text.includes(SERVER_DIR)) out.server.push(`server path shown: ${line}`);
  else if (res.status >= 400 && text) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const b = body as { message?: unknown; url?: unknown; invalidTopics?: unknown } | undefined;
    // Gitea's topic endpoints answer their own 422 shape: the refused names beside the message.
    const topicShape = typeof b?.message === "string" && b.invalidTopics !== undefined && /Topic/.test(op.operationId);
    if (!topicShape && (typeof b?.message !== "string" || typeof b?.url !== "string")) out.shape.push(line);
  }
  // FUZZ_OP=<operationId> shows every case of one operation and its answer.
  if (process.env.FUZZ_OP === op.operationId) console.log(line.slice(0, 300));
  return res.status;
}

let total = 0;
const outcome: Outcome = { server: [], shape: [] };

describe("every operation, fed malformed input", () => {
  test("covers every declared operation", () => {
    expect(new Set(ordered)).toEqual(new Set(apiOperations));
    expect(ordered.length).toBe(apiOperations.length);
  });

  test("no 5xx, no server path, Gitea's error shape", async () => {
    for (const [i, op] of ordered.entries()) {
      const statuses = new Map<number, number>();
      for (const c of casesFor(op, i)) {
        total++;
        const status = await run(op, c, outcome);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
      // FUZZ_STATUSES=1 shows what each operation answered: all 404s means its fixture is missing.
      if (process.env.FUZZ_STATUSES) console.log(op.operationId, op.method, op.path, JSON.stringify(Object.fromEntries(statuses)));
    }
    console.log(`fuzz: ${total} cases over ${ordered.length} operations`);
    expect(outcome.server).toEqual([]);
    expect(outcome.shape).toEqual([]);
  }, 120_000);
});
