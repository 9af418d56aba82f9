import { parse } from "ini";

/**
 * The raw key/value view of a configuration: an INI file overlaid with `HEARTH__SECTION__KEY`
 * environment variables, spelled the way Gitea's environment-to-ini spells them.
 */
export type RawConfig = Map<string, Map<string, string>>;

/** The section that holds keys written before any `[section]` header. */
export const ROOT_SECTION = "DEFAULT";

/**
 * go-ini (Gitea's parser) ignores leading whitespace and accepts a comment after a section header
 * (`[security] ; secrets`); the `ini` package would read such a header as a key and file the keys
 * below it under the previous section. Normalise those lines first.
 */
function normalizeLines(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => {
      const trimmed = line.trimStart();
      const header = /^\[([^\]]*)\]\s*(?:[;#].*)?$/.exec(trimmed);
      return header ? `[${header[1]!.trim()}]` : trimmed;
    })
    .join("\n");
}

export function parseIni(text: string): RawConfig {
  const parsed = parse(normalizeLines(text)) as Record<string, unknown>;
  const out: RawConfig = new Map();
  const put = (section: string, key: string, value: unknown) => {
    if (value === undefined || (value !== null && typeof value === "object")) return;
    // `[DEFAULT]` written out is the same section as the keys before any header, as in go-ini.
    if (section.toLowerCase() === "default") section = ROOT_SECTION;
    let sec = out.get(section);
    if (!sec) out.set(section, (sec = new Map()));
    // `ini` turns a bare `null` into null; Gitea reads it as the text "null".
    sec.set(key.toUpperCase(), value === null ? "null" : String(value));
  };
  for (const [key, value] of Object.entries(parsed)) {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      flattenSection(key, value as Record<string, unknown>, put);
    } else {
      put(ROOT_SECTION, key, value);
    }
  }
  return out;
}

/** `ini` nests dotted section names (`[repository.upload]`); Gitea treats them as flat names. */
function flattenSection(
  name: string,
  body: Record<string, unknown>,
  put: (section: string, key: string, value: unknown) => void,
) {
  for (const [key, value] of Object.entries(body)) {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      flattenSection(`${name}.${key}`, value as Record<string, unknown>, put);
    } else {
      put(name.toLowerCase(), key, value);
    }
  }
}

const ENV_PREFIX = "HEARTH__";
const FILE_SUFFIX = "__FILE";

/** `_0x2E_` → `.`, `_0X2D_` → `-`: Gitea's escape for characters an env name cannot hold (hex bytes, UTF-8). */
const ESCAPE = /_0[xX]((?:[0-9a-fA-F]{2})+)_/g;

/**
 * Splits `SECTION__KEY` the way Gitea's environment-to-ini does: the first `__` outside an escape
 * ends the section (the key keeps any later `__`), then escapes are decoded in each part.
 * Undefined when there is no key.
 */
export function decodeEnvSectionKey(encoded: string): { section: string; key: string } | undefined {
  let section = "";
  let key = "";
  let inKey = false;
  let last = 0;
  const addPlain = (text: string) => {
    if (inKey) {
      key += text;
      return;
    }
    const split = text.indexOf("__");
    if (split < 0) {
      section += text;
    } else {
      section += text.slice(0, split);
      key += text.slice(split + 2);
      inKey = true;
    }
  };
  for (const m of encoded.matchAll(ESCAPE)) {
    addPlain(encoded.slice(last, m.index));
    const decoded = Buffer.from(m[1]!, "hex").toString("utf8");
    if (inKey) key += decoded;
    else section += decoded;
    last = m.index + m[0].length;
  }
  addPlain(encoded.slice(last));
  return key ? { section, key } : undefined;
}

export interface EnvOverride {
  section: string;
  key: string;
  value: string;
  variable: string;
}

/**
 * Reads `HEARTH__SECTION__KEY=value` and `HEARTH__SECTION__KEY__FILE=/path` (value read from the
 * file, trailing newline removed, as Gitea does for secrets mounted as files). `DEFAULT` (or an
 * empty section name) is the root section, where APP_NAME and RUN_MODE live.
 */
export async function readEnvOverrides(env: Record<string, string | undefined>): Promise<EnvOverride[]> {
  const out: EnvOverride[] = [];
  for (const [variable, raw] of Object.entries(env)) {
    if (!variable.startsWith(ENV_PREFIX) || raw === undefined) continue;
    let encoded = variable.slice(ENV_PREFIX.length);
    const fromFile = encoded.endsWith(FILE_SUFFIX);
    if (fromFile) encoded = encoded.slice(0, -FILE_SUFFIX.length);
    const decoded = decodeEnvSectionKey(encoded);
    if (!decoded) continue;
    const section = decoded.section.toLowerCase();
    let value = raw;
    if (fromFile) {
      const file = Bun.file(raw);
      if (!(await file.exists())) throw new Error(`${variable}: file ${JSON.stringify(raw)} does not exist`);
      try {
        value = (await file.text()).replace(/\r?\n$/, "");
      } catch (err) {
        throw new Error(`${variable}: cannot read ${JSON.stringify(raw)}: ${(err as Error).message}`);
      }
    }
    out.push({
      section: section === "" || section === "default" ? ROOT_SECTION : section,
      key: decoded.key.toUpperCase(),
      value,
      variable,
    });
  }
  return out;
}

export function applyOverrides(config: RawConfig, overrides: EnvOverride[]): RawConfig {
  for (const o of overrides) {
    let sec = config.get(o.section);
    if (!sec) config.set(o.section, (sec = new Map()));
    sec.set(o.key, o.value);
  }
  return config;
}
