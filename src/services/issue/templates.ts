/**
 * Issue templates and the template chooser's config, read from the default branch as Gitea does
 * (modules/issue/template, services/issue/template.go): Markdown templates with YAML front matter,
 * YAML issue forms, and `config.yaml`/`config.yml` beside them.
 */
import type { Env } from "../env.ts";
import * as tree from "../../git/tree.ts";
import { gitDirOf, type RepoContext } from "../repo/lookup.ts";

/** The YAML parser, loaded by the first call that reads templates rather than at start-up (bench/startup.ts). */
let parse: typeof import("yaml").parse | undefined;
const loadYaml = async () => void (parse ??= (await import("yaml")).parse);

/** Where Gitea looks for templates, in this order. */
const TEMPLATE_DIRS = [
  "ISSUE_TEMPLATE",
  "issue_template",
  ".gitea/ISSUE_TEMPLATE",
  ".gitea/issue_template",
  ".github/ISSUE_TEMPLATE",
  ".github/issue_template",
  ".gitlab/ISSUE_TEMPLATE",
  ".gitlab/issue_template",
];

/** Where Gitea looks for the config, each as `.yaml` then `.yml`; the first found is the config. */
const CONFIG_BASES = [".gitea/ISSUE_TEMPLATE/config", ".gitea/issue_template/config", ".github/ISSUE_TEMPLATE/config", ".github/issue_template/config"];

/** Gitea's `[ui] MAX_DISPLAY_FILE_SIZE` default: larger template files are invalid. */
const MAX_TEMPLATE_BYTES = 8 * 1024 * 1024;

export interface IssueFormField {
  type: string;
  id: string;
  attributes: Record<string, unknown> | null;
  validations: Record<string, unknown> | null;
  visible: string[] | null;
}

export interface IssueTemplate {
  name: string;
  title: string;
  about: string;
  labels: string[] | null;
  assignees: string[] | null;
  ref: string;
  content: string;
  fields: IssueFormField[] | null;
  fileName: string;
}

export interface IssueConfig {
  blankIssuesEnabled: boolean;
  contactLinks: { name: string; url: string; about: string }[];
}

class TemplateError extends Error {}

/** The default branch's commit, or undefined when the repository is empty or the branch is missing. */
async function defaultBranchCommit(gitDir: string, rc: RepoContext): Promise<string | undefined> {
  if (rc.repo.isEmpty || !tree.isSafeRefName(rc.repo.defaultBranch)) return undefined;
  const [found] = await tree.resolveRevisions(gitDir, [`refs/heads/${rc.repo.defaultBranch}^{commit}`]);
  return found?.oid;
}

/** Gitea's template.Type: `.md` is Markdown, `.yaml`/`.yml` a form, `config.*` neither. */
function templateType(name: string): "md" | "yaml" | undefined {
  if (name === "config.yaml" || name === "config.yml") return undefined;
  if (name.endsWith(".md")) return "md";
  if (name.endsWith(".yaml") || name.endsWith(".yml")) return "yaml";
  return undefined;
}

/**
 * Gitea's ParseTemplatesFromDefaultBranch: the valid templates of every candidate directory, and
 * how many files failed to parse or validate (reported in a warning header, not as an error).
 */
export async function issueTemplates(env: Env, rc: RepoContext): Promise<{ templates: IssueTemplate[]; invalid: number }> {
  const out = { templates: [] as IssueTemplate[], invalid: 0 };
  await loadYaml();
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const commit = await defaultBranchCommit(gitDir, rc);
  if (!commit) return out;
  const dirs = await tree.readEntries(gitDir, commit, TEMPLATE_DIRS);
  for (const dir of TEMPLATE_DIRS) {
    const entry = dirs.get(dir);
    if (entry?.type !== "tree") continue;
    for (const file of await tree.listTree(gitDir, entry.oid, dir)) {
      const type = templateType(file.name);
      if (!type) continue;
      try {
        if (file.type !== "blob") throw new TemplateError("not a file");
        if (file.size > MAX_TEMPLATE_BYTES) throw new TemplateError(`too large: ${file.size} > MaxDisplayFileSize`);
        const text = (await tree.readBlob(gitDir, file.oid)).toString("utf8");
        const it = parseTemplate(file.path, type, text);
        validateTemplate(it, type);
        // Gitea assumes a branch when the ref is not a full ref name, even for an empty ref.
        if (!it.ref.startsWith("refs/")) it.ref = `refs/heads/${it.ref}`;
        out.templates.push(it);
      } catch (err) {
        if (!(err instanceof TemplateError)) throw err;
        out.invalid++;
      }
    }
  }
  return out;
}

