import type { AnyOperation } from "../../../route.ts";

export const starOperations: AnyOperation[] = [];
