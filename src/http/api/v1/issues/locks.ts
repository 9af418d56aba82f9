import type { AnyOperation } from "../../../route.ts";

export const lockOperations: AnyOperation[] = [];
