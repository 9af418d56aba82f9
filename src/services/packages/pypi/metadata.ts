/**
 * A PyPI version's metadata as stored (package_version.metadata_json): Gitea's fields
 * (modules/packages/pypi/metadata.go, by their JSON names) and the rest of what twine sends about
 * the project, taken from the upload form.
 */
export interface PyPIMetadata {
  author: string;
  description: string;
  long_description: string;
  summary: string;
  /** The home page Gitea picks (a `Homepage` project URL, else `home_page`), "" unless http(s). */
  project_url: string;
  license: string;
  requires_python: string;
  author_email: string;
  maintainer: string;
  maintainer_email: string;
  keywords: string;
  description_content_type: string;
  classifiers: string[];
  /** "Label, URL" entries, as the form sends them. */
  project_urls: string[];
}

/** The metadata of a stored version; fields missing from older rows read as empty. */
export function parseMetadata(json: string): PyPIMetadata {
  let raw: Record<string, unknown> = {};
  try {
    const parsed: unknown = json ? JSON.parse(json) : {};
    if (parsed && typeof parsed === "object") raw = parsed as Record<string, unknown>;
  } catch {
    // A row written by something else: nothing known about it.
  }
  const str = (k: string) => (typeof raw[k] === "string" ? (raw[k] as string) : "");
  const list = (k: string) => (Array.isArray(raw[k]) ? (raw[k] as unknown[]).filter((v): v is string => typeof v === "string") : []);
  return {
    author: str("author"),
    description: str("description"),
    long_description: str("long_description"),
    summary: str("summary"),
    project_url: str("project_url"),
    license: str("license"),
    requires_python: str("requires_python"),
    author_email: str("author_email"),
    maintainer: str("maintainer"),
    maintainer_email: str("maintainer_email"),
    keywords: str("keywords"),
    description_content_type: str("description_content_type"),
    classifiers: list("classifiers"),
    project_urls: list("project_urls"),
  };
}
