import type { AnyOperation } from "../../../route.ts";

export const branchOperations: AnyOperation[] = [];