/**
 * Gitea's GetTemplateConfigFromDefaultBranch: the first config file found, or the default config
 * (blank issues allowed, no contact links). `error` says why a config file was not usable; the
 * default is returned with it, as Gitea does.
 */
export async function issueConfig(env: Env, rc: RepoContext): Promise<{ config: IssueConfig; error?: string }> {
  const config = defaultConfig();
  if (rc.repo.isEmpty) return { config };
  await loadYaml();
  const gitDir = gitDirOf(env, rc.owner, rc.repo);
  const commit = await defaultBranchCommit(gitDir, rc);
  if (!commit) return { config, error: `object does not exist [id: ${rc.repo.defaultBranch}, rel_path: ]` };
  const paths = CONFIG_BASES.flatMap((base) => [`${base}.yaml`, `${base}.yml`]);
  const entries = await tree.readEntries(gitDir, commit, paths);
  const path = paths.find((p) => entries.has(p));
  if (!path) return { config };
  const entry = entries.get(path)!;
  try {
    if (entry.type !== "blob") throw new TemplateError(`${path} is not a file`);
    return { config: parseConfig((await tree.readBlob(gitDir, entry.oid)).toString("utf8")) };
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    return { config: defaultConfig(), error: err.message };
  }
}

function defaultConfig(): IssueConfig {
  return { blankIssuesEnabled: true, contactLinks: [] };
}

// ---------------------------------------------------------------------------------------------
// YAML, decoded the way Go's yaml.v3 fills Gitea's structs: a string field takes a scalar's text
// as written (`1.0` stays "1.0"), free-form maps keep YAML's types.

