/**
 * Counts failed sign-ins per client address in a sliding window. Gitea has no such limit; we add
 * one because a forge on the open internet is a password-guessing target.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `key` may try again, or 0 when it may now. A limit of 0 disables limiting. */
  retryAfter(key: string): number {
    if (this.maxFailures <= 0) return 0;
    const recent = this.prune(key);
    if (recent.length < this.maxFailures) return 0;
    const oldest = recent[recent.length - this.maxFailures]!;
    return Math.max(1, Math.ceil((oldest + this.windowMs - this.now()) / 1000));
  }

  recordFailure(key: string): void {
    if (this.maxFailures <= 0) return;
    const recent = this.prune(key);
    recent.push(this.now());
    this.failures.set(key, recent);
    if (this.failures.size > 100_000) this.sweep();
  }

  private prune(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }

  /** Bounds memory under a spray of addresses. */
  private sweep(): void {
    for (const key of [...this.failures.keys()]) this.prune(key);
  }
}
