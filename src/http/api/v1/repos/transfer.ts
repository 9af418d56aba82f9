import type { AnyOperation } from "../../../route.ts";

export const transferOperations: AnyOperation[] = [];
