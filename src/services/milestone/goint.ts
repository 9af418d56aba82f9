/**
 * Go's strconv.ParseInt(s, 0, 64), which Gitea uses for a milestone's `{id}`: an optional sign, then
 * decimal, `0x` hex, `0o` or leading-`0` octal, or `0b` binary, with `_` allowed between digits.
 * Undefined where Go fails; also for numbers past 2^53, which are no id here either way.
 */
export function parseGoInt(input: string): number | undefined {
  let s = input;
  if (s === "") return undefined;
  let negative = false;
  if (s[0] === "+" || s[0] === "-") {
    negative = s[0] === "-";
    s = s.slice(1);
    if (s === "") return undefined;
  }
  let base = 10;
  if (s[0] === "0") {
    const p = s[1]?.toLowerCase();
    if (s.length >= 3 && (p === "b" || p === "o" || p === "x")) {
      base = p === "b" ? 2 : p === "o" ? 8 : 16;
      s = s.slice(2);
    } else {
      base = 8;
      s = s.slice(1);
    }
  }
  if (s.includes("_") && !underscoreOK(input)) return undefined;
  const digits = s.replaceAll("_", "");
  let n = 0n;
  for (const ch of digits.toLowerCase()) {
    const d = ch >= "0" && ch <= "9" ? ch.charCodeAt(0) - 48 : ch >= "a" && ch <= "z" ? ch.charCodeAt(0) - 87 : 99;
    if (d >= base) return undefined;
    n = n * BigInt(base) + BigInt(d);
  }
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  return negative ? -Number(n) : Number(n);
}

/** Go's underscoreOK: underscores only between digits (a base prefix counts as one). */
function underscoreOK(input: string): boolean {
  let s = input;
  let saw = "^";
  let i = 0;
  if (s[0] === "-" || s[0] === "+") s = s.slice(1);
  let hex = false;
  const p = s[1]?.toLowerCase();
  if (s.length >= 2 && s[0] === "0" && (p === "b" || p === "o" || p === "x")) {
    i = 2;
    saw = "0";
    hex = p === "x";
  }
  for (; i < s.length; i++) {
    const c = s[i]!.toLowerCase();
    if ((c >= "0" && c <= "9") || (hex && c >= "a" && c <= "f")) {
      saw = "0";
      continue;
    }
    if (c === "_") {
      if (saw !== "0") return false;
      saw = "_";
      continue;
    }
    if (saw === "_") return false;
    saw = "!";
  }
  return saw !== "_";
}
