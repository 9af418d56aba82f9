import type { AnyOperation } from "../../../route.ts";

export const watchOperations: AnyOperation[] = [];
