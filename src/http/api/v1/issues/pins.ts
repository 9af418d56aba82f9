import type { AnyOperation } from "../../../route.ts";

export const pinOperations: AnyOperation[] = [];
