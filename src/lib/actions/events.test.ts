import { describe, expect, test } from "bun:test";
import { WorkflowError } from "./errors.ts";
import {
  eventMatches, globToRegExp, isDefaultBranchHook, matchesEvent, matchingEvents, parseEvents, triggerFromHook,
  type Trigger, type WorkflowEvents,
} from "./events.ts";

const on = (yaml: string): WorkflowEvents => parseEvents((Bun.YAML.parse(yaml) as { on: unknown }).on);

describe("parseEvents", () => {
  test("a single name", () => {
    expect(on("on: push")).toEqual([{ name: "push" }]);
  });
  test("a list of names", () => {
    expect(on("on: [push, pull_request]")).toEqual([{ name: "push" }, { name: "pull_request" }]);
  });
  test("a mapping with filters, in file order", () => {
    expect(on("on:\n  push:\n    branches: [main]\n    paths-ignore: docs/**\n  issues:\n")).toEqual([
      { name: "push", acts: { branches: ["main"], "paths-ignore": ["docs/**"] } },
      { name: "issues" },
    ]);
  });
  test("schedule entries", () => {
    expect(on("on:\n  schedule:\n    - cron: '0 * * * *'\n    - cron: '@daily'\n")).toEqual([
      { name: "schedule", schedules: [{ cron: "0 * * * *" }, { cron: "@daily" }] },
    ]);
  });
  test("workflow_dispatch inputs keep their order and fields", () => {
    const events = on(`on:
  workflow_dispatch:
    inputs:
      level:
        description: Log level
        required: true
        default: warning
        type: choice
        options: [info, warning]
      dry:
        type: boolean
        required: yes
`);
    expect(events).toEqual([{
      name: "workflow_dispatch",
      inputs: [
        { name: "level", description: "Log level", required: true, default: "warning", type: "choice", options: ["info", "warning"] },
        { name: "dry", description: "", required: true, default: "", type: "boolean", options: [] },
      ],
    }]);
  });
  test("workflow_call takes no part", () => {
    expect(on("on: [push, workflow_call]")).toEqual([{ name: "push" }]);
    expect(on("on:\n  workflow_call:\n    inputs:\n      a: {type: string}\n  push:\n")).toEqual([{ name: "push" }]);
  });
  test.each([
    ["on:\n  push:\n    branches:\n      a: b\n", /on.push.branches/],
    ["on: [push, {a: 1}]", /must list event names/],
    ["on:\n  schedule: [nope]\n", /cron/],
    ["on:\n", /empty/],
  ])("refuses %p", (yaml, re) => {
    expect(() => on(yaml)).toThrow(WorkflowError);
    expect(() => on(yaml)).toThrow(re);
  });
});

const push = (ref: string, changedFiles?: string[]): Trigger => ({ event: "push", ref, changedFiles });
const pr = (types: string[], baseRef = "main", changedFiles?: string[]): Trigger => ({ event: "pull_request", types, baseRef, changedFiles });

describe("matchesEvent: Gitea's TestDetectMatched", () => {
  test.each([
    ["on: create", { event: "create" }, true],
    ["on: issues", { event: "issues", types: ["opened"] }, true],
    ["on: issues", { event: "issues", types: ["milestoned"] }, true],
    ["on: pull_request", pr(["synchronize"]), true],
    ["on: pull_request", pr(["labeled"]), false],
    ["on:\n  pull_request:\n    types: [labeled]", pr(["labeled"]), true],
    ["on:\n  pull_request_review_comment:\n    types: [created]", { event: "pull_request_review_comment", types: ["created", "edited"] }, true],
    ["on:\n  pull_request_review:\n    types: [dismissed]", { event: "pull_request_review", types: ["submitted", "edited"] }, false],
    ["on:\n  release:\n    types: [published]", { event: "release", types: ["published"] }, true],
    ["on:\n  registry_package:\n    types: [updated]", { event: "registry_package", types: ["published"] }, false],
  ] as [string, Trigger, boolean][])("%p vs %j", (yaml, trigger, want) => {
    expect(matchesEvent(on(yaml), trigger)).toBe(want);
  });
});

