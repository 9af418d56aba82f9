/**
 * Gitea's access-token scopes: a bitmap of read/write per category, where write implies read,
 * `all` is every write, and `public-only` is a flag that narrows (never grants) access.
 */
export const SCOPE_CATEGORIES = [
  "activitypub",
  "admin",
  "misc",
  "notification",
  "organization",
  "package",
  "issue",
  "repository",
  "user",
] as const;
export type ScopeCategory = (typeof SCOPE_CATEGORIES)[number];
export type ScopeLevel = "read" | "write";

export const SCOPE_ALL = "all";
export const SCOPE_PUBLIC_ONLY = "public-only";

export class InvalidScopeError extends Error {
  constructor(readonly scope: string) {
    super(`invalid access token scope: ${scope}`);
  }
}

const READ = 1;
const WRITE = 2;

export class ScopeSet {
  private constructor(
    /** Per category: 0 none, 1 read, 3 read+write. */
    private readonly bits: ReadonlyMap<ScopeCategory, number>,
    readonly publicOnly: boolean,
  ) {}

  /** Parses a comma-separated scope string (empty items skipped, no trimming, as Gitea). */
  static parse(value: string | readonly string[]): ScopeSet {
    const items = typeof value === "string" ? value.split(",") : value.flatMap((v) => v.split(","));
    const bits = new Map<ScopeCategory, number>();
    let publicOnly = false;
    for (const item of items) {
      if (item === "") continue;
      if (item === SCOPE_ALL) {
        for (const c of SCOPE_CATEGORIES) bits.set(c, READ | WRITE);
        continue;
      }
      if (item === SCOPE_PUBLIC_ONLY) {
        publicOnly = true;
        continue;
      }
      const m = /^(read|write):([a-z]+)$/.exec(item);
      const category = m?.[2] as ScopeCategory | undefined;
      if (!m || !category || !SCOPE_CATEGORIES.includes(category)) throw new InvalidScopeError(item);
      const add = m[1] === "write" ? READ | WRITE : READ;
      bits.set(category, (bits.get(category) ?? 0) | add);
    }
    return new ScopeSet(bits, publicOnly);
  }

  static all(): ScopeSet {
    return ScopeSet.parse(SCOPE_ALL);
  }

  has(category: ScopeCategory, level: ScopeLevel): boolean {
    const need = level === "write" ? WRITE : READ;
    return ((this.bits.get(category) ?? 0) & need) === need;
  }

  isEmpty(): boolean {
    return !this.publicOnly && [...this.bits.values()].every((b) => b === 0);
  }

  /** Gitea's normalized form: fixed order, read dropped under write, every write folded into `all`. */
  toString(): string {
    const out: string[] = [];
    if (this.publicOnly) out.push(SCOPE_PUBLIC_ONLY);
    const everyWrite = SCOPE_CATEGORIES.every((c) => this.has(c, "write"));
    if (everyWrite) {
      out.push(SCOPE_ALL);
      return out.join(",");
    }
    for (const c of SCOPE_CATEGORIES) {
      if (this.has(c, "write")) out.push(`write:${c}`);
      else if (this.has(c, "read")) out.push(`read:${c}`);
    }
    return out.join(",");
  }

  toList(): string[] {
    const s = this.toString();
    return s === "" ? [] : s.split(",");
  }
}

/** Gitea derives the level from the method: reads for GET/HEAD/OPTIONS, writes otherwise. */
export function levelForMethod(method: string): ScopeLevel {
  return method === "GET" || method === "HEAD" || method === "OPTIONS" ? "read" : "write";
}

/** Every scope string a token can carry, for validation messages and exhaustive tests. */
export function allScopeStrings(): string[] {
  return [SCOPE_ALL, SCOPE_PUBLIC_ONLY, ...SCOPE_CATEGORIES.flatMap((c) => [`read:${c}`, `write:${c}`])];
}