/** The document twice: with YAML's types, and with every scalar as the text it was written as. */
function parseYaml(text: string): { typed: unknown; raw: unknown } {
  try {
    return { typed: parse!(text), raw: parse!(text, { schema: "failsafe" }) };
  } catch (err) {
    throw new TemplateError(`yaml: ${(err as Error).message.split("\n")[0]}`);
  }
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function mismatch(what: string, value: unknown): TemplateError {
  const tag = Array.isArray(value)
    ? "!!seq"
    : isMap(value)
      ? "!!map"
      : typeof value === "boolean"
        ? "!!bool"
        : typeof value === "number"
          ? "!!int"
          : "!!str";
  return new TemplateError(`yaml: unmarshal errors:\n  cannot unmarshal ${tag} into ${what}`);
}

/** A string field: absent or null is empty; a scalar its text; anything else a type error. */
function str(typed: unknown, raw: unknown): string {
  if (typed === undefined || typed === null) return "";
  if (typeof typed === "object") throw mismatch("string", typed);
  return typeof raw === "string" ? raw : String(typed);
}

/** Gitea's IssueTemplateStringSlice: a list of strings, or one comma-separated string. */
function stringSlice(typed: unknown, raw: unknown): string[] | null {
  if (typed === undefined || typed === null) return null;
  if (Array.isArray(typed)) return typed.map((v, i) => str(v, (raw as unknown[])[i]));
  if (typeof typed === "object") throw mismatch("IssueTemplateStringSlice", typed);
  const list = str(typed, raw)
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return list.length ? list : null;
}

function freeMap(v: unknown): Record<string, unknown> | null {
  if (v === undefined || v === null) return null;
  if (!isMap(v)) throw mismatch("map[string]interface {}", v);
  return v;
}

function templateFromYaml(fileName: string, typed: unknown, raw: unknown): IssueTemplate {
  const it: IssueTemplate = { name: "", title: "", about: "", labels: null, assignees: null, ref: "", content: "", fields: null, fileName };
  if (typed === null || typed === undefined) return it;
  if (!isMap(typed) || !isMap(raw)) throw mismatch("api.IssueTemplate", typed);
  it.name = str(typed.name, raw.name);
  it.title = str(typed.title, raw.title);
  // Gitea reads `description` as `about` when `about` is empty.
  it.about = str(typed.about, raw.about) || str(typed.description, raw.description);
  it.labels = stringSlice(typed.labels, raw.labels);
  it.assignees = stringSlice(typed.assignees, raw.assignees);
  it.ref = str(typed.ref, raw.ref);
  if (typed.body !== undefined && typed.body !== null) {
    if (!Array.isArray(typed.body)) throw mismatch("[]*api.IssueFormField", typed.body);
    const rawBody = raw.body as unknown[];
    it.fields = typed.body.map((f, i) => {
      const r = rawBody[i];
      if (!isMap(f) || !isMap(r)) throw mismatch("api.IssueFormField", f);
      const visible = f.visible === undefined || f.visible === null ? null : f.visible;
      if (visible !== null && !Array.isArray(visible)) throw mismatch("[]api.IssueFormFieldVisible", visible);
      return {
        type: str(f.type, r.type),
        id: str(f.id, r.id),
        attributes: freeMap(f.attributes),
        validations: freeMap(f.validations),
        visible: visible && visible.map((v, j) => str(v, (r.visible as unknown[])[j])),
      };
    });
  }
  return it;
}

/** Gitea's markdown.ExtractMetadata: YAML between two lines of dashes at the top; undefined when there is none. */
function frontMatter(text: string): { front: string; body: string } | undefined {
  const isSeparator = (line: string) => /^-{3,}$/.test(line.trim());
  const lines = text.split("\n");
  if (!isSeparator(lines[0]!)) return undefined;
  for (let i = 1; i < lines.length; i++) {
    if (isSeparator(lines[i]!)) {
      if (i === 1) return undefined;
      return { front: `${lines.slice(1, i).join("\n")}\n`, body: lines.slice(i + 1).join("\n") };
    }
  }
  return undefined;
}

/** Gitea's template.unmarshal: metadata and content of a Markdown template, or the fields of a form. */
function parseTemplate(fileName: string, type: "md" | "yaml", text: string): IssueTemplate {
  if (type === "yaml") {
    const { typed, raw } = parseYaml(text);
    const it = templateFromYaml(fileName, typed, raw);
    // Gitea fills in ids by position and shows non-Markdown fields both on the form and in the issue.
    it.fields?.forEach((f, i) => {
      if (f.id === "") f.id = String(i);
      if (f.visible === null) f.visible = f.type === "markdown" ? ["form"] : ["form", "content"];
    });
    return it;
  }
  const parts = frontMatter(text);
  if (parts) {
    try {
      const { typed, raw } = parseYaml(parts.front);
      return { ...templateFromYaml(fileName, typed, raw), content: parts.body };
    } catch (err) {
      if (!(err instanceof TemplateError)) throw err;
    }
  }
  // No usable metadata: the whole file is the content, named after the file, about its start.
  const base = fileName.slice(fileName.lastIndexOf("/") + 1);
  return { ...templateFromYaml(fileName, null, null), name: base, about: firstBytes(text, 80), content: text };
}

/** Gitea's SplitStringAtByteN: at most n bytes, not cutting a character, with "…" when cut. */
function firstBytes(text: string, n: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= n) return text;
  let end = n - 3;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return `${bytes.subarray(0, end).toString("utf8")}…`;
}

// ---------------------------------------------------------------------------------------------
// Validation (Gitea's template.Validate): only whether a template is valid matters to the API.

function fail(position: string, message: string): never {
  throw new TemplateError(`${position}: ${message}`);
}

/** Gitea's validateStringItem, including its habit of stopping at the first absent optional name. */
function requireStrings(position: string, m: Record<string, unknown> | null, required: boolean, ...names: string[]): void {
  for (const name of names) {
    if (!m || !(name in m)) {
      if (required) fail(position, `'${name}' is required`);
      return;
    }
    const value = m[name];
    if (typeof value !== "string") fail(position, `'${name}' should be a string`);
    if (required && value.trim() === "") fail(position, `'${name}' is required`);
  }
}

function requireBools(position: string, m: Record<string, unknown> | null, ...names: string[]): void {
  for (const name of names) {
    if (!m || !(name in m)) return;
    if (typeof m[name] !== "boolean") fail(position, `'${name}' should be a bool`);
  }
}

