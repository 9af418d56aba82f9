import type { AnyOperation } from "../../../route.ts";

export const timeOperations: AnyOperation[] = [];
