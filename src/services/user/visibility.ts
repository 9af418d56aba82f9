import { UserType, Visibility } from "../../db/schema/index.ts";

const NAMES = ["public", "limited", "private"] as const;
export type VisibilityName = (typeof NAMES)[number];

export function visibilityName(v: number): VisibilityName {
  return NAMES[v] ?? "public";
}

export function parseVisibility(name: string): number | undefined {
  const i = NAMES.indexOf(name as VisibilityName);
  return i >= 0 ? i : undefined;
}

export { UserType, Visibility };
