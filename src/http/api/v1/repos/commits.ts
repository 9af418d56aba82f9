import type { AnyOperation } from "../../../route.ts";

export const commitOperations: AnyOperation[] = [];
