import type { LogLevel } from "../config/settings.ts";

const ORDER: Record<LogLevel, number> = {
  trace: 0,
  debug: 1,
  info: 2,
  warn: 3,
  error: 4,
  critical: 5,
  fatal: 6,
  none: 7,
};

export interface Logger {
  level: LogLevel;
  enabled(level: LogLevel): boolean;
  log(level: LogLevel, msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  debug(msg: string, fields?: Record<string, unknown>): void;
}

/** One structured line per event on stderr; callers never pass secrets (tokens, passwords, Authorization). */
export function createLogger(level: LogLevel, write: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  const threshold = ORDER[level];
  const logger: Logger = {
    level,
    enabled: (l) => ORDER[l] >= threshold && l !== "none",
    log(l, msg, fields) {
      if (!logger.enabled(l)) return;
      const extra = fields
        ? " " +
          Object.entries(fields)
            .map(([k, v]) => `${k}=${typeof v === "string" && !/\s/.test(v) ? v : JSON.stringify(v)}`)
            .join(" ")
        : "";
      write(`${new Date().toISOString()} ${l.toUpperCase()} ${msg}${extra}\n`);
    },
    info: (m, f) => logger.log("info", m, f),
    warn: (m, f) => logger.log("warn", m, f),
    error: (m, f) => logger.log("error", m, f),
    debug: (m, f) => logger.log("debug", m, f),
  };
  return logger;
}
