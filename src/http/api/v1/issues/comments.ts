import type { AnyOperation } from "../../../route.ts";

export const commentOperations: AnyOperation[] = [];
