import type { AnyOperation } from "../../../route.ts";

export const branchProtectionOperations: AnyOperation[] = [];
