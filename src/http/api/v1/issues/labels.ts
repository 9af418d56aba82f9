import type { AnyOperation } from "../../../route.ts";

export const labelOperations: AnyOperation[] = [];
