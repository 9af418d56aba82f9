import type { AnyOperation } from "../../../route.ts";

export const dependencyOperations: AnyOperation[] = [];
