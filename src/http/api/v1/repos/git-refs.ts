import type { AnyOperation } from "../../../route.ts";

export const gitRefOperations: AnyOperation[] = [];
