import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, lstatSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import {
  applyOverrides,
  decodeEnvSectionKey,
  parseIni,
  readEnvOverrides,
  ROOT_SECTION,
  type RawConfig,
} from "../src/config/ini-source.ts";
import { buildSettings, type Settings } from "../src/config/settings.ts";
import { ConfigError } from "../src/config/reader.ts";
import { generateSecret, loadConfig } from "../src/config/load.ts";

const tmp = mkdtempSync(join(tmpdir(), "hearth-config-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let dirs = 0;
/** A fresh directory under the test's temp dir. */
function freshDir(): string {
  const d = join(tmp, `d${++dirs}`);
  mkdirSync(d, { recursive: true });
  return d;
}

const WORK = "/srv/hearth";
const inputs = { workPath: WORK, customPath: `${WORK}/custom`, configFile: `${WORK}/custom/conf/app.ini` };

function settingsFrom(ini: string, extra: Partial<typeof inputs> & { portOverride?: number } = {}): Settings {
  return buildSettings(parseIni(ini), { ...inputs, ...extra }).settings;
}

/** The ConfigError message building `ini` produces; fails the test when it builds. */
function configError(ini: string | RawConfig): string {
  try {
    buildSettings(typeof ini === "string" ? parseIni(ini) : ini, inputs);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`expected a ConfigError for:\n${String(ini)}`);
}

describe("buildSettings defaults", () => {
  test("an empty config gives Gitea's defaults, paths under the work path", () => {
    const s = settingsFrom("");
    expect(s.appName).toBe("hearth");
    expect(s.runMode).toBe("prod");
    expect(s.server.protocol).toBe("http");
    expect(s.server.domain).toBe("localhost");
    expect(s.server.httpAddr).toBe("0.0.0.0");
    expect(s.server.httpPort).toBe(3000);
    expect(s.server.rootUrl).toBe("http://localhost:3000/");
    expect(s.server.rootUrlExplicit).toBe(false);
    expect(s.server.appDataPath).toBe(`${WORK}/data`);
    expect(s.database.path).toBe(`${WORK}/data/hearth.db`);
    expect(s.repository.root).toBe(`${WORK}/data/repositories`);
    expect(s.server.offlineMode).toBe(true);
    expect(s.security.secretKey).toBe("");
    expect(s.security.minPasswordLength).toBe(8);
    expect(s.service.noReplyAddress).toBe("noreply.localhost");
    expect(s.api.maxResponseItems).toBe(50);
    expect(s.api.defaultPagingNum).toBe(30);
    expect(s.ui.reactions).toEqual(["+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes"]);
    expect(s.log.level).toBe("info");
  });

  test("ROOT_URL is derived from PROTOCOL, DOMAIN and HTTP_PORT, without the scheme's default port", () => {
    expect(settingsFrom("[server]\nDOMAIN = git.example.com\nHTTP_PORT = 8080").server.rootUrl).toBe(
      "http://git.example.com:8080/",
    );
    expect(settingsFrom("[server]\nDOMAIN = git.example.com\nHTTP_PORT = 80").server.rootUrl).toBe("http://git.example.com/");
    const https = settingsFrom("[server]\nPROTOCOL = https\nDOMAIN = g.test\nHTTP_PORT = 443\nCERT_FILE = c.pem\nKEY_FILE = k.pem");
    expect(https.server.rootUrl).toBe("https://g.test/");
    expect(https.server.certFile).toBe(`${WORK}/custom/c.pem`);
    expect(https.server.keyFile).toBe(`${WORK}/custom/k.pem`);
    expect(settingsFrom("[server]\nDOMAIN = d.test\nHTTP_PORT = 3001\nPROTOCOL = HTTP").server.rootUrl).toBe("http://d.test:3001/");
    // NO_REPLY_ADDRESS follows DOMAIN.
    expect(settingsFrom("[server]\nDOMAIN = d.test").service.noReplyAddress).toBe("noreply.d.test");
  });

  test("an explicit ROOT_URL gets exactly one trailing slash and loses a default port", () => {
    const s = settingsFrom("[server]\nROOT_URL = https://git.example.com/forge");
    expect(s.server.rootUrl).toBe("https://git.example.com/forge/");
    expect(s.server.rootUrlExplicit).toBe(true);
    expect(settingsFrom("[server]\nROOT_URL = http://x.test:80/a//").server.rootUrl).toBe("http://x.test/a/");
    expect(settingsFrom("[server]\nROOT_URL = http://x.test:8443/").server.rootUrl).toBe("http://x.test:8443/");
    // Empty means "not set".
    expect(settingsFrom("[server]\nROOT_URL =").server.rootUrlExplicit).toBe(false);
  });

  test("relative paths are taken from the work path, absolute ones kept; DB and repos follow APP_DATA_PATH", () => {
    const s = settingsFrom("[server]\nAPP_DATA_PATH = store\n");
    expect(s.server.appDataPath).toBe(`${WORK}/store`);
    expect(s.database.path).toBe(`${WORK}/store/hearth.db`);
    expect(s.repository.root).toBe(`${WORK}/store/repositories`);
    const t = settingsFrom("[server]\nAPP_DATA_PATH = /var/data\n[database]\nPATH = db/h.db\n[repository]\nROOT = /git");
    expect(t.server.appDataPath).toBe("/var/data");
    expect(t.database.path).toBe(`${WORK}/db/h.db`);
    expect(t.repository.root).toBe("/git");
  });

  test("web --port overrides HTTP_PORT (and the derived ROOT_URL) but HTTP_PORT is still validated", () => {
    const s = settingsFrom("[server]\nHTTP_PORT = 4000", { portOverride: 5000 });
    expect(s.server.httpPort).toBe(5000);
    expect(s.server.rootUrl).toBe("http://localhost:5000/");
    expect(() => settingsFrom("[server]\nHTTP_PORT = nope", { portOverride: 5000 })).toThrow("[server] HTTP_PORT");
  });

  test("http+unix takes HTTP_ADDR as a socket path relative to the work path", () => {
    const s = settingsFrom("[server]\nPROTOCOL = http+unix\nHTTP_ADDR = run/hearth.sock");
    expect(s.server.protocol).toBe("http+unix");
    expect(s.server.httpAddr).toBe(`${WORK}/run/hearth.sock`);
    expect(configError("[server]\nPROTOCOL = http+unix")).toContain("[server] HTTP_ADDR");
  });

  test("lists are split on commas and trimmed; booleans take Go's spellings", () => {
    const s = settingsFrom("[ui]\nREACTIONS = a , b,,c\n[server]\nOFFLINE_MODE = f\n[service]\nREQUIRE_SIGNIN_VIEW = 1");
    expect(s.ui.reactions).toEqual(["a", "b", "c"]);
    expect(s.server.offlineMode).toBe(false);
    expect(s.service.requireSigninView).toBe(true);
  });
});

describe("INI parsing", () => {
  test("root keys land in DEFAULT, sections are lower-cased, keys upper-cased", () => {
    const raw = parseIni("APP_name = My forge\nRUN_MODE = dev\n\n[Server]\nhttp_port = 3100\n");
    expect(raw.get(ROOT_SECTION)?.get("APP_NAME")).toBe("My forge");
    expect(raw.get("server")?.get("HTTP_PORT")).toBe("3100");
    const s = buildSettings(raw, inputs).settings;
    expect(s.appName).toBe("My forge");
    expect(s.runMode).toBe("dev");
    expect(s.server.httpPort).toBe(3100);
  });

  test("dotted section names stay flat, next to their parent section", () => {
    const raw = parseIni("[repository]\nROOT = r\n[repository.upload]\nENABLED = false\nTEMP_PATH = t\n[a.b.c]\nX = 1\n");
    expect(raw.get("repository")?.get("ROOT")).toBe("r");
    expect(raw.get("repository.upload")?.get("ENABLED")).toBe("false");
    expect(raw.get("repository.upload")?.get("TEMP_PATH")).toBe("t");
    expect(raw.get("a.b.c")?.get("X")).toBe("1");
    expect(raw.get("repository")?.has("ENABLED")).toBe(false);
  });

  test("an explicit [DEFAULT] section is the root section", () => {
    const raw = parseIni("[DEFAULT]\nAPP_NAME = from default\n[server]\nDOMAIN = d.test\n");
    expect(buildSettings(raw, inputs).settings.appName).toBe("from default");
  });

  test("a section header may carry a comment and be indented, as go-ini allows", () => {
    const raw = parseIni("[server]\nHTTP_PORT = 3100\n[security] ; secrets\nSECRET_KEY = k\n  [log] # logging\n  LEVEL = warn\n");
    expect(raw.get("security")?.get("SECRET_KEY")).toBe("k");
    expect(raw.get("log")?.get("LEVEL")).toBe("warn");
    expect(raw.get("server")?.has("SECRET_KEY")).toBe(false);
  });

  test("comments, quoting and odd values", () => {
    const raw = parseIni(
      [
        "; a comment",
        "# another",
        "[security]",
        'SECRET_KEY = "a;b#c"',
        "INTERNAL_TOKEN = tok ; trailing comment",
        "[ui]",
        "DEFAULT_THEME = null",
        "[server]",
        "DOMAIN = a=b.test",
      ].join("\n"),
    );
    expect(raw.get("security")?.get("SECRET_KEY")).toBe("a;b#c");
    expect(raw.get("security")?.get("INTERNAL_TOKEN")).toBe("tok");
    expect(raw.get("ui")?.get("DEFAULT_THEME")).toBe("null");
    expect(raw.get("server")?.get("DOMAIN")).toBe("a=b.test");
  });
});

describe("environment overrides", () => {
  test("HEARTH__SECTION__KEY sets a key, any case of section, and wins over the file", async () => {
    const raw = parseIni("[server]\nHTTP_PORT = 3000\nDOMAIN = file.test\n");
    const overrides = await readEnvOverrides({
      HEARTH__server__HTTP_PORT: "4000",
      HEARTH__SERVICE__DISABLE_REGISTRATION: "true",
      HEARTH__log__level: "debug",
      // Not overrides: the work dir variable, a missing key, other prefixes.
      HEARTH_WORK_DIR: "/elsewhere",
      HEARTH__NOKEY: "x",
      GITEA__server__HTTP_PORT: "9",
      PATH: "/usr/bin",
    });
    expect(overrides.map((o) => `${o.section}.${o.key}=${o.value}`).sort()).toEqual([
      "log.LEVEL=debug",
      "server.HTTP_PORT=4000",
      "service.DISABLE_REGISTRATION=true",
    ]);
    const s = buildSettings(applyOverrides(raw, overrides), inputs).settings;
    expect(s.server.httpPort).toBe(4000);
    expect(s.server.domain).toBe("file.test");
    expect(s.service.disableRegistration).toBe(true);
    expect(s.log.level).toBe("debug");
  });

  test("__FILE reads the value from a file, dropping one trailing newline", async () => {
    const dir = freshDir();
    writeFileSync(join(dir, "key"), "s3cr3t-from-file\n");
    const [o] = await readEnvOverrides({ HEARTH__security__SECRET_KEY__FILE: join(dir, "key") });
    expect(o).toMatchObject({ section: "security", key: "SECRET_KEY", value: "s3cr3t-from-file" });
    expect(o!.variable).toBe("HEARTH__security__SECRET_KEY__FILE");
  });

  test("__FILE naming a missing file is an error naming the variable", async () => {
    expect(readEnvOverrides({ HEARTH__security__SECRET_KEY__FILE: join(tmp, "nope") })).rejects.toThrow(
      "HEARTH__security__SECRET_KEY__FILE",
    );
  });

  test("_0x2E_ style escapes decode in section and key; DEFAULT and an empty section are the root", async () => {
    const overrides = await readEnvOverrides({
      HEARTH__repository_0x2E_upload__ENABLED: "false",
      HEARTH__repository_0X2E_pull_0x2D_request__WORK_IN_PROGRESS_PREFIXES: "WIP:",
      HEARTH__DEFAULT__APP_NAME: "Env forge",
      HEARTH____RUN_MODE: "dev",
    });
    const byVar = Object.fromEntries(overrides.map((o) => [o.variable, `${o.section}|${o.key}`]));
    expect(byVar).toEqual({
      HEARTH__repository_0x2E_upload__ENABLED: "repository.upload|ENABLED",
      HEARTH__repository_0X2E_pull_0x2D_request__WORK_IN_PROGRESS_PREFIXES: "repository.pull-request|WORK_IN_PROGRESS_PREFIXES",
      HEARTH__DEFAULT__APP_NAME: `${ROOT_SECTION}|APP_NAME`,
      HEARTH____RUN_MODE: `${ROOT_SECTION}|RUN_MODE`,
    });
    const s = buildSettings(applyOverrides(new Map(), overrides), inputs).settings;
    expect(s.appName).toBe("Env forge");
    expect(s.runMode).toBe("dev");
  });

  test("the section ends at the first __ outside an escape, as in Gitea", () => {
    expect(decodeEnvSectionKey("server__HTTP_PORT")).toEqual({ section: "server", key: "HTTP_PORT" });
    // The escape's closing `_` is not part of the `__` separator that follows it.
    expect(decodeEnvSectionKey("a_0x2E___KEY")).toEqual({ section: "a.", key: "KEY" });
    expect(decodeEnvSectionKey("s__A__B")).toEqual({ section: "s", key: "A__B" });
    expect(decodeEnvSectionKey("s__k_0x2E_x")).toEqual({ section: "s", key: "k.x" });
    expect(decodeEnvSectionKey("onlysection")).toBeUndefined();
    expect(decodeEnvSectionKey("s__")).toBeUndefined();
  });

  test("loadConfig applies process-style env overrides over the file", async () => {
    const dir = freshDir();
    mkdirSync(join(dir, "custom/conf"), { recursive: true });
    writeFileSync(join(dir, "custom/conf/app.ini"), "[server]\nHTTP_PORT = 3000\n[security]\nSECRET_KEY = k\nINTERNAL_TOKEN = t\n");
    const { settings } = await loadConfig({ env: { HEARTH_WORK_DIR: dir, HEARTH__server__HTTP_PORT: "3999" } });
    expect(settings.workPath).toBe(dir);
    expect(settings.configFile).toBe(join(dir, "custom/conf/app.ini"));
    expect(settings.server.httpPort).toBe(3999);
    expect(settings.security.secretKey).toBe("k");
  });
});

describe("invalid values stop start-up with an error naming the key", () => {
  test.each([
    ["[server]\nOFFLINE_MODE = maybe", "[server] OFFLINE_MODE", "true or false"],
    ["[server]\nHTTP_PORT = abc", "[server] HTTP_PORT", "whole number"],
    ["[server]\nHTTP_PORT = 3000.5", "[server] HTTP_PORT", "whole number"],
    ["[server]\nHTTP_PORT = 70000", "[server] HTTP_PORT", "at most 65535"],
    ["[server]\nHTTP_PORT = -1", "[server] HTTP_PORT", "at least 0"],
    ["[server]\nPROTOCOL = gopher", "[server] PROTOCOL", "one of http, https, http+unix"],
    ["RUN_MODE = staging", "RUN_MODE", "one of prod, dev"],
    ["[log]\nLEVEL = loud", "[log] LEVEL", "one of"],
    ["[database]\nDB_TYPE = mysql", "[database] DB_TYPE", "one of sqlite3"],
    ["[server]\nROOT_URL = not a url", "[server] ROOT_URL", "absolute http(s) URL"],
    ["[server]\nROOT_URL = ftp://files.test/", "[server] ROOT_URL", "absolute http(s) URL"],
    ["[server]\nPROTOCOL = https", "[server] CERT_FILE", "required when PROTOCOL = https"],
    ["[server]\nPROTOCOL = https\nCERT_FILE = c.pem", "[server] KEY_FILE", "required when PROTOCOL = https"],
    ["[security]\nMIN_PASSWORD_LENGTH = 0", "[security] MIN_PASSWORD_LENGTH", "at least 1"],
    ["[api]\nMAX_RESPONSE_ITEMS = 10\nDEFAULT_PAGING_NUM = 20", "[api] DEFAULT_PAGING_NUM", "MAX_RESPONSE_ITEMS"],
    ["[server]\nDOMAIN = bad domain", "[server] DOMAIN", "ROOT_URL"],
  ])("%p", (ini, where, why) => {
    const msg = configError(ini);
    expect(msg).toContain(where);
    expect(msg).toContain(why);
    expect(msg).not.toContain("\n");
  });

  test("the offending value is quoted in the message", () => {
    expect(configError("[server]\nHTTP_PORT = abc")).toBe('invalid configuration: [server] HTTP_PORT = "abc": expected a whole number');
  });

  test("a bad value from the environment is reported the same way", async () => {
    const dir = freshDir();
    expect(loadConfig({ workPath: dir, env: { HEARTH__server__HTTP_PORT: "abc" } })).rejects.toThrow("[server] HTTP_PORT");
  });
});

describe("loadConfig: locating the file and persisting secrets", () => {
  test("--config naming a missing file is an error", async () => {
    const dir = freshDir();
    expect(loadConfig({ workPath: dir, configFile: join(dir, "missing.ini"), env: {} })).rejects.toThrow(
      `config file ${join(dir, "missing.ini")} does not exist`,
    );
  });

  test("a relative --config is taken from the current directory; the work path from the option, then HEARTH_WORK_DIR", async () => {
    const dir = freshDir();
    writeFileSync(join(dir, "my.ini"), "APP_NAME = relative\n[security]\nSECRET_KEY = k\nINTERNAL_TOKEN = t\n");
    const rel = relative(process.cwd(), join(dir, "my.ini"));
    const { settings } = await loadConfig({ configFile: rel, env: { HEARTH_WORK_DIR: dir } });
    expect(settings.appName).toBe("relative");
    expect(settings.configFile).toBe(join(dir, "my.ini"));
    expect(settings.workPath).toBe(dir);
    const other = freshDir();
    const opt = await loadConfig({ workPath: other, env: { HEARTH_WORK_DIR: dir, HEARTH_CUSTOM: "/etc/hc" } });
    expect(opt.settings.workPath).toBe(other);
    expect(opt.settings.customPath).toBe("/etc/hc");
    expect(opt.settings.configFile).toBe("/etc/hc/conf/app.ini");
  });

  test("without persistSecrets, secrets are generated in memory only", async () => {
    const dir = freshDir();
    const { settings } = await loadConfig({ workPath: dir, env: {} });
    expect(settings.security.secretKey).toHaveLength(64);
    expect(settings.security.internalToken.length).toBeGreaterThan(64);
    expect(() => statSync(join(dir, "custom/conf/app.ini"))).toThrow();
  });

  test("persistSecrets creates the default file with both keys, and leaves it alone once they are there", async () => {
    const dir = freshDir();
    const file = join(dir, "custom/conf/app.ini");
    const first = await loadConfig({ workPath: dir, env: {}, persistSecrets: true });
    const text = readFileSync(file, "utf8");
    expect(text).toContain(`SECRET_KEY = ${first.settings.security.secretKey}`);
    expect(text).toContain(`INTERNAL_TOKEN = ${first.settings.security.internalToken}`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const parsed = parseIni(text).get("security")!;
    expect(parsed.get("SECRET_KEY")).toBe(first.settings.security.secretKey);

    const before = statSync(file);
    const second = await loadConfig({ workPath: dir, env: {}, persistSecrets: true });
    expect(second.settings.security.secretKey).toBe(first.settings.security.secretKey);
    expect(second.settings.security.internalToken).toBe(first.settings.security.internalToken);
    expect(readFileSync(file, "utf8")).toBe(text);
    expect(statSync(file).ino).toBe(before.ino); // not rewritten (a rewrite renames a new file in)
  });

  test("persistSecrets adds keys to an existing [security] section, keeping comments and other keys", async () => {
    const dir = freshDir();
    const file = join(dir, "app.ini");
    const original = [
      "; my forge",
      "APP_NAME = Kept",
      "",
      "[server]",
      "; the port",
      "HTTP_PORT = 3123",
      "",
      "[ security ] ; secrets below",
      "# hand-written note",
      "MIN_PASSWORD_LENGTH = 12",
      "",
      "[log]",
      "LEVEL = warn",
      "",
    ].join("\n");
    writeFileSync(file, original);
    chmodSync(file, 0o640);
    const { settings } = await loadConfig({ workPath: dir, configFile: file, env: {}, persistSecrets: true });
    const text = readFileSync(file, "utf8");
    // Every original line is still there, in order; only the two keys were added.
    const lines = text.split("\n");
    expect(lines.filter((l) => !/^(SECRET_KEY|INTERNAL_TOKEN|WORK_PATH) = /.test(l))).toEqual(original.split("\n"));
    // The work path used is recorded at the top, as Gitea does, so every command shares it.
    expect(lines[0]).toBe(`WORK_PATH = ${dir}`);
    expect(lines.filter((l) => l.startsWith("SECRET_KEY = "))).toHaveLength(1);
    expect(statSync(file).mode & 0o777).toBe(0o640);
    const again = await loadConfig({ workPath: dir, configFile: file, env: {} });
    expect(again.settings.security.secretKey).toBe(settings.security.secretKey);
    expect(again.settings.security.internalToken).toBe(settings.security.internalToken);
    expect(again.settings.security.minPasswordLength).toBe(12);
    expect(again.settings.server.httpPort).toBe(3123);
    expect(again.settings.appName).toBe("Kept");
    expect(again.settings.log.level).toBe("warn");
  });

  test("persistSecrets appends a [security] section when there is none, and keeps CRLF line ends", async () => {
    const dir = freshDir();
    const file = join(dir, "app.ini");
    writeFileSync(file, "[server]\r\nHTTP_PORT = 3124\r\n");
    const { settings } = await loadConfig({ workPath: dir, configFile: file, env: {}, persistSecrets: true });
    const text = readFileSync(file, "utf8");
    expect(text.startsWith(`WORK_PATH = ${dir}\r\n[server]\r\nHTTP_PORT = 3124\r\n`)).toBe(true);
    expect(text).toContain(`\r\n[security]\r\nSECRET_KEY = ${settings.security.secretKey}\r\n`);
    expect(text.replace(/\r\n/g, "")).not.toContain("\n");
  });

  test("an empty SECRET_KEY line is filled in, not duplicated, so the file does not grow on every start", async () => {
    const dir = freshDir();
    const file = join(dir, "app.ini");
    writeFileSync(file, "[security]\nINTERNAL_TOKEN = keep-me\n; set me\nSECRET_KEY =\n");
    const { settings } = await loadConfig({ workPath: dir, configFile: file, env: {}, persistSecrets: true });
    expect(settings.security.internalToken).toBe("keep-me");
    expect(readFileSync(file, "utf8")).toBe(
      `WORK_PATH = ${dir}\n[security]\nINTERNAL_TOKEN = keep-me\n; set me\nSECRET_KEY = ${settings.security.secretKey}\n`,
    );
    const again = await loadConfig({ workPath: dir, configFile: file, env: {}, persistSecrets: true });
    expect(again.settings.security.secretKey).toBe(settings.security.secretKey);
  });

  test("a key the environment empties is not overwritten in the file", async () => {
    const dir = freshDir();
    const file = join(dir, "app.ini");
    const original = "[security]\nSECRET_KEY = file-key\nINTERNAL_TOKEN = file-token\n";
    writeFileSync(file, original);
    const { settings } = await loadConfig({
      workPath: dir,
      configFile: file,
      env: { HEARTH__security__SECRET_KEY: "" },
      persistSecrets: true,
    });
    expect(settings.security.secretKey).toHaveLength(64);
    expect(settings.security.internalToken).toBe("file-token");
    expect(readFileSync(file, "utf8")).toBe(`WORK_PATH = ${dir}\n${original}`);
  });

  test("a symlinked config file is updated through the link", async () => {
    const dir = freshDir();
    const real = join(dir, "real.ini");
    const link = join(dir, "link.ini");
    writeFileSync(real, "[server]\nHTTP_PORT = 3125\n");
    symlinkSync(real, link);
    const { settings } = await loadConfig({ workPath: dir, configFile: link, env: {}, persistSecrets: true });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, "utf8")).toContain(`SECRET_KEY = ${settings.security.secretKey}`);
  });

  test("secrets from the environment are used and nothing is written", async () => {
    const dir = freshDir();
    const { settings } = await loadConfig({
      workPath: dir,
      env: { HEARTH__security__SECRET_KEY: "env-key", HEARTH__security__INTERNAL_TOKEN: "env-token" },
      persistSecrets: true,
    });
    expect(settings.security.secretKey).toBe("env-key");
    expect(() => statSync(join(dir, "custom/conf/app.ini"))).toThrow();
  });

  test("WORK_PATH in the file decides the work path, relative to the file's folder", async () => {
    const dir = freshDir();
    const file = join(dir, "conf.ini");
    writeFileSync(file, "WORK_PATH = instance\n[security]\nSECRET_KEY = k\nINTERNAL_TOKEN = t\n");
    const { settings } = await loadConfig({ workPath: "/somewhere/else", configFile: file, env: {}, persistSecrets: true });
    expect(settings.workPath).toBe(join(dir, "instance"));
    expect(settings.server.appDataPath).toBe(join(dir, "instance", "data"));
    expect(settings.database.path).toBe(join(dir, "instance", "data", "hearth.db"));
    expect(readFileSync(file, "utf8")).toBe("WORK_PATH = instance\n[security]\nSECRET_KEY = k\nINTERNAL_TOKEN = t\n");
  });

  test("generateSecret shapes", () => {
    const a = generateSecret("SECRET_KEY");
    expect(a).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(generateSecret("SECRET_KEY")).not.toBe(a);
    expect(generateSecret("INTERNAL_TOKEN")).toMatch(/^[A-Za-z0-9_-]{88}$/);
  });
});

describe("app.ini.example documents every setting", () => {
  const example = readFileSync(join(import.meta.dir, "..", "app.ini.example"), "utf8");

  /** `section.KEY` for every key shown as `;KEY = default` (or set), by the section it sits in. */
  function documented(): Map<string, string> {
    const out = new Map<string, string>();
    let section = ROOT_SECTION;
    for (const line of example.split("\n")) {
      const header = /^\[([^\]]+)\]\s*$/.exec(line);
      if (header) {
        section = header[1]!.toLowerCase();
        continue;
      }
      const key = /^;?([A-Z][A-Z0-9_]*) =(.*)$/.exec(line);
      if (key) out.set(`${section}.${key[1]}`, key[2]!.trim());
    }
    return out;
  }

  test("every key buildSettings reads is shown under its section, and nothing else is", () => {
    const { reader } = buildSettings(new Map(), inputs);
    const read = [...reader.keysRead].sort();
    expect(read.length).toBeGreaterThan(40);
    expect(read).toContain("server.HTTP_PORT");
    expect(read).toContain(`${ROOT_SECTION}.APP_NAME`);
    const docs = documented();
    const missing = read.filter((k) => !docs.has(k));
    expect(missing).toEqual([]);
    const stale = [...docs.keys()].filter((k) => !reader.keysRead.has(k)).sort();
    expect(stale).toEqual([]);
  });

  test("root keys come before the first section", () => {
    const firstSection = example.search(/^\[/m);
    expect(example.search(/^;APP_NAME = /m)).toBeLessThan(firstSection);
    expect(example.search(/^;RUN_MODE = /m)).toBeLessThan(firstSection);
  });

  test("the defaults shown are the real defaults", () => {
    // Uncomment every shown key: the resulting settings must equal those of an empty file.
    const uncommented = example.replace(/^;([A-Z][A-Z0-9_]* =)/gm, "$1");
    const shown = buildSettings(parseIni(uncommented), inputs).settings;
    const defaults = buildSettings(new Map(), inputs).settings;
    expect({ ...shown, server: { ...shown.server, rootUrlExplicit: false, localRootUrlExplicit: false } }).toEqual(defaults);
  });

  test("it explains the file location, the environment form and secret generation", () => {
    expect(example).toContain("custom/conf/app.ini");
    expect(example).toContain("HEARTH_WORK_DIR");
    expect(example).toContain("--work-path");
    expect(example).toContain("HEARTH__SECTION__KEY");
    expect(example).toContain("__FILE");
    expect(example).toContain("_0x2E_");
    expect(example).toContain("HEARTH__DEFAULT__");
    expect(example).toMatch(/SECRET_KEY and INTERNAL_TOKEN are generated/);
  });
});
