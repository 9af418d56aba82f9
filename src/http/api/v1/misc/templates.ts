import type { AnyOperation } from "../../../route.ts";

export const templateOperations: AnyOperation[] = [];
