import type { IssueConfig, IssueFormField, IssueTemplate } from "../services/issue/templates.ts";

/** Gitea's `IssueFormField` JSON (`visible` is omitted when empty). */
export interface APIIssueFormField {
  type: string;
  id: string;
  attributes: Record<string, unknown> | null;
  validations: Record<string, unknown> | null;
  visible?: string[];
}

/** Gitea's `IssueTemplate` JSON: a form's fields are its `body`; a Markdown template's text is its `content`. */
export interface APIIssueTemplate {
  name: string;
  title: string;
  about: string;
  labels: string[] | null;
  assignees: string[] | null;
  ref: string;
  content: string;
  body: APIIssueFormField[] | null;
  file_name: string;
}

function toField(f: IssueFormField): APIIssueFormField {
  const out: APIIssueFormField = { type: f.type, id: f.id, attributes: f.attributes, validations: f.validations };
  if (f.visible?.length) out.visible = f.visible;
  return out;
}

export function toAPIIssueTemplate(t: IssueTemplate): APIIssueTemplate {
  return {
    name: t.name,
    title: t.title,
    about: t.about,
    labels: t.labels,
    assignees: t.assignees,
    ref: t.ref,
    content: t.content,
    body: t.fields && t.fields.map(toField),
    file_name: t.fileName,
  };
}

export function toAPIIssueConfig(c: IssueConfig) {
  return { blank_issues_enabled: c.blankIssuesEnabled, contact_links: c.contactLinks.map((l) => ({ name: l.name, url: l.url, about: l.about })) };
}
