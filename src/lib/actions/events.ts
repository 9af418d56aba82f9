/**
 * A workflow's `on:` and whether an event triggers it, as Gitea 1.25 decides (jobparser's ParseRawOn and
 * modules/actions/workflows.go's detectMatched with its match* helpers, github.go's canGithubEventMatch).
 *
 * The caller describes what happened as a `Trigger` in GitHub's vocabulary; `triggerFromHook` turns one of
 * Gitea's webhook events and actions into that vocabulary.
 */

import { WorkflowError } from "./errors.ts";
import { compilePatterns, PatternError, skipByIgnores, skipByIncludes } from "./pattern.ts";
import { stringAt } from "./yaml.ts";

export interface WorkflowDispatchInput {
  name: string;
  description: string;
  required: boolean;
  default: string;
  type: string;
  options: string[];
}

export interface WorkflowEvent {
  /** GitHub's event name as written: `push`, `pull_request`, `schedule`, ... */
  name: string;
  /** Filters (`branches`, `paths-ignore`, `types`, ...) in file order; absent when there are none. */
  acts?: Record<string, string[]>;
  /** `schedule:` entries (each usually `{cron}`); also present (empty maps) for any event given a list. */
  schedules?: Record<string, string>[];
  /** `workflow_dispatch.inputs` in file order. */
  inputs?: WorkflowDispatchInput[];
}

export type WorkflowEvents = WorkflowEvent[];

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** `container[key]` as go-yaml decodes it into a Go string (a plain scalar as written, `1.10` stays "1.10"). */
function textAt(container: object, key: string | number, where: string): string {
  const v = (container as Record<string, unknown>)[String(key)];
  if (v !== null && typeof v === "object") throw new WorkflowError(`"on.${where}" must be a string or a list of strings`);
  return stringAt(container, key) ?? "";
}


/** go-yaml v3 decoding into a Go bool: YAML 1.1's yes/on/y spellings count as true there. */
function goBool(v: unknown): boolean {
  if (typeof v === "boolean") return v;
  return typeof v === "string" && ["y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE"].includes(v);
}

/** `workflow_call` is only fired by another workflow's `uses:`, so it never takes part in trigger detection. */
const WORKFLOW_CALL = "workflow_call";

function parseInputs(v: Record<string, unknown>): WorkflowDispatchInput[] {
  return Object.entries(v).map(([name, spec]) => {
    if (!isRecord(spec)) throw new WorkflowError(`"on.workflow_dispatch.inputs.${name}" must be a mapping`);
    const rawOptions = spec["options"];
    const options = Array.isArray(rawOptions)
      ? rawOptions.map((_, i) => textAt(rawOptions, i, `workflow_dispatch.inputs.${name}.options`))
      : [];
    return {
      name,
      description: textAt(spec, "description", `workflow_dispatch.inputs.${name}.description`),
      required: goBool(spec["required"]),
      default: textAt(spec, "default", `workflow_dispatch.inputs.${name}.default`),
      type: textAt(spec, "type", `workflow_dispatch.inputs.${name}.type`),
      options,
    };
  });
}

function parseEventBody(name: string, body: unknown): WorkflowEvent {
  if (body === null || body === undefined || typeof body !== "object") return { name };
  if (Array.isArray(body)) {
    const schedules = body.map((entry) => {
      if (name !== "schedule") return {};
      if (!isRecord(entry)) throw new WorkflowError(`"on.schedule" must be a list of {cron: "..."} entries`);
      const out: Record<string, string> = {};
      for (const [k, val] of Object.entries(entry)) {
        if (typeof val !== "string") throw new WorkflowError(`"on.schedule" entry "${k}" must be a string`);
        out[k] = val;
      }
      return out;
    });
    return schedules.length > 0 ? { name, schedules } : { name };
  }
  const acts: Record<string, string[]> = {};
  let inputs: WorkflowDispatchInput[] | undefined;
  for (const [act, value] of Object.entries(body)) {
    if (Array.isArray(value)) {
      acts[act] = value.map((_, i) => textAt(value, i, `${name}.${act}`));
    } else if (isRecord(value)) {
      if (name !== "workflow_dispatch" || act !== "inputs") {
        throw new WorkflowError(`"on.${name}.${act}" must be a string or a list of strings`);
      }
      inputs = parseInputs(value);
      if (inputs.length === 0) inputs = undefined;
    } else {
      acts[act] = [textAt(body, act, `${name}.${act}`)];
    }
  }
  const event: WorkflowEvent = { name };
  if (Object.keys(acts).length > 0) event.acts = acts;
  if (inputs) event.inputs = inputs;
  return event;
}

