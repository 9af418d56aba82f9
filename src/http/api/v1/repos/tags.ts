import type { AnyOperation } from "../../../route.ts";

export const tagOperations: AnyOperation[] = [];
