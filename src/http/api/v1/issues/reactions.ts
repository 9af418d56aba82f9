import type { AnyOperation } from "../../../route.ts";

export const reactionOperations: AnyOperation[] = [];