/** Normalises `on:` (a name, a list of names, or a mapping of names to filters) into its events. */
export function parseEvents(on: unknown): WorkflowEvents {
  if (on === null || on === undefined) throw new WorkflowError(`the workflow's "on" is empty`);
  if (typeof on === "string" || typeof on === "number" || typeof on === "boolean") {
    const name = String(on);
    return name === WORKFLOW_CALL ? [] : [{ name }];
  }
  if (Array.isArray(on)) {
    return on
      .map((v) => {
        if (typeof v !== "string") throw new WorkflowError(`"on" must list event names, found ${JSON.stringify(v)}`);
        return v;
      })
      .filter((n) => n !== WORKFLOW_CALL)
      .map((name) => ({ name }));
  }
  return Object.entries(on as Record<string, unknown>)
    .filter(([name]) => name !== WORKFLOW_CALL)
    .map(([name, body]) => parseEventBody(name, body));
}

/** A `schedule` event (Gitea runs these from its cron table, never from a webhook). */
export const isScheduleEvent = (event: WorkflowEvent): boolean => event.schedules !== undefined;

// ---------------------------------------------------------------- triggers

/**
 * What happened, in GitHub's vocabulary (see `triggerFromHook` for Gitea's hook events and actions).
 *
 * `changedFiles` is what Gitea's GetFilesChangedBetween lists, `git diff-tree --name-only --root
 * --no-commit-id -r -z <base> <head>`: for a push, base is the `before` commit (for a new branch, whose
 * `before` is all zeros, only the head commit's own files: `diff-tree ... <head>`); for a pull request, base
 * is the base branch and head the pull request's head commit (a two-tree diff, not from the merge base).
 * Leave it undefined when git could not tell: a `paths`/`paths-ignore` filter then fails, as in Gitea.
 */
export type Trigger =
  | { event: "push"; ref: string; changedFiles?: readonly string[] }
  /**
   * Gitea's pull request hooks; a workflow on `pull_request` or `pull_request_target` can match (Gitea
   * looks for `pull_request_target` workflows in the base branch's commit, the others in the head's).
   */
  | { event: "pull_request"; types: readonly string[]; baseRef: string; changedFiles?: readonly string[] }
  | { event: "issues"; types: readonly string[] }
  /** A comment on an issue, or on a pull request (`onPull`, which `pull_request_comment` workflows also take). */
  | { event: "issue_comment"; types: readonly string[]; onPull?: boolean }
  /** An approving or rejecting review (Gitea's `reviewed` counts as both `submitted` and `edited`). */
  | { event: "pull_request_review"; types: readonly string[] }
  /** A review comment: Gitea lets both `pull_request_review` and `pull_request_review_comment` workflows match. */
  | { event: "pull_request_review_comment"; types: readonly string[] }
  | { event: "release"; types: readonly string[] }
  | { event: "registry_package"; types: readonly string[] }
  | { event: "create" | "delete"; refType?: "branch" | "tag" }
  | { event: "fork" }
  | { event: "gollum" }
  | { event: "workflow_dispatch" }
  | { event: "schedule" };

export type TriggerEvent = Trigger["event"];

/** Which workflow event names can match a trigger (canGithubEventMatch, read the other way round). */
function workflowEventNames(trigger: Trigger): readonly string[] {
  switch (trigger.event) {
    case "pull_request":
      return ["pull_request", "pull_request_target"];
    case "issue_comment":
      return trigger.onPull ? ["issue_comment", "pull_request_comment"] : ["issue_comment"];
    case "pull_request_review_comment":
      return ["pull_request_review", "pull_request_review_comment"];
    default:
      return [trigger.event];
  }
}

/**
 * gobwas/glob with '/' as separator, which Gitea uses for `types`: `*` within a segment, `**` across, `?`,
 * `[...]`/`[!...]`, `{a,b}` alternatives and `\` escapes.
 */
export function globToRegExp(glob: string): RegExp {
  let out = "^";
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "\\" && i + 1 < glob.length) {
      out += glob[++i]!.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
    } else if (c === "*") {
      if (glob[i + 1] === "*") {
        out += ".*";
        i++;
      } else out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end < 0) return /(?!)/; // gobwas refuses it; MustCompile would panic, nothing matches here
      let body = glob.slice(i + 1, end);
      if (body.startsWith("!")) body = `^${body.slice(1)}`;
      out += `[${body.replace(/\\/g, "\\\\")}]`;
      i = end;
    } else if (c === "{") {
      depth++;
      out += "(?:";
    } else if (c === "}" && depth > 0) {
      depth--;
      out += ")";
    } else if (c === "," && depth > 0) out += "|";
    else out += c.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
  }
  if (depth > 0) return /(?!)/;
  return new RegExp(`${out}$`);
}

