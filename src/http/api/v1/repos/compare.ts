import type { AnyOperation } from "../../../route.ts";

export const compareOperations: AnyOperation[] = [];
