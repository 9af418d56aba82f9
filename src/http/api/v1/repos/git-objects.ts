import type { AnyOperation } from "../../../route.ts";

export const gitObjectOperations: AnyOperation[] = [];