describe("push filters", () => {
  const cases: [string, Trigger, boolean][] = [
    ["on: push", push("refs/tags/v1"), true],
    ["on:\n  push:\n    branches: [main]", push("refs/heads/main"), true],
    ["on:\n  push:\n    branches: [main]", push("refs/heads/dev"), false],
    ["on:\n  push:\n    branches: ['releases/**', '!releases/**-alpha']", push("refs/heads/releases/1.0"), true],
    ["on:\n  push:\n    branches: ['releases/**', '!releases/**-alpha']", push("refs/heads/releases/1.0-alpha"), false],
    ["on:\n  push:\n    branches-ignore: [main]", push("refs/heads/main"), false],
    ["on:\n  push:\n    branches-ignore: [main]", push("refs/heads/dev"), true],
    // a tag push against a branches-only filter does not match, nor a branch push against tags only
    ["on:\n  push:\n    branches: ['**']", push("refs/tags/v1"), false],
    ["on:\n  push:\n    tags: ['v*']", push("refs/heads/main"), false],
    ["on:\n  push:\n    tags: ['v*']", push("refs/tags/v1.2"), true],
    ["on:\n  push:\n    tags-ignore: ['v*']", push("refs/tags/v1.2"), false],
    ["on:\n  push:\n    tags-ignore: ['v*']", push("refs/tags/x"), true],
    // with both branch and tag filters only one of them needs to match
    ["on:\n  push:\n    branches: [main]\n    tags: ['v*']", push("refs/tags/v1"), true],
    ["on:\n  push:\n    branches: [main]\n    tags: ['v*']", push("refs/heads/main"), true],
    ["on:\n  push:\n    branches: [main]\n    tags: ['v*']", push("refs/heads/dev"), false],
    ["on:\n  push:\n    paths: ['src/**']", push("refs/heads/main", ["src/a.ts", "README.md"]), true],
    ["on:\n  push:\n    paths: ['src/**']", push("refs/heads/main", ["README.md"]), false],
    ["on:\n  push:\n    paths: ['src/**']", push("refs/heads/main", []), false],
    // files git could not list: a paths filter fails
    ["on:\n  push:\n    paths: ['src/**']", push("refs/heads/main"), false],
    ["on:\n  push:\n    paths-ignore: ['docs/**']", push("refs/heads/main"), false],
    ["on:\n  push:\n    paths-ignore: ['docs/**']", push("refs/heads/main", ["docs/a.md"]), false],
    ["on:\n  push:\n    paths-ignore: ['docs/**']", push("refs/heads/main", ["docs/a.md", "x.go"]), true],
    ["on:\n  push:\n    branches: [main]\n    paths: ['*.go']", push("refs/heads/main", ["x.go"]), true],
    ["on:\n  push:\n    branches: [main]\n    paths: ['*.go']", push("refs/heads/dev", ["x.go"]), false],
    ["on:\n  push:\n    branches: [main]\n    paths: ['*.go']", push("refs/heads/main", ["x.md"]), false],
    // a tag push with paths: both must hold
    ["on:\n  push:\n    tags: ['v*']\n    paths: ['*.go']", push("refs/tags/v1", ["x.go"]), true],
    // an unknown condition fails the match; an invalid pattern fails its condition
    ["on:\n  push:\n    nonsense: [x]", push("refs/heads/main"), false],
    ["on:\n  push:\n    branches: ['[']", push("refs/heads/main"), false],
    ["on: pull_request", push("refs/heads/main"), false],
  ];
  test.each(cases)("%p vs %j", (yaml, trigger, want) => {
    expect(matchesEvent(on(yaml), trigger)).toBe(want);
  });
});

describe("pull request filters", () => {
  const cases: [string, Trigger, boolean][] = [
    ["on: pull_request", pr(["opened"]), true],
    ["on: pull_request", pr(["reopened"]), true],
    ["on: pull_request", pr(["closed"]), false],
    ["on: pull_request_target", pr(["opened"]), true],
    ["on:\n  pull_request:\n    types: [closed]", pr(["closed"]), true],
    ["on:\n  pull_request:\n    types: [closed]", pr(["opened"]), false],
    ["on:\n  pull_request:\n    types: ['review_*']", pr(["review_requested"]), true],
    // branches filter the BASE branch; the default types still apply
    ["on:\n  pull_request:\n    branches: [main]", pr(["opened"], "main"), true],
    ["on:\n  pull_request:\n    branches: [main]", pr(["opened"], "refs/heads/main"), true],
    ["on:\n  pull_request:\n    branches: [main]", pr(["opened"], "dev"), false],
    ["on:\n  pull_request:\n    branches: [main]", pr(["closed"], "main"), false],
    ["on:\n  pull_request:\n    branches-ignore: ['release/*']", pr(["opened"], "release/1"), false],
    ["on:\n  pull_request:\n    branches-ignore: ['release/*']", pr(["opened"], "main"), true],
    ["on:\n  pull_request:\n    types: [closed]\n    branches: [main]", pr(["closed"], "main"), true],
    ["on:\n  pull_request:\n    types: [closed]\n    branches: [main]", pr(["closed"], "dev"), false],
    ["on:\n  pull_request:\n    paths: ['src/**']", pr(["synchronize"], "main", ["src/x"]), true],
    ["on:\n  pull_request:\n    paths: ['src/**']", pr(["synchronize"], "main", ["x"]), false],
    ["on:\n  pull_request:\n    paths: ['src/**']", pr(["synchronize"], "main"), false],
    ["on:\n  pull_request:\n    paths-ignore: ['*.md']", pr(["opened"], "main", ["a.md"]), false],
    ["on:\n  pull_request:\n    paths-ignore: ['*.md']", pr(["opened"], "main", ["a.md", "b.go"]), true],
  ];
  test.each(cases)("%p vs %j", (yaml, trigger, want) => {
    expect(matchesEvent(on(yaml), trigger)).toBe(want);
  });
  test("matchingEvents tells pull_request from pull_request_target", () => {
    const events = on("on:\n  pull_request:\n  pull_request_target:\n    types: [closed]\n");
    expect(matchingEvents(events, pr(["opened"])).map((e) => e.name)).toEqual(["pull_request"]);
    expect(matchingEvents(events, pr(["closed"])).map((e) => e.name)).toEqual(["pull_request_target"]);
  });
});