function validateOptions(position: string, field: IssueFormField): unknown[] {
  const options = field.attributes?.options;
  if (!Array.isArray(options) || options.length === 0) fail(position, "'options' is required and should be a array");
  options.forEach((option, i) => {
    const at = `${position}, option[${i}]`;
    if (field.type === "dropdown" && typeof option !== "string") fail(at, "should be a string");
    if (field.type === "checkboxes") {
      if (!isMap(option)) fail(at, "should be a dictionary");
      requireStrings(at, option, true, "label");
      requireBools(at, option, "required");
    }
  });
  return options;
}

function validateTemplate(it: IssueTemplate, type: "md" | "yaml"): void {
  if (it.name.trim() === "") fail(it.fileName, "'name' is required");
  if (it.about.trim() === "") fail(it.fileName, "'about' is required");
  if (type !== "yaml") return;
  if (!it.fields?.length) fail(it.fileName, "'body' is required");
  const ids = new Set<string>();
  it.fields.forEach((field, i) => {
    const position = `body[${i}](${field.type})`;
    if (field.type !== "markdown") {
      if (field.id === "") fail(position, "'id' is required");
      if (/[^\w-]/.test(field.id)) fail(position, "'id' should contain only alphanumeric, '-' and '_'");
      if (ids.has(field.id)) fail(position, "'id' should be unique");
      ids.add(field.id);
      requireStrings(position, field.attributes, true, "label");
    }
    switch (field.type) {
      case "markdown":
        requireStrings(position, field.attributes, true, "value");
        break;
      case "textarea":
        requireStrings(position, field.attributes, false, "description", "placeholder", "value", "render");
        break;
      case "input":
        requireStrings(position, field.attributes, false, "description", "placeholder", "value");
        requireBools(position, field.validations, "is_number");
        requireStrings(position, field.validations, false, "regex");
        break;
      case "dropdown": {
        requireStrings(position, field.attributes, false, "description");
        requireBools(position, field.attributes, "multiple", "list");
        const options = validateOptions(position, field);
        const def = field.attributes?.default;
        if (def !== undefined && (!Number.isInteger(def) || (def as number) < 0 || (def as number) >= options.length)) {
          fail(position, "'default' should be an int in the range of the options");
        }
        break;
      }
      case "checkboxes":
        requireStrings(position, field.attributes, false, "description");
        validateOptions(position, field);
        break;
      default:
        fail(position, "unknown type");
    }
    for (const v of field.visible ?? []) if (v !== "form" && v !== "content") fail(position, `unknown visible value: ${v}`);
    if (field.type !== "markdown" && field.type !== "checkboxes") {
      requireBools(position, field.validations, "required");
      if (field.validations?.required === true && !(field.visible ?? []).includes("form")) fail(position, "can not require a hidden field");
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Config (Gitea's GetTemplateConfig)

/** Go's url.ParseRequestURI: an absolute URL (any scheme) or an absolute path. */
function isRequestUri(value: string): boolean {
  if (/[\x00-\x20\x7f]/.test(value)) return false;
  if (value.startsWith("/")) return true;
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

function parseConfig(text: string): IssueConfig {
  const { typed, raw } = parseYaml(text);
  const config = defaultConfig();
  if (typed === null || typed === undefined) return config;
  if (!isMap(typed) || !isMap(raw)) throw mismatch("api.IssueConfig", typed);
  const blank = typed.blank_issues_enabled;
  if (blank !== undefined && blank !== null) {
    if (typeof blank !== "boolean") throw mismatch("bool", blank);
    config.blankIssuesEnabled = blank;
  }
  const links = typed.contact_links;
  if (links !== undefined && links !== null) {
    if (!Array.isArray(links)) throw mismatch("[]api.IssueConfigContactLink", links);
    const rawLinks = raw.contact_links as unknown[];
    config.contactLinks = links.map((l, i) => {
      const r = rawLinks[i];
      if (!isMap(l) || !isMap(r)) throw mismatch("api.IssueConfigContactLink", l);
      return { name: str(l.name, r.name), url: str(l.url, r.url), about: str(l.about, r.about) };
    });
  }
  config.contactLinks.forEach((link, i) => {
    const at = i + 1;
    if (link.name === "") throw new TemplateError(`contact_link at position ${at} is missing name key`);
    if (link.url === "") throw new TemplateError(`contact_link at position ${at} is missing url key`);
    if (link.about === "") throw new TemplateError(`contact_link at position ${at} is missing about key`);
    if (!isRequestUri(link.url)) throw new TemplateError(`${link.url} is not a valid URL`);
  });
  return config;
}
