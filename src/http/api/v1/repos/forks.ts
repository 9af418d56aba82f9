import type { AnyOperation } from "../../../route.ts";

export const forkOperations: AnyOperation[] = [];
