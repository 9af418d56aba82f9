import type { IssueConfig, IssueFormField, IssueTemplate } from "../services/issue/templates.ts";
import type { APIIssueConfig, APIIssueFormField, APIIssueTemplate } from "../shapes/issue-extras.ts";

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

export function toAPIIssueConfig(c: IssueConfig): APIIssueConfig {
  return { blank_issues_enabled: c.blankIssuesEnabled, contact_links: c.contactLinks.map((l) => ({ name: l.name, url: l.url, about: l.about })) };
}
