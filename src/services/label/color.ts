import { Invalid } from "../../lib/errors.ts";

/**
 * Gitea's label.NormalizeColor: trimmed and lower-cased, `#` added to a bare 3 or 6 hex digits, the
 * 3-digit form doubled out. Stored as `#rrggbb`; the API shows it without the `#`. Anything else is
 * a 422 with Gitea's message.
 */
export function normalizeColor(input: string): string {
  let color = input.toLowerCase().trim();
  if (color.length === 6 || color.length === 3) color = `#${color}`;
  if (!/^#([0-9a-f]{3}|[0-9a-f]{6})$/.test(color)) throw new Invalid(`invalid color: ${color}`);
  if (color.length === 4) color = `#${color[1]}${color[1]}${color[2]}${color[2]}${color[3]}${color[3]}`;
  return color;
}
