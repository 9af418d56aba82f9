import type { LabelRow } from "../../../db/schema/index.ts";
import { html, type Html } from "../../../lib/html.ts";

/** A label's colour as `#rrggbb` (stored normalised; anything else shows grey). */
export function labelColor(color: string): string {
  const c = color.trim().toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(c)) return c;
  if (/^#[0-9a-f]{3}$/.test(c)) return `#${c[1]}${c[1]}${c[2]}${c[2]}${c[3]}${c[3]}`;
  return "#cccccc";
}

/** WCAG relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** Whether white text reads better on the colour than black (the higher WCAG contrast wins). */
export function lightTextOn(hex: string): boolean {
  const l = luminance(hex);
  return (1.05 / (l + 0.05)) > ((l + 0.05) / 0.05);
}

/**
 * A label as a chip in its own colour. The page's policy refuses `style` attributes, so the colour
 * comes as an SVG fill (a presentation attribute, not a style) of a shape stretched behind the name;
 * the text is black or white, whichever reads better on it. The name is text, so it wraps, is read
 * out and is found by the browser's search like any other.
 */
export function labelChip(label: Pick<LabelRow, "name" | "color" | "description">, href?: string): Html {
  const color = labelColor(label.color);
  const cls = `label-chip ${lightTextOn(color) ? "on-dark" : "on-light"}`;
  const inner = html`<svg class="chip-bg" aria-hidden="true" focusable="false" viewBox="0 0 1 1" preserveAspectRatio="none"><rect width="1" height="1" fill="${color}"/></svg>${label.name}`;
  const title = label.description ? html` title="${label.description}"` : "";
  return href ? html`<a class="${cls}" href="${href}"${title}>${inner}</a>` : html`<span class="${cls}"${title}>${inner}</span>`;
}