describe("other events", () => {
  const cases: [string, Trigger, boolean][] = [
    ["on:\n  issues:\n    types: [labeled, closed]", { event: "issues", types: ["labeled"] }, true],
    ["on:\n  issues:\n    types: [opened]", { event: "issues", types: ["closed"] }, false],
    ["on: issue_comment", { event: "issue_comment", types: ["created"] }, true],
    ["on:\n  issue_comment:\n    types: [edited]", { event: "issue_comment", types: ["created"] }, false],
    ["on: pull_request_comment", { event: "issue_comment", types: ["created"], onPull: true }, true],
    ["on: pull_request_comment", { event: "issue_comment", types: ["created"] }, false],
    ["on: pull_request_review", { event: "pull_request_review_comment", types: ["created", "edited"] }, true],
    ["on:\n  pull_request_review:\n    types: [submitted]", { event: "pull_request_review", types: ["submitted", "edited"] }, true],
    ["on: pull_request_review_comment", { event: "pull_request_review", types: ["submitted"] }, false],
    ["on:\n  release:\n    types: [edited]", { event: "release", types: ["edited"] }, true],
    ["on:\n  release:\n    types: [created]", { event: "release", types: ["published"] }, false],
    ["on: registry_package", { event: "registry_package", types: ["published"] }, true],
    // create, delete, fork and gollum ignore any filters
    ["on:\n  create:\n    branches: [main]", { event: "create", refType: "tag" }, true],
    ["on: delete", { event: "delete", refType: "branch" }, true],
    ["on: delete", { event: "create" }, false],
    ["on: fork", { event: "fork" }, true],
    ["on: gollum", { event: "gollum" }, true],
    ["on: workflow_dispatch", { event: "workflow_dispatch" }, true],
    ["on: push", { event: "workflow_dispatch" }, false],
    ["on:\n  schedule:\n    - cron: '* * * * *'", { event: "schedule" }, true],
    // Gitea reads any event written as a list as a schedule: it never matches a webhook
    ["on:\n  push: [main]", push("refs/heads/main"), false],
    ["on: schedule", { event: "schedule" }, true],
  ];
  test.each(cases)("%p vs %j", (yaml, trigger, want) => {
    expect(matchesEvent(on(yaml), trigger)).toBe(want);
  });
  test("eventMatches works on one event", () => {
    expect(eventMatches({ name: "push" }, push("refs/heads/x"))).toBe(true);
  });
});

describe("triggerFromHook", () => {
  test.each([
    ["push", "", { event: "push", types: [] }],
    ["wiki", "", { event: "gollum", types: [] }],
    ["issue_label", "label_updated", { event: "issues", types: ["labeled"] }],
    ["issue_label", "label_cleared", { event: "issues", types: ["unlabeled"] }],
    ["issues", "closed", { event: "issues", types: ["closed"] }],
    ["pull_request_sync", "synchronized", { event: "pull_request", types: ["synchronize"] }],
    ["pull_request_label", "label_updated", { event: "pull_request", types: ["labeled"] }],
    ["pull_request_review_request", "review_requested", { event: "pull_request", types: ["review_requested"] }],
    ["pull_request_comment", "created", { event: "issue_comment", types: ["created"], onPull: true }],
    ["issue_comment", "edited", { event: "issue_comment", types: ["edited"] }],
    ["pull_request_review_approved", "reviewed", { event: "pull_request_review", types: ["submitted", "edited"] }],
    ["pull_request_review_comment", "reviewed", { event: "pull_request_review_comment", types: ["created", "edited"] }],
    ["release", "updated", { event: "release", types: ["edited"] }],
    ["package", "created", { event: "registry_package", types: ["published"] }],
  ])("%s %s", (hook, action, want) => {
    expect(triggerFromHook(hook, action)).toEqual(want as never);
  });
  test("hooks no workflow listens to", () => {
    expect(triggerFromHook("repository", "created")).toBeUndefined();
    expect(triggerFromHook("status")).toBeUndefined();
  });
  test("isDefaultBranchHook", () => {
    expect(isDefaultBranchHook("issue_comment")).toBe(true);
    expect(isDefaultBranchHook("push")).toBe(false);
    expect(isDefaultBranchHook("pull_request")).toBe(false);
  });
});

test("globToRegExp (gobwas syntax for types)", () => {
  expect(globToRegExp("opened").test("opened")).toBe(true);
  expect(globToRegExp("opened").test("reopened")).toBe(false);
  expect(globToRegExp("*ed").test("closed")).toBe(true);
  expect(globToRegExp("{opened,closed}").test("closed")).toBe(true);
  expect(globToRegExp("[oc]*").test("closed")).toBe(true);
  expect(globToRegExp("[!o]*").test("opened")).toBe(false);
  expect(globToRegExp("a.b").test("axb")).toBe(false);
});
