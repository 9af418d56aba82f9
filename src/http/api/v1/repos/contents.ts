import type { AnyOperation } from "../../../route.ts";

export const contentOperations: AnyOperation[] = [];
