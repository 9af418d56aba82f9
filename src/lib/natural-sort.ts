const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

/** Gitea's NaturalSortLess: numbers by value, letters without regard to case, then exactly. */
export function naturalCompare(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
