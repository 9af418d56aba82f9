import { isAbsolute, join, resolve } from "node:path";
import { ConfigError, ConfigReader } from "./reader.ts";
import { ROOT_SECTION, type RawConfig } from "./ini-source.ts";
import { readMailer, type MailerSettings } from "./mailer.ts";
import { readWebhook, type WebhookSettings } from "./webhook.ts";
import { readMigrations, readMirror, type MigrationsSettings, type MirrorSettings } from "./mirror.ts";
import { readPackages, type PackagesSettings } from "./packages.ts";
import { readActions, type ActionsSettings } from "./actions.ts";

export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "critical", "fatal", "none"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Every setting hearth honours, typed and validated; built once at startup. */
export interface Settings {
  appName: string;
  runMode: "prod" | "dev";
  workPath: string;
  customPath: string;
  configFile: string;
  server: {
    protocol: "http" | "https" | "http+unix";
    domain: string;
    httpAddr: string;
    httpPort: number;
    /** Always ends with `/`. */
    rootUrl: string;
    rootUrlExplicit: boolean;
    /**
     * How hearth's own processes (git hooks) reach the server: ends with `/`. Derived from the
     * listen address unless set; the web command fills in the real port when HTTP_PORT is 0.
     */
    localRootUrl: string;
    localRootUrlExplicit: boolean;
    appDataPath: string;
    offlineMode: boolean;
    certFile: string;
    keyFile: string;
  };
  database: { dbType: "sqlite3"; path: string };
  repository: {
    root: string;
    disableHttpGit: boolean;
    defaultBranch: string;
    /** Repositories a user may own; -1 means no limit. */
    maxCreationLimit: number;
    /** `DISABLE_MIGRATIONS`: `POST /repos/migrate` and the migrate page answer 403. */
    disableMigrations: boolean;
    allowForkWithoutMaximumLimit: boolean;
    /** `DISABLE_STARS`: no starring; the star endpoints answer 403. */
    disableStars: boolean;
    /** `[repository.release] ALLOWED_TYPES`: what release assets may be; empty allows everything. */
    releaseAllowedTypes: string;
    /**
     * `BITMAP_AFTER_PUSH_MIN_SIZE` (MiB): a push that leaves at least this much pack data without a
     * reachability bitmap gets one written at once, not only by the repack 30 s later; -1: never.
     */
    bitmapAfterPushMinMiB: number;
  };
  security: {
    installLock: boolean;
    secretKey: string;
    internalToken: string;
    disableQueryAuthToken: boolean;
    reverseProxyAuthenticationUser: string;
    reverseProxyAuthenticationEmail: string;
    minPasswordLength: number;
    loginRateLimit: number;
    loginRateWindowSeconds: number;
    /** Days a "remember this device" sign-in lasts. */
    loginRememberDays: number;
    /** Cookie carrying the remember-me token (`{lookup}:{validator}`). */
    cookieRememberName: string;
  };
  /** `[session]`: the web interface's sign-in sessions, kept in the database. */
  session: {
    cookieName: string;
    /** Seconds a session lasts without being used. */
    lifeTimeSeconds: number;
    /** Cookies only over HTTPS; defaults to whether ROOT_URL is https. */
    cookieSecure: boolean;
    sameSite: "lax" | "strict" | "none";
  };
  service: {
    disableRegistration: boolean;
    requireSigninView: boolean;
    /** Show the sign-up link (self-registration stays possible unless DISABLE_REGISTRATION). */
    showRegistrationButton: boolean;
    enableReverseProxyAuthentication: boolean;
    enableReverseProxyAuthenticationApi: boolean;
    defaultKeepEmailPrivate: boolean;
    noReplyAddress: string;
    /** Whether new accounts may create organizations. */
    defaultAllowCreateOrganization: boolean;
    /** Whether a new organization membership is shown publicly. */
    defaultOrgMemberVisible: boolean;
    /** Mail participants about issue and pull-request events; needs `[mailer] ENABLED`. */
    enableNotifyMail: boolean;
  };
  admin: {
    /** Only site administrators may create organizations. */
    disableRegularOrgCreation: boolean;
  };
  picture: {
    /** Largest avatar upload, bytes. */
    avatarMaxFileSize: number;
  };
  api: {
    enableSwagger: boolean;
    maxResponseItems: number;
    defaultPagingNum: number;
    defaultGitTreesPerPage: number;
    defaultMaxBlobSize: number;
    defaultMaxResponseSize: number;
  };
  attachment: { enabled: boolean; allowedTypes: string; maxSize: number; maxFiles: number };
  mailer: MailerSettings;
  webhook: WebhookSettings;
  mirror: MirrorSettings;
  migrations: MigrationsSettings;
  packages: PackagesSettings;
  actions: ActionsSettings;
  /** `[git.timeout]`: seconds a git operation may take. */
  gitTimeout: { mirror: number; migrate: number };
  ui: {
    defaultTheme: string;
    reactions: string[];
    customEmojis: string[];
    /** Items on a page of the explore lists and profiles. */
    explorePagingNum: number;
    /** Issues and pull requests on a page of a repository's lists. */
    issuePagingNum: number;
    /** Commits on a page of a history. */
    commitsPagingNum: number;
    /** Files larger than this (bytes) are offered for download instead of shown. */
    maxDisplayFileSize: number;
  };
  log: { level: LogLevel };
}

