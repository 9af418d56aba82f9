import type { AnyOperation } from "../../../route.ts";

export const statusOperations: AnyOperation[] = [];