function typesMatch(patterns: readonly string[], types: readonly string[]): boolean {
  return patterns.some((p) => {
    const re = globToRegExp(p);
    return types.some((t) => re.test(t));
  });
}

/** Compiles a filter's patterns; a pattern act refuses makes that condition fail, as in Gitea. */
function compiled(vals: readonly string[]) {
  try {
    return compilePatterns(vals);
  } catch (err) {
    if (err instanceof PatternError) return undefined;
    throw err;
  }
}

const stripPrefix = (ref: string, prefix: string) => (ref.startsWith(prefix) ? ref.slice(prefix.length) : undefined);

function matchPush(acts: Record<string, string[]>, trigger: Extract<Trigger, { event: "push" }>): boolean {
  const branch = stripPrefix(trigger.ref, "refs/heads/");
  const tag = stripPrefix(trigger.ref, "refs/tags/");
  let matched = 0;
  let hasBranchFilter = false;
  let hasTagFilter = false;
  const conds = Object.entries(acts);
  for (const [cond, vals] of conds) {
    switch (cond) {
      case "branches":
      case "branches-ignore":
      case "tags":
      case "tags-ignore": {
        const isBranchCond = cond.startsWith("branches");
        if (isBranchCond) hasBranchFilter = true;
        else hasTagFilter = true;
        const name = isBranchCond ? branch : tag;
        if (name === undefined) break;
        const patterns = compiled(vals);
        if (!patterns) break;
        const skip = cond.endsWith("-ignore") ? skipByIgnores(patterns, [name]) : skipByIncludes(patterns, [name]);
        if (!skip) matched++;
        break;
      }
      case "paths":
      case "paths-ignore":
        if (pathsPass(cond, vals, trigger.changedFiles)) matched++;
        break;
      default:
        // Gitea warns about an unsupported condition and lets it fail the match.
        break;
    }
  }
  // With both branch and tag filters only one of them needs to match.
  if (hasBranchFilter && hasTagFilter) matched++;
  return matched === conds.length;
}

/**
 * A `paths` or `paths-ignore` filter against the changed files: whether it lets the event
 * through. Unknown files (a new branch) or invalid patterns never do, as in Gitea.
 */
function pathsPass(cond: string, vals: string[], files: readonly string[] | undefined): boolean {
  if (files === undefined) return false;
  const patterns = compiled(vals);
  if (!patterns) return false;
  return !(cond === "paths-ignore" ? skipByIgnores(patterns, files) : skipByIncludes(patterns, files));
}

const PR_DEFAULT_TYPES = ["opened", "reopened", "synchronize"];

function matchPullRequest(acts: Record<string, string[]>, trigger: Extract<Trigger, { event: "pull_request" }>): boolean {
  let matched = 0;
  const typeFilter = acts["types"];
  const typeMatched = typeFilter === undefined
    ? trigger.types.some((t) => PR_DEFAULT_TYPES.includes(t))
    : typesMatch(typeFilter, trigger.types);
  if (typeFilter !== undefined && typeMatched) matched++;
  const base = stripPrefix(trigger.baseRef, "refs/heads/") ?? trigger.baseRef;
  const conds = Object.entries(acts);
  for (const [cond, vals] of conds) {
    switch (cond) {
      case "branches":
      case "branches-ignore": {
        const patterns = compiled(vals);
        if (!patterns) break;
        const skip = cond === "branches" ? skipByIncludes(patterns, [base]) : skipByIgnores(patterns, [base]);
        if (!skip) matched++;
        break;
      }
      case "paths":
      case "paths-ignore":
        if (pathsPass(cond, vals, trigger.changedFiles)) matched++;
        break;
      default:
        break;
    }
  }
  return typeMatched && matched === conds.length;
}

/** The events with only a `types` filter (issues, comments, reviews, releases, packages). */
function matchTypesOnly(acts: Record<string, string[]>, types: readonly string[]): boolean {
  const conds = Object.entries(acts);
  let matched = 0;
  for (const [cond, vals] of conds) {
    if (cond === "types" && typesMatch(vals, types)) matched++;
  }
  return matched === conds.length;
}

