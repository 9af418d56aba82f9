import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { applyOverrides, parseIni, readEnvOverrides, ROOT_SECTION, type RawConfig } from "./ini-source.ts";
import { buildSettings, type Settings } from "./settings.ts";
import { ConfigError } from "./reader.ts";

export interface LoadOptions {
  /** `--config FILE`; a relative path is taken from the current directory, as Gitea (1.21+) does. */
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
  const startWorkPath = resolve(opts.workPath ?? env.HEARTH_WORK_DIR ?? process.cwd());
  const customPath = resolve(startWorkPath, opts.customPath ?? env.HEARTH_CUSTOM ?? "custom");
  const configFile = opts.configFile
    ? isAbsolute(opts.configFile)
      ? opts.configFile
      : resolve(process.cwd(), opts.configFile)
    : join(customPath, "conf", "app.ini");

  if (opts.configFile && !existsSync(configFile)) {
    throw new Error(`config file ${configFile} does not exist`);
  }
  let raw: RawConfig = new Map();
  if (existsSync(configFile)) {
    let text: string;
    try {
      text = readFileSync(configFile, "utf8");
    } catch (err) {
      throw new Error(`cannot read config file ${configFile}: ${(err as Error).message}`);
    }
    raw = parseIni(text);
  }
  raw = applyOverrides(raw, await readEnvOverrides(env));
  // As in Gitea, WORK_PATH in the file is the final word: the server and every admin command
  // started with the same --config then share one data directory, wherever they are run from.
  const fileWorkPath = raw.get(ROOT_SECTION)?.get("WORK_PATH")?.trim();
  const workPath = fileWorkPath ? resolve(dirname(configFile), fileWorkPath) : startWorkPath;
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
    persistKeys(configFile, "security", generated);
  }
  // Written beside generated secrets or into an existing file, never into a file created for it
  // alone: an instance configured wholly by environment keeps no file.
  if (opts.persistSecrets && !fileWorkPath && existsSync(configFile)) {
    persistKeys(configFile, ROOT_SECTION, { WORK_PATH: workPath });
  }
  return { settings, keysRead: reader.keysRead };
}

/** What `generate secret` prints; the same shapes Gitea generates (a 64-char key, a long token). */
export function generateSecret(kind: "SECRET_KEY" | "INTERNAL_TOKEN"): string {
  const random = (n: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(n))).toString("base64url");
  return kind === "SECRET_KEY" ? random(48) : random(66);
}

const SECTION_HEADER = /^\s*\[([^\]]*)\]/;
const KEY_LINE = /^\s*([^=;#\s][^=]*?)\s*=/;

/**
 * Sets keys in a section (ROOT_SECTION: before the first header) by editing the file as text, so a hand-written config keeps its
 * comments, layout and other keys. A key already present there (say `SECRET_KEY =` left empty) has
 * its line replaced rather than a second line added, so the file does not grow on every start.
 * Written to a temp file and renamed, so a crash never leaves half a config; the rename keeps the
 * file's mode and owner, and writes through a symlink to the real file.
 */
export function persistKeys(configFile: string, section: string, keys: Record<string, string>): void {
  const isRoot = section === ROOT_SECTION;
  try {
    const target = existsSync(configFile) ? realpathSync(configFile) : configFile;
    const before = existsSync(target) ? statSync(target) : undefined;
    const text = before ? readFileSync(target, "utf8") : "";
    const eol = text.includes("\r\n") ? "\r\n" : "\n";
    const lines = text.length ? text.split(/\r?\n/) : [];
    const pending = new Map(Object.entries(keys));
    const written = new Set<string>();

    let inSection = isRoot;
    let firstHeader = -1;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const header = SECTION_HEADER.exec(line);
      if (header) {
        inSection = header[1]!.trim().toLowerCase() === section;
        if (inSection && firstHeader < 0) firstHeader = i;
        continue;
      }
      const m = inSection ? KEY_LINE.exec(line) : null;
      const key = m?.[1]!.toUpperCase();
      if (!key || !pending.has(key)) continue;
      const value = line.slice(m![0].length).trim();
      if (value === "" || value === '""' || value === "''" || value === "``") {
        lines[i] = `${key} = ${pending.get(key)}`;
      }
      // A non-empty value here was emptied by an environment override: leave the file's value alone.
      written.add(key);
    }
    const block = [...pending].filter(([k]) => !written.has(k)).map(([k, v]) => `${k} = ${v}`);
    if (block.length && isRoot) {
      lines.splice(0, 0, ...block);
    } else if (block.length && firstHeader >= 0) {
      lines.splice(firstHeader + 1, 0, ...block);
    } else if (block.length) {
      while (lines.length && lines[lines.length - 1] === "") lines.pop();
      if (lines.length) lines.push("");
      lines.push(`[${section}]`, ...block, "");
    }

    if (before && lines.join(eol) === text) return;
    mkdirSync(dirname(target), { recursive: true });
    const tmp = `${target}.tmp-${process.pid}`;
    try {
      writeFileSync(tmp, lines.join(eol), { mode: 0o600 });
      if (before) {
        chmodSync(tmp, before.mode & 0o7777);
        if (process.getuid && (before.uid !== process.getuid() || before.gid !== process.getgid?.())) {
          try {
            chownSync(tmp, before.uid, before.gid);
          } catch {
            /* not permitted (not root): the file ends up owned by whoever ran this */
          }
        }
      }
      renameSync(tmp, target);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
  } catch (err) {
    throw new Error(
      `cannot write generated ${isRoot ? "" : `[${section}] `}${Object.keys(keys).join(", ")} to ${configFile}: ${(err as Error).message}` +
        ` (make the file writable, or set the keys yourself: hearth generate secret SECRET_KEY)`,
    );
  }
}

export { ConfigError };
