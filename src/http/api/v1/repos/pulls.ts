import type { AnyOperation } from "../../../route.ts";

export const pullOperations: AnyOperation[] = [];
