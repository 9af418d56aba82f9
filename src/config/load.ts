import { existsSync, mkdirSync, readFileSync, writeFileSync, renameSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { applyOverrides, parseIni, readEnvOverrides, type RawConfig } from "./ini-source.ts";
import { buildSettings, type Settings } from "./settings.ts";
import { ConfigError } from "./reader.ts";

export interface LoadOptions {
  /** `--config FILE`; relative paths are taken from the custom path, as Gitea does. */
  configFile?: string;
  /** `--work-path DIR`; otherwise HEARTH_WORK_DIR, otherwise the current directory. */
  workPath?: string;
  customPath?: string;
  portOverride?: number;
  env?: Record<string, string | undefined>;
  /** Write a generated SECRET_KEY / INTERNAL_TOKEN into the config file when absent (the web command). */
  persistSecrets?: boolean;
}

export interface LoadedConfig {
  settings: Settings;
  /** Keys read while building settings, `section.KEY`: what app.ini.example must document. */
  keysRead: Set<string>;
}

export async function loadConfig(opts: LoadOptions = {}): Promise<LoadedConfig> {
  const env = opts.env ?? process.env;
  const workPath = resolve(opts.workPath ?? env.HEARTH_WORK_DIR ?? process.cwd());
  const customPath = resolve(workPath, opts.customPath ?? env.HEARTH_CUSTOM ?? "custom");
  const configFile = opts.configFile
    ? isAbsolute(opts.configFile)
      ? opts.configFile
      : resolve(process.cwd(), opts.configFile)
    : join(customPath, "conf", "app.ini");

  if (opts.configFile && !existsSync(configFile)) {
    throw new Error(`config file ${configFile} does not exist`);
  }
  let raw: RawConfig = existsSync(configFile) ? parseIni(readFileSync(configFile, "utf8")) : new Map();
  raw = applyOverrides(raw, await readEnvOverrides(env));
  const { settings, reader } = buildSettings(raw, {
    workPath,
    customPath,
    configFile,
    portOverride: opts.portOverride,
  });

  const generated: Record<string, string> = {};
  if (!settings.security.secretKey) generated.SECRET_KEY = settings.security.secretKey = generateSecret("SECRET_KEY");
  if (!settings.security.internalToken)
    generated.INTERNAL_TOKEN = settings.security.internalToken = generateSecret("INTERNAL_TOKEN");
  if (opts.persistSecrets && Object.keys(generated).length > 0) {
    persistSecurityKeys(configFile, generated);
  }
  return { settings, keysRead: reader.keysRead };
}

/** What `generate secret` prints; the same shapes Gitea generates (a 64-char key, a long token). */
export function generateSecret(kind: "SECRET_KEY" | "INTERNAL_TOKEN"): string {
  return kind === "SECRET_KEY" ? randomBytes(48).toString("base64url") : randomBytes(66).toString("base64url");
}

/**
 * Adds keys to `[security]` by editing the file as text, so a hand-written config keeps its comments
 * and layout. Written to a temp file and renamed, so a crash never leaves half a config.
 */
function persistSecurityKeys(configFile: string, keys: Record<string, string>) {
  const text = existsSync(configFile) ? readFileSync(configFile, "utf8") : "";
  const lines = text.length ? text.split(/\r?\n/) : [];
  const block = Object.entries(keys).map(([k, v]) => `${k} = ${v}`);
  const header = lines.findIndex((l) => /^\s*\[security\]\s*$/i.test(l));
  if (header >= 0) {
    lines.splice(header + 1, 0, ...block);
  } else {
    if (lines.length && lines[lines.length - 1] !== "") lines.push("");
    lines.push("[security]", "INSTALL_LOCK = true", ...block, "");
  }
  try {
    mkdirSync(dirname(configFile), { recursive: true });
    const tmp = `${configFile}.tmp-${process.pid}`;
    writeFileSync(tmp, lines.join("\n"), { mode: 0o600 });
    renameSync(tmp, configFile);
  } catch (err) {
    throw new Error(
      `cannot write generated [security] ${Object.keys(keys).join(", ")} to ${configFile}: ${(err as Error).message}`,
    );
  }
}

export { ConfigError };
