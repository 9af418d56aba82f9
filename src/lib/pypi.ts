/**
 * Python packaging's naming rules, as Gitea's PyPI registry applies them
 * (routers/api/packages/pypi/pypi.go) with PEP 503's normalisation.
 */

/** PEP 508's project name: ASCII letters and digits, with `.`, `-`, `_` inside. */
const NAME = /^(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9._-]*[a-zA-Z0-9])$/;

/** PEP 440's version, as Gitea matches it (appendix B's expression, case-sensitive as Gitea's). */
const VERSION = new RegExp(
  "^v?" +
    "(?:[0-9]+!)?" + // epoch
    "[0-9]+(?:\\.[0-9]+)*" + // release segment
    "(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview)[-_.]?[0-9]*)?" + // pre-release
    "(?:-[0-9]+|[-_.]?(?:post|rev|r)[-_.]?[0-9]*)?" + // post release
    "(?:[-_.]?dev[-_.]?[0-9]*)?" + // dev release
    "(?:\\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?" + // local version
    "$",
);

export function isValidProjectName(name: string): boolean {
  return NAME.test(name);
}

export function isValidVersion(version: string): boolean {
  return VERSION.test(version);
}

/** The name as stored and shown: runs of `-`, `_`, `.` become one `-`, the case is kept. */
export function displayName(name: string): string {
  return name.replace(/[-_.]+/g, "-");
}

/** PEP 503's normalised name, the key a project is found by (`/simple/{name}/`). */
export function canonicalName(name: string): string {
  return displayName(name).toLowerCase();
}

/**
 * A Project-URL label normalised as packaging's well-known-project-urls spec says (Gitea's
 * normalizeLabel): punctuation and white space removed, lower case.
 */
export function normalizeLabel(label: string): string {
  return label.replace(/[\p{P}\s]/gu, "").toLowerCase();
}

/** Gitea's validation.IsValidURL: an absolute http(s) URL. */
export function isHttpUrl(value: string): boolean {
  if (!value || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * The project's home page as Gitea picks it: the first `project_urls` entry ("Label, URL") whose
 * label normalises to `homepage`, else the deprecated `home_page` field; "" unless an http(s) URL.
 */
export function homepageOf(projectUrls: readonly string[], homePage: string): string {
  let url = "";
  for (const entry of projectUrls) {
    const comma = entry.indexOf(",");
    if (comma < 0 || normalizeLabel(entry.slice(0, comma)) !== "homepage") continue;
    url = entry.slice(comma + 1).trim();
    break;
  }
  if (!url) url = homePage;
  return isHttpUrl(url) ? url : "";
}