export interface SettingsInputs {
  workPath: string;
  customPath: string;
  configFile: string;
  /** `web --port N` wins over HTTP_PORT. */
  portOverride?: number;
}

function list(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Gitea's ROOT_URL normalisation: the scheme's default port is dropped (`http://x:80/` →
 * `http://x/`) and the URL ends in exactly one `/`.
 */
export function normalizeRootUrl(value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    // Only reachable for a default built from an unusable DOMAIN; report it against DOMAIN.
    throw new ConfigError("server", "DOMAIN", value, "does not make a valid ROOT_URL");
  }
  return u.toString().replace(/\/+$/, "") + "/";
}

/** A cookie name: token characters only, or the browser would drop it. */
function cookieName(r: ConfigReader, section: string, key: string, fallback: string): string {
  const name = r.string(section, key, fallback);
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) throw new ConfigError(section, key, name, "is not a valid cookie name");
  return name;
}

function resolveFrom(base: string, p: string): string {
  return isAbsolute(p) ? p : resolve(base, p);
}

export function buildSettings(raw: RawConfig, inputs: SettingsInputs): { settings: Settings; reader: ConfigReader } {
  const r = new ConfigReader(raw);
  const { workPath } = inputs;

  const protocol = r.oneOf("server", "PROTOCOL", ["http", "https", "http+unix"] as const, "http");
  const domain = r.string("server", "DOMAIN", "localhost");
  let httpAddr = r.string("server", "HTTP_ADDR", protocol === "http+unix" ? "" : "0.0.0.0");
  // Read (and so validated) even when `web --port` overrides it.
  const configuredPort = r.int("server", "HTTP_PORT", 3000, { min: 0, max: 65535 });
  const httpPort = inputs.portOverride ?? configuredPort;
  if (protocol === "http+unix") {
    if (!httpAddr) throw new ConfigError("server", "HTTP_ADDR", "", "a socket path is required when PROTOCOL = http+unix");
    // Gitea: a relative socket path is taken from the work path.
    httpAddr = resolveFrom(workPath, httpAddr);
  }
  const scheme = protocol === "https" ? "https" : "http";
  const rootUrlExplicit = r.string("server", "ROOT_URL", "") !== "";
  const rootUrl = normalizeRootUrl(r.url("server", "ROOT_URL", `${scheme}://${domain}:${httpPort}/`));

  const localHost = httpAddr === "0.0.0.0" || httpAddr === "::" || httpAddr === "" ? "localhost" : httpAddr;
  const localRootUrlExplicit = r.string("server", "LOCAL_ROOT_URL", "") !== "";
  const localRootUrl = normalizeRootUrl(
    r.url(
      "server",
      "LOCAL_ROOT_URL",
      protocol === "http+unix" ? "http://unix/" : `${scheme}://${localHost.includes(":") ? `[${localHost}]` : localHost}:${httpPort}/`,
    ),
  );

  const appDataPath = resolveFrom(workPath, r.string("server", "APP_DATA_PATH", "data"));
  const certFile = r.string("server", "CERT_FILE", "");
  const keyFile = r.string("server", "KEY_FILE", "");
  if (protocol === "https" && (!certFile || !keyFile)) {
    throw new ConfigError("server", certFile ? "KEY_FILE" : "CERT_FILE", "", "required when PROTOCOL = https");
  }

  // WORK_PATH has already become `workPath` in load.ts; reading it here records it as a key
  // hearth honours, so app.ini.example must document it.
  r.string(ROOT_SECTION, "WORK_PATH", "");

  const settings: Settings = {
    appName: r.string(ROOT_SECTION, "APP_NAME", "hearth"),
    runMode: r.oneOf(ROOT_SECTION, "RUN_MODE", ["prod", "dev"] as const, "prod"),
    workPath,
    customPath: inputs.customPath,
    configFile: inputs.configFile,
    server: {
      protocol,
      domain,
      httpAddr,
      httpPort,
      rootUrl,
      rootUrlExplicit,
      localRootUrl,
      localRootUrlExplicit,
      appDataPath,
      offlineMode: r.bool("server", "OFFLINE_MODE", true),
      certFile: certFile && resolveFrom(inputs.customPath, certFile),
      keyFile: keyFile && resolveFrom(inputs.customPath, keyFile),
    },
    database: {
      dbType: r.oneOf("database", "DB_TYPE", ["sqlite3"] as const, "sqlite3"),
      path: resolveFrom(workPath, r.string("database", "PATH", join(appDataPath, "hearth.db"))),
    },
    repository: {
      root: resolveFrom(workPath, r.string("repository", "ROOT", join(appDataPath, "repositories"))),
      disableHttpGit: r.bool("repository", "DISABLE_HTTP_GIT", false),
      defaultBranch: r.string("repository", "DEFAULT_BRANCH", "main"),
      maxCreationLimit: r.int("repository", "MAX_CREATION_LIMIT", -1, { min: -1 }),
      disableMigrations: r.bool("repository", "DISABLE_MIGRATIONS", false),
      allowForkWithoutMaximumLimit: r.bool("repository", "ALLOW_FORK_WITHOUT_MAXIMUM_LIMIT", true),
      disableStars: r.bool("repository", "DISABLE_STARS", false),
      releaseAllowedTypes: r.string("repository.release", "ALLOWED_TYPES", ""),
      bitmapAfterPushMinMiB: r.int("repository", "BITMAP_AFTER_PUSH_MIN_SIZE", 32, { min: -1 }),
    },
    security: {
      installLock: r.bool("security", "INSTALL_LOCK", true),
      secretKey: r.string("security", "SECRET_KEY", ""),
      internalToken: r.string("security", "INTERNAL_TOKEN", ""),
      disableQueryAuthToken: r.bool("security", "DISABLE_QUERY_AUTH_TOKEN", false),
      reverseProxyAuthenticationUser: r.string("security", "REVERSE_PROXY_AUTHENTICATION_USER", "X-WEBAUTH-USER"),
      reverseProxyAuthenticationEmail: r.string("security", "REVERSE_PROXY_AUTHENTICATION_EMAIL", "X-WEBAUTH-EMAIL"),
      minPasswordLength: r.int("security", "MIN_PASSWORD_LENGTH", 8, { min: 1, max: 255 }),
      loginRateLimit: r.int("security", "LOGIN_RATE_LIMIT", 10, { min: 0 }),
      loginRateWindowSeconds: r.int("security", "LOGIN_RATE_WINDOW", 60, { min: 1 }),
      loginRememberDays: r.int("security", "LOGIN_REMEMBER_DAYS", 31, { min: 0 }),
      cookieRememberName: cookieName(r, "security", "COOKIE_REMEMBER_NAME", "gitea_incredible"),
    },
    session: {
      cookieName: cookieName(r, "session", "COOKIE_NAME", "i_like_gitea"),
      lifeTimeSeconds: r.int("session", "SESSION_LIFE_TIME", 86400, { min: 60 }),
      cookieSecure: r.bool("session", "COOKIE_SECURE", rootUrl.startsWith("https:")),
      sameSite: r.oneOf("session", "SAME_SITE", ["lax", "strict", "none"] as const, "lax"),
    },
    service: {
      disableRegistration: r.bool("service", "DISABLE_REGISTRATION", false),
      requireSigninView: r.bool("service", "REQUIRE_SIGNIN_VIEW", false),
      showRegistrationButton: r.bool("service", "SHOW_REGISTRATION_BUTTON", true),
      enableReverseProxyAuthentication: r.bool("service", "ENABLE_REVERSE_PROXY_AUTHENTICATION", false),
      enableReverseProxyAuthenticationApi: r.bool("service", "ENABLE_REVERSE_PROXY_AUTHENTICATION_API", false),
      defaultKeepEmailPrivate: r.bool("service", "DEFAULT_KEEP_EMAIL_PRIVATE", false),
      noReplyAddress: r.string("service", "NO_REPLY_ADDRESS", "noreply." + domain),
      defaultAllowCreateOrganization: r.bool("service", "DEFAULT_ALLOW_CREATE_ORGANIZATION", true),
      defaultOrgMemberVisible: r.bool("service", "DEFAULT_ORG_MEMBER_VISIBLE", false),
      enableNotifyMail: r.bool("service", "ENABLE_NOTIFY_MAIL", false),
    },
    admin: {
      disableRegularOrgCreation: r.bool("admin", "DISABLE_REGULAR_ORG_CREATION", false),
    },
    picture: {
      avatarMaxFileSize: r.int("picture", "AVATAR_MAX_FILE_SIZE", 1048576, { min: 1 }),
    },
    api: {
      enableSwagger: r.bool("api", "ENABLE_SWAGGER", true),
      maxResponseItems: r.int("api", "MAX_RESPONSE_ITEMS", 50, { min: 1 }),
      defaultPagingNum: r.int("api", "DEFAULT_PAGING_NUM", 30, { min: 1 }),
      defaultGitTreesPerPage: r.int("api", "DEFAULT_GIT_TREES_PER_PAGE", 1000, { min: 1 }),
      defaultMaxBlobSize: r.int("api", "DEFAULT_MAX_BLOB_SIZE", 10485760, { min: 0 }),
      defaultMaxResponseSize: r.int("api", "DEFAULT_MAX_RESPONSE_SIZE", 104857600, { min: 0 }),
    },
    attachment: {
      enabled: r.bool("attachment", "ENABLED", true),
      allowedTypes: r.string(
        "attachment",
        "ALLOWED_TYPES",
        ".avif,.cpuprofile,.csv,.dmp,.docx,.fodg,.fodp,.fods,.fodt,.gif,.gz,.jpeg,.jpg,.json,.jsonc,.log,.md,.mov,.mp4,.odf,.odg,.odp,.ods,.odt,.patch,.pdf,.png,.pptx,.svg,.tgz,.txt,.webm,.webp,.xls,.xlsx,.zip",
      ),
      maxSize: r.int("attachment", "MAX_SIZE", 2048, { min: 0 }),
      maxFiles: r.int("attachment", "MAX_FILES", 5, { min: 0 }),
    },
    mailer: readMailer(r),
    webhook: readWebhook(r),
    mirror: readMirror(r),
    migrations: readMigrations(r),
    packages: readPackages(r, appDataPath),
    actions: readActions(r),
    gitTimeout: { mirror: r.int("git.timeout", "MIRROR", 300, { min: 1 }), migrate: r.int("git.timeout", "MIGRATE", 600, { min: 1 }) },
    ui: {
      defaultTheme: r.string("ui", "DEFAULT_THEME", "gitea-auto"),
      reactions: list(r.string("ui", "REACTIONS", "+1, -1, laugh, hooray, confused, heart, rocket, eyes")),
      customEmojis: list(r.string("ui", "CUSTOM_EMOJIS", "git, gitea, codeberg, gitlab, github, gogs")),
      explorePagingNum: r.int("ui", "EXPLORE_PAGING_NUM", 20, { min: 1, max: 100 }),
      issuePagingNum: r.int("ui", "ISSUE_PAGING_NUM", 20, { min: 1, max: 100 }),
      commitsPagingNum: r.int("ui", "COMMITS_PAGING_NUM", 30, { min: 1, max: 100 }),
      maxDisplayFileSize: r.int("ui", "MAX_DISPLAY_FILE_SIZE", 1048576, { min: 0 }),
    },
    log: { level: r.oneOf("log", "LEVEL", LOG_LEVELS, "info") },
  };
  // Sign-up confirms nothing by mail and shows no captcha: a configuration asking for either must
  // not believe it has them.
  for (const key of ["REGISTER_EMAIL_CONFIRM", "ENABLE_CAPTCHA"]) {
    if (r.bool("service", key, false)) throw new ConfigError("service", key, "true", "is not supported by hearth; leave it off");
  }
  if (settings.api.defaultPagingNum > settings.api.maxResponseItems) {
    throw new ConfigError(
      "api",
      "DEFAULT_PAGING_NUM",
      String(settings.api.defaultPagingNum),
      `must not exceed [api] MAX_RESPONSE_ITEMS (${settings.api.maxResponseItems})`,
    );
  }
  return { settings, reader: r };
}
