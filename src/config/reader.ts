import { ROOT_SECTION, type RawConfig } from "./ini-source.ts";

/** A configuration value that failed validation; the message names the key, as startup must. */
export class ConfigError extends Error {
  constructor(section: string, key: string, value: string, expected: string) {
    const where = section === ROOT_SECTION ? key : `[${section}] ${key}`;
    super(`invalid configuration: ${where} = ${JSON.stringify(value)}: ${expected}`);
    this.name = "ConfigError";
  }
}

const TRUE = new Set(["1", "t", "true", "y", "yes", "on"]);
const FALSE = new Set(["0", "f", "false", "n", "no", "off"]);

/** Typed accessors over a raw config; every key read is recorded so docs can be checked against it. */
export class ConfigReader {
  readonly keysRead = new Set<string>();

  constructor(private readonly raw: RawConfig) {}

  private lookup(section: string, key: string): string | undefined {
    this.keysRead.add(`${section}.${key}`);
    const v = this.raw.get(section)?.get(key);
    return v === undefined ? undefined : v.trim();
  }

  has(section: string, key: string): boolean {
    return this.raw.get(section)?.get(key) !== undefined;
  }

  string(section: string, key: string, fallback: string): string {
    const v = this.lookup(section, key);
    return v === undefined || v === "" ? fallback : v;
  }

  bool(section: string, key: string, fallback: boolean): boolean {
    const v = this.lookup(section, key);
    if (v === undefined || v === "") return fallback;
    const lower = v.toLowerCase();
    if (TRUE.has(lower)) return true;
    if (FALSE.has(lower)) return false;
    throw new ConfigError(section, key, v, "expected true or false");
  }

  int(section: string, key: string, fallback: number, range: { min?: number; max?: number } = {}): number {
    const v = this.lookup(section, key);
    if (v === undefined || v === "") return fallback;
    if (!/^-?\d+$/.test(v)) throw new ConfigError(section, key, v, "expected a whole number");
    const n = Number(v);
    if (range.min !== undefined && n < range.min) throw new ConfigError(section, key, v, `must be at least ${range.min}`);
    if (range.max !== undefined && n > range.max) throw new ConfigError(section, key, v, `must be at most ${range.max}`);
    return n;
  }

  oneOf<T extends string>(section: string, key: string, allowed: readonly T[], fallback: T, caseInsensitive = true): T {
    const v = this.lookup(section, key);
    if (v === undefined || v === "") return fallback;
    const hit = allowed.find((a) => (caseInsensitive ? a.toLowerCase() === v.toLowerCase() : a === v));
    if (!hit) throw new ConfigError(section, key, v, `expected one of ${allowed.join(", ")}`);
    return hit;
  }

  url(section: string, key: string, fallback: string): string {
    const v = this.lookup(section, key);
    if (v === undefined || v === "") return fallback;
    let u: URL;
    try {
      u = new URL(v);
    } catch {
      throw new ConfigError(section, key, v, "expected an absolute http(s) URL");
    }
    if (u.protocol !== "http:" && u.protocol !== "https:") {
      throw new ConfigError(section, key, v, "expected an absolute http(s) URL");
    }
    return v;
  }
}
