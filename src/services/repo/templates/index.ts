import type { UserRow } from "../../../db/schema/index.ts";
import type { FileWrite } from "../../../git/commit-files.ts";
import { BadRequest, Invalid } from "../../../lib/errors.ts";
import { cleanRelativePath } from "../../../lib/path.ts";
import { GITIGNORE_TEMPLATES } from "./gitignore.ts";
import { LABEL_TEMPLATES, type LabelTemplate } from "./labels.ts";
import spdxFullPath from "spdx-license-list/spdx-full.json" with { type: "file" };

export type { LabelTemplate } from "./labels.ts";

export type LicenseEntry = { name: string; url?: string; osiApproved: boolean; licenseText: string };

/**
 * The SPDX list with full texts is 5 MB: embedded as a file and parsed on first use. A dynamic
 * `import()` of the JSON put it inside the executable's script, which every start then parsed and
 * held in memory (half the script, ~25 MB of the idle RSS; bench/startup.ts).
 */
let licenses: Promise<Record<string, LicenseEntry>> | undefined;
function loadLicenses(): Promise<Record<string, LicenseEntry>> {
  licenses ??= Bun.file(spdxFullPath).json() as Promise<Record<string, LicenseEntry>>;
  return licenses;
}

/**
 * Gitea's options/readme files. Gitea writes the expanded template as it is, so the README has no
 * final newline (and ends in a blank line when the description is empty).
 */
export const README_TEMPLATES: Record<string, string> = {
  Default: "# {Name}\n\n{Description}",
};

/** Go's sort.Strings: by code unit, so upper case sorts before lower case ("Zig" before "macOS"). */
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A template name from a URL, cleaned as Gitea's util.PathJoinRelX does ("../Go" is "Go"). */
export const cleanTemplateName = cleanRelativePath;

export function gitignoreNames(): string[] {
  return Object.keys(GITIGNORE_TEMPLATES).sort(byCodeUnit);
}

export function gitignoreTemplate(name: string): string | undefined {
  return Object.hasOwn(GITIGNORE_TEMPLATES, name) ? GITIGNORE_TEMPLATES[name] : undefined;
}

/** `[repository] PREFERRED_LICENSES`, Gitea's default: listed first, in this order. */
export const PREFERRED_LICENSES = ["Apache-2.0", "MIT"];

/** License keys as Gitea lists them: the preferred ones first, then the rest by code unit. */
export async function licenseKeys(preferred: string[] = PREFERRED_LICENSES): Promise<string[]> {
  const all = Object.keys(await loadLicenses()).sort(byCodeUnit);
  const lower = new Set(preferred.map((p) => p.toLowerCase()));
  const first = preferred.filter((p) => all.some((k) => k.toLowerCase() === p.toLowerCase()));
  return [...first, ...all.filter((k) => !lower.has(k.toLowerCase()))];
}

export async function licenseEntry(key: string): Promise<LicenseEntry | undefined> {
  const all = await loadLicenses();
  return Object.hasOwn(all, key) ? all[key] : undefined;
}

export function labelTemplateNames(): string[] {
  return Object.keys(LABEL_TEMPLATES).sort(byCodeUnit);
}

/** A label set by display name (Gitea's LoadTemplateLabelsByDisplayName), for GET /label/templates/{name} and `issue_labels`. */
export function labelTemplate(name: string): LabelTemplate[] | undefined {
  return Object.hasOwn(LABEL_TEMPLATES, name) ? LABEL_TEMPLATES[name] : undefined;
}

/** Fills the copyright placeholders SPDX texts use with the year and the owner's name. */
function fillLicense(text: string, owner: UserRow): string {
  const year = String(new Date().getUTCFullYear());
  const holder = owner.fullName || owner.name;
  return text
    .replace(/<year>|\[year\]|\[yyyy\]|<yyyy>|\{year\}|\[YEAR\]/g, year)
    .replace(
      /<copyright holders>|<name of author>|<owner>|\[fullname\]|\[name of copyright owner\]|<COPYRIGHT HOLDER>|\[COPYRIGHT HOLDER\]|<copyright holder>/g,
      holder,
    );
}

export interface InitFilesInput {
  name: string;
  description: string;
  owner: UserRow;
  readme: string;
  /** Comma-separated template names, as Gitea takes them. */
  gitignores: string;
  license: string;
}

/** The files of an auto-initialised repository; an unknown template name is a 422. */
export async function initialFiles(input: InitFilesInput): Promise<FileWrite[]> {
  const readme = README_TEMPLATES[input.readme];
  if (readme === undefined) {
    throw new BadRequest(`readme template does not exist, available templates: [${Object.keys(README_TEMPLATES).join(" ")}]`);
  }
  const files: FileWrite[] = [
    {
      path: "README.md",
      content: readme.replaceAll("{Name}", input.name).replaceAll("{Description}", input.description),
    },
  ];
  const ignores = input.gitignores
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (ignores.length) {
    const parts = ignores.map((name) => {
      const body = gitignoreTemplate(name);
      if (body === undefined) throw new Invalid(`gitignore template does not exist: ${name}`);
      return `# ---> ${name}\n${body}`;
    });
    files.push({ path: ".gitignore", content: parts.join("\n") });
  }
  if (input.license) {
    const entry = await licenseEntry(input.license);
    if (!entry) throw new Invalid(`license does not exist: ${input.license}`);
    files.push({ path: "LICENSE", content: fillLicense(entry.licenseText, input.owner) });
  }
  return files;
}
