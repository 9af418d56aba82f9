import * as v from "valibot";
import { operation, type AnyOperation } from "../../../route.ts";
import {
  GitignoreTemplateInfo,
  LabelTemplate,
  LicenseTemplateInfo,
  LicensesTemplateListEntry,
  NameParams,
} from "../../../../shapes/repo-social.ts";
import {
  cleanTemplateName,
  gitignoreNames,
  gitignoreTemplate,
  labelTemplate,
  labelTemplateNames,
  licenseEntry,
  licenseKeys,
} from "../../../../services/repo/templates/index.ts";
import { NotFound } from "../../../../lib/errors.ts";
import type { Env } from "../../../../services/env.ts";

const IMPLEMENTATION =
  "Create a text file (typically named LICENSE or LICENSE.txt) in the root of your source code and copy the text of the license into the file";

function licenseUrl(env: Env, key: string): string {
  return `${env.settings.server.rootUrl}api/v1/licenses/${encodeURIComponent(key)}`;
}

/** The template catalogues Gitea serves to anyone, with no token scope. */
export const templateOperations: AnyOperation[] = [
  operation({
    method: "GET",
    path: "/gitignore/templates",
    operationId: "listGitignoresTemplates",
    tag: "miscellaneous",
    summary: "Returns a list of all gitignore templates",
    access: { scope: "public", signIn: false },
    responses: { 200: v.array(v.string()) },
    handler: () => gitignoreNames(),
  }),
  operation({
    method: "GET",
    path: "/gitignore/templates/:name",
    operationId: "getGitignoreTemplateInfo",
    tag: "miscellaneous",
    summary: "Returns information about a gitignore template",
    access: { scope: "public", signIn: false },
    params: NameParams,
    responses: { 200: GitignoreTemplateInfo },
    handler: ({ params }) => {
      const name = cleanTemplateName(params.name);
      const source = gitignoreTemplate(name);
      if (source === undefined) throw new NotFound();
      return { name, source };
    },
  }),
  operation({
    method: "GET",
    path: "/licenses",
    operationId: "listLicenseTemplates",
    tag: "miscellaneous",
    summary: "Returns a list of all license templates",
    access: { scope: "public", signIn: false },
    responses: { 200: v.array(LicensesTemplateListEntry) },
    handler: async ({ env }) => (await licenseKeys()).map((key) => ({ key, name: key, url: licenseUrl(env, key) })),
  }),
  operation({
    method: "GET",
    path: "/licenses/:name",
    operationId: "getLicenseTemplateInfo",
    tag: "miscellaneous",
    summary: "Returns information about a license template",
    access: { scope: "public", signIn: false },
    params: NameParams,
    responses: { 200: LicenseTemplateInfo },
    handler: async ({ env, params }) => {
      const key = cleanTemplateName(params.name);
      const entry = key ? await licenseEntry(key) : undefined;
      if (!entry) throw new NotFound();
      return { key, name: key, url: licenseUrl(env, key), body: entry.licenseText, implementation: IMPLEMENTATION };
    },
  }),
  operation({
    method: "GET",
    path: "/label/templates",
    operationId: "listLabelTemplates",
    tag: "miscellaneous",
    summary: "Returns a list of all label templates",
    access: { scope: "public", signIn: false },
    responses: { 200: v.array(v.string()) },
    handler: () => labelTemplateNames(),
  }),
  operation({
    method: "GET",
    path: "/label/templates/:name",
    operationId: "getLabelTemplateInfo",
    tag: "miscellaneous",
    summary: "Returns all labels in a template",
    access: { scope: "public", signIn: false },
    params: NameParams,
    responses: { 200: v.array(LabelTemplate) },
    handler: ({ params }) => {
      const labels = labelTemplate(cleanTemplateName(params.name));
      if (!labels) throw new NotFound();
      return labels.map((l) => ({ name: l.name, color: l.color, description: l.description, exclusive: l.exclusive }));
    },
  }),
];