/** Whether one of the workflow's events matches the trigger (Gitea's detectMatched). */
export function eventMatches(event: WorkflowEvent, trigger: Trigger): boolean {
  if (!workflowEventNames(trigger).includes(event.name)) return false;
  // A schedule, or any event written as a list, is a schedule to Gitea and never matches a webhook.
  if (isScheduleEvent(event)) return trigger.event === "schedule";
  const acts = event.acts ?? {};
  switch (trigger.event) {
    case "create":
    case "delete":
    case "fork":
    case "gollum":
    case "schedule":
    case "workflow_dispatch":
      return true; // no filters for these: the name is enough (Gitea ignores any given)
    case "push":
      return Object.keys(acts).length === 0 || matchPush(acts, trigger);
    case "pull_request":
      return matchPullRequest(acts, trigger);
    case "issues":
    case "issue_comment":
    case "pull_request_review":
    case "pull_request_review_comment":
    case "release":
    case "registry_package":
      return matchTypesOnly(acts, trigger.types);
  }
}

/** The workflow's events that match (the caller tells `pull_request` from `pull_request_target` by name). */
export function matchingEvents(events: WorkflowEvents, trigger: Trigger): WorkflowEvent[] {
  return events.filter((e) => eventMatches(e, trigger));
}

export function matchesEvent(events: WorkflowEvents, trigger: Trigger): boolean {
  return events.some((e) => eventMatches(e, trigger));
}

// ---------------------------------------------------------------- Gitea's hook events

/** Gitea's webhook event types that can start workflows. */
export type GiteaHookEvent =
  | "create" | "delete" | "fork" | "push" | "wiki" | "release" | "package" | "schedule" | "workflow_dispatch"
  | "issues" | "issue_assign" | "issue_label" | "issue_milestone" | "issue_comment"
  | "pull_request" | "pull_request_sync" | "pull_request_assign" | "pull_request_label" | "pull_request_milestone"
  | "pull_request_review_request" | "pull_request_comment"
  | "pull_request_review_approved" | "pull_request_review_rejected" | "pull_request_review_comment";

/** A trigger's event and the GitHub activity types one Gitea hook event and action count as. */
export interface HookTranslation {
  event: TriggerEvent;
  types: string[];
  /** For `issue_comment`: the comment is on a pull request (Gitea's `pull_request_comment` hook). */
  onPull?: boolean;
}

/**
 * Gitea's hook event and payload action → GitHub's event and activity types, with Gitea's renames:
 * `synchronized` → `synchronize`, `label_updated` → `labeled`, `label_cleared` → `unlabeled`, a review's
 * `reviewed` → `submitted` and `edited` (a review comment's → `created` and `edited`), a release's `updated`
 * → `edited`, a package's `created` → `published`. Undefined for hooks no workflow listens to.
 */
export function triggerFromHook(hook: string, action = ""): HookTranslation | undefined {
  const issueLike = (a: string) => (a === "label_updated" ? "labeled" : a === "label_cleared" ? "unlabeled" : a);
  switch (hook) {
    case "create":
    case "delete":
    case "fork":
    case "push":
    case "schedule":
    case "workflow_dispatch":
      return { event: hook, types: [] };
    case "wiki":
      return { event: "gollum", types: [] };
    case "issues":
    case "issue_assign":
    case "issue_label":
    case "issue_milestone":
      return { event: "issues", types: [issueLike(action)] };
    case "issue_comment":
      return { event: "issue_comment", types: [action] };
    case "pull_request_comment":
      return { event: "issue_comment", types: [action], onPull: true };
    case "pull_request":
    case "pull_request_sync":
    case "pull_request_assign":
    case "pull_request_label":
    case "pull_request_milestone":
    case "pull_request_review_request":
      return { event: "pull_request", types: [action === "synchronized" ? "synchronize" : issueLike(action)] };
    case "pull_request_review_approved":
    case "pull_request_review_rejected":
      return { event: "pull_request_review", types: action === "reviewed" ? ["submitted", "edited"] : [] };
    case "pull_request_review_comment":
      return { event: "pull_request_review_comment", types: action === "reviewed" ? ["created", "edited"] : [] };
    case "release":
      return { event: "release", types: [action === "updated" ? "edited" : action] };
    case "package":
      return { event: "registry_package", types: [action === "created" ? "published" : action] };
    default:
      return undefined;
  }
}

/**
 * Gitea's IsDefaultBranchWorkflow: hooks whose workflows come from the default branch rather than the
 * pushed or pull request commit.
 */
export function isDefaultBranchHook(hook: string): boolean {
  return [
    "delete", "fork", "issue_comment", "pull_request_comment", "wiki", "schedule",
    "issues", "issue_assign", "issue_label", "issue_milestone",
  ].includes(hook);
}
