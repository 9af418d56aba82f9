import type { AnyOperation } from "../../../route.ts";

export const rawOperations: AnyOperation[] = [];
