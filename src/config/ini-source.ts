import { parse } from "ini";

/**
 * The raw key/value view of a configuration: an INI file overlaid with `HEARTH__SECTION__KEY`
 * environment variables, spelled the way Gitea's environment-to-ini spells them.
 */
export type RawConfig = Map<string, Map<string, string>>;

/** The section that holds keys written before any `[section]` header. */
export const ROOT_SECTION = "DEFAULT";

export function parseIni(text: string): RawConfig {
  const parsed = parse(text) as Record<string, unknown>;
  const out: RawConfig = new Map();
  const put = (section: string, key: string, value: unknown) => {
    if (value === null || value === undefined || typeof value === "object") return;
    let sec = out.get(section);
    if (!sec) out.set(section, (sec = new Map()));
    sec.set(key.toUpperCase(), String(value));
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

/** `_0x2E_` → `.`, `_0X2D_` → `-`: Gitea's escape for characters an env name cannot hold. */
function unescapeEnvName(name: string): string {
  return name.replace(/_0[xX]((?:[0-9a-fA-F]{2})+)_/g, (_, hex: string) =>
    Buffer.from(hex, "hex").toString("utf8"),
  );
}

export interface EnvOverride {
  section: string;
  key: string;
  value: string;
  variable: string;
}

/**
 * Reads `HEARTH__SECTION__KEY=value` and `HEARTH__SECTION__KEY__FILE=/path` (value read from the
 * file, trailing newline removed, as Gitea does for secrets mounted as files).
 */
export async function readEnvOverrides(env: Record<string, string | undefined>): Promise<EnvOverride[]> {
  const out: EnvOverride[] = [];
  for (const [variable, raw] of Object.entries(env)) {
    if (!variable.startsWith(ENV_PREFIX) || raw === undefined) continue;
    const parts = variable.slice(ENV_PREFIX.length).split("__");
    let fromFile = false;
    if (parts.length === 3 && parts[2] === "FILE") {
      fromFile = true;
      parts.pop();
    }
    if (parts.length !== 2 || !parts[0] || !parts[1]) continue;
    const section = unescapeEnvName(parts[0]).toLowerCase();
    const key = unescapeEnvName(parts[1]).toUpperCase();
    let value = raw;
    if (fromFile) {
      const file = Bun.file(raw);
      if (!(await file.exists())) throw new Error(`${variable}: file ${raw} does not exist`);
      value = (await file.text()).replace(/\r?\n$/, "");
    }
    out.push({ section: section === "default" ? ROOT_SECTION : section, key, value, variable });
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
