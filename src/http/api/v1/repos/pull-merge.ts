import type { AnyOperation } from "../../../route.ts";

export const pullMergeOperations: AnyOperation[] = [];
